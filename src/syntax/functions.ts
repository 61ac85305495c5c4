// The names of the language's built-in functions (LANGUAGE.md §5, in the order of its table, then
// the additions of §8), and the message for a name that is none of them. The syntax layer reports
// `name(...)` with an unknown name while parsing; what each built-in does lives in the runtime
// (runtime/builtins.ts), which implements exactly these names.
import { didYouMean } from '../util/suggest.js';
import { builtinForMethod } from './hints.js';

export const BUILTIN_NAMES: readonly string[] = [
  'PRINT', 'NOW', 'FORMAT', 'LEN', 'KEYS', 'APPEND', 'CONTAINS', 'STR', 'NUMBER', 'ROUND', 'FLOOR', 'CEIL', 'ABS', 'MIN', 'MAX', 'TYPE',
  'JOIN', 'SPLIT', 'SLICE', 'SORT', 'REVERSE', 'UPPER', 'LOWER', 'TRIM', 'REPLACE', 'RANGE', 'SUM', 'GET', 'SET',
];

const BUILTIN_SET: ReadonlySet<string> = new Set(BUILTIN_NAMES);

/** Functions of other languages that a line of built-ins replaces, by their name in upper case. */
const REPLACEMENTS: ReadonlyMap<string, string> = new Map([
  ['AVG', 'write SUM(list) / LEN(list)'],
  ['AVERAGE', 'write SUM(list) / LEN(list)'],
  ['MEAN', 'write SUM(list) / LEN(list)'],
  ['FILTER', 'write [x FOR x IN list IF condition]'],
  ['MAP', 'write [expression FOR x IN list]'],
]);

export function isBuiltinName(name: string): boolean {
  return BUILTIN_SET.has(name);
}

/** The built-ins' names, for the repairs of other languages' calls (methods.ts). */
export const BUILTINS_BY_NAME: ReadonlySet<string> = BUILTIN_SET;

/**
 * The message of an UnknownFunctionError for `name(...)`. With `call`, the call itself: a name that
 * means a built-in (`sum(xs)`, `int(s)`) is answered with the whole call as Nuwa writes it
 * (`SUM(xs)`), and a tool called like a function with the CALL that `describeTool` can fill in.
 */
export function unknownFunctionMessage(name: string, isTool?: (name: string) => boolean, repairedHint?: string): string {
  const upper = name.toUpperCase();
  let hint: string;
  if (repairedHint !== undefined && !isTool?.(name)) hint = `: ${repairedHint}`;
  else if (BUILTIN_SET.has(upper)) hint = `: built-in names are uppercase: write \`${upper}\``;
  else if (REPLACEMENTS.has(upper) && !isTool?.(name)) hint = `: ${REPLACEMENTS.get(upper)}`;
  else if (isTool?.(name)) hint = `: \`${name}\` is a tool: write CALL ${name} { ... }`;
  else {
    const method = builtinForMethod(name);
    hint = method && BUILTIN_SET.has(method) ? `: use ${method}(...)` : didYouMean(name, BUILTIN_NAMES);
    if (hint === '' && isTool === undefined && name !== upper) hint = `: to call a tool write CALL ${name} { ... }`;
  }
  return `there is no function \`${name}\`${hint} (the built-ins are ${BUILTIN_NAMES.join(', ')}; tools are called with CALL name { ... })`;
}
