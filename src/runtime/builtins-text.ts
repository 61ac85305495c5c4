// The built-ins that build strings (LANGUAGE.md §5): FORMAT, JOIN, SPLIT, UPPER, LOWER, TRIM,
// REPLACE. Each refuses a result longer than maxStringLength, before building it wherever the
// length is known in advance, so doubling a string forty times ends in LimitExceededError instead
// of exhausting the heap.
import type { Position } from '../errors.js';
import { checkStringLength, describe, NuwaList, NuwaObject, objectKeys, toDisplayString, type Value } from '../values/values.js';
import { Args, argumentError, chargeChars, define, type Builtin, type BuiltinHost } from './builtin-support.js';
import type { FunctionCall } from '../syntax/ast.js';
import { formatListHint, placeholderHint } from './advice.js';

// `{name}`, or a path of members `{name.field.sub}` (LANGUAGE.md §8).
const FORMAT_PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g;
const FORMAT_USAGE = 'FORMAT(template, { key: value })';

/** The value a placeholder's path names: `values.name`, then each `.field` of it in turn. */
function placeholderValue(path: string, values: NuwaObject, at: Position): Value {
  const names = path.split('.');
  let value = values.get(names[0]!);
  if (value === undefined) {
    const hint = placeholderHint(path, [...values.keys()].slice(0, 1000));
    throw argumentError(FORMAT_USAGE, `FORMAT has no value for {${path}}: the values object ${values.size ? `has keys ${objectKeys(values)}` : 'is empty'}${hint}`, at);
  }
  for (let i = 1; i < names.length; i++) {
    const read = names.slice(0, i).join('.');
    if (!(value instanceof NuwaObject)) {
      throw argumentError(FORMAT_USAGE, `FORMAT cannot read {${path}}: ${read} is ${describe(value!)}, not an object with a key "${names[i]}"`, at);
    }
    const next: Value | undefined = value.get(names[i]!);
    if (next === undefined) {
      throw argumentError(FORMAT_USAGE, `FORMAT has no value for {${path}}: ${read} ${value.size ? `has keys ${objectKeys(value)}` : 'is an empty object'}`, at);
    }
    value = next;
  }
  return value;
}

function format(template: string, values: NuwaObject, host: BuiltinHost, at: Position): string {
  const limits = host.valueLimits;
  let length = template.length;
  const text = template.replace(FORMAT_PLACEHOLDER, (match: string, path: string | undefined) => {
    let replacement: string;
    if (match === '{{') replacement = '{';
    else if (match === '}}') replacement = '}';
    else replacement = toDisplayString(placeholderValue(path!, values, at), limits);
    length += replacement.length - match.length;
    checkStringLength(length, limits, 'the text FORMAT builds', at);
    return replacement;
  });
  chargeChars(host, text.length);
  return text;
}

function join(list: NuwaList, separator: string, host: BuiltinHost, at: Position): string {
  const limits = host.valueLimits;
  let text = '';
  for (let i = 0; i < list.length; i++) {
    const part = toDisplayString(list.at(i), limits);
    text = i === 0 ? part : text + separator + part;
    checkStringLength(text.length, limits, 'the text JOIN builds', at);
  }
  chargeChars(host, text.length + list.length);
  return text;
}

function occurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + find.length)) count++;
  return count;
}

export const TEXT_BUILTINS: Builtin[] = [
  define('FORMAT', 1, 2, FORMAT_USAGE, 'the template with each {key} (or {key.field}) replaced by the string form of values.key (values.key.field); {{ and }} are literal braces', ([template, values], host, at) => {
    if (typeof template !== 'string') throw argumentError(FORMAT_USAGE, `FORMAT expects a template string first, got ${describe(template!)}`, at);
    const args = new Args('FORMAT', FORMAT_USAGE, at);
    if (values instanceof NuwaList && (at as Partial<FunctionCall>).type === 'FunctionCall') {
      throw argumentError(FORMAT_USAGE, `FORMAT expects an object of values second, got ${describe(values)}${formatListHint(at as FunctionCall)}`, at);
    }
    return format(template, values === undefined ? new NuwaObject() : args.object(values, 'an object of values second'), host, at);
  }),
  define('JOIN', 2, 2, 'JOIN(list, separator)', "the string forms of the list's items joined by separator", ([list, separator], host, at) => {
    const args = new Args('JOIN', 'JOIN(list, separator)', at);
    return join(args.list(list!, 'a list first'), args.string(separator!, 'a separator string second'), host, at);
  }),
  define('SPLIT', 2, 2, 'SPLIT(string, separator)', 'the list of pieces of the string between occurrences of separator', ([text, separator], host, at) => {
    const args = new Args('SPLIT', 'SPLIT(string, separator)', at);
    const s = args.string(text!, 'a string first');
    const sep = args.nonEmptyString(separator!, 'a non-empty separator string second');
    const { maxValueSize } = host.valueLimits;
    // At most one piece over the limit is ever made: enough to know the list would be too big.
    const pieces = s.split(sep, Math.min(maxValueSize + 1, 2 ** 32 - 1));
    chargeChars(host, s.length);
    return NuwaList.from(pieces, host.valueLimits, at);
  }),
  define('UPPER', 1, 1, 'UPPER(string)', 'the string in upper case', ([text], host, at) => {
    const s = new Args('UPPER', 'UPPER(string)', at).string(text!);
    chargeChars(host, s.length);
    const upper = s.toUpperCase(); // may grow: "ß" becomes "SS"
    checkStringLength(upper.length, host.valueLimits, 'the text UPPER builds', at);
    return upper;
  }),
  define('LOWER', 1, 1, 'LOWER(string)', 'the string in lower case', ([text], host, at) => {
    const s = new Args('LOWER', 'LOWER(string)', at).string(text!);
    chargeChars(host, s.length);
    const lower = s.toLowerCase();
    checkStringLength(lower.length, host.valueLimits, 'the text LOWER builds', at);
    return lower;
  }),
  define('TRIM', 1, 1, 'TRIM(string)', 'the string without leading and trailing white space', ([text], host, at) => {
    const s = new Args('TRIM', 'TRIM(string)', at).string(text!);
    chargeChars(host, s.length);
    return s.trim();
  }),
  define('REPLACE', 3, 3, 'REPLACE(string, find, replacement)', 'the string with every occurrence of find (matched literally) replaced', ([text, find, replacement], host, at) => {
    const args = new Args('REPLACE', 'REPLACE(string, find, replacement)', at);
    const s = args.string(text!, 'a string first');
    const target = args.nonEmptyString(find!, 'a non-empty string to find second');
    const by = args.string(replacement!, 'a replacement string third');
    chargeChars(host, s.length);
    const count = occurrences(s, target);
    checkStringLength(s.length + count * (by.length - target.length), host.valueLimits, 'the text REPLACE builds', at);
    // `$` in a replacement string is a pattern to String.prototype.replaceAll; `$$` is a literal `$`.
    return count === 0 ? s : s.replaceAll(target, by.replaceAll('$', '$$$$'));
  }),
];
