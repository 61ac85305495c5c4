// Advice shared by the run's errors and the checker's findings, for the mistakes whose fix depends
// on the values (operators.ts, builtins-text.ts, check/operations.ts, check/checker.ts): an index
// from the end, a date compared with a number, a FORMAT placeholder with no value, FORMAT given a
// list. Each suggestion is printed from the tree (syntax/print.ts), with the script's own names.
import type * as A from '../syntax/ast.js';
import { expressionName } from '../syntax/hints.js';
import { printExpression, printOr, quote } from '../syntax/print.js';
import { plusChainOperands } from '../syntax/nodes.js';
import { BUILTINS_BY_NAME } from '../syntax/functions.js';
import { repairFunction } from '../syntax/methods.js';
import { closestNames } from '../util/suggest.js';


/** `xs[-1]`: indexes do not count from the end; the Nuwa way, with the list as written. */
export function negativeIndexHint(node: A.IndexExpression, index: number): string {
  const list = printOr(node.object, expressionName(node.object, 'list'));
  return `negative indexes do not count from the end: for the ${index === -1 ? 'last item' : `item ${-index} from the end`} write ${list}[LEN(${list}) - ${-index}]`;
}

const DATE = /^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const TIME = /^\d{1,2}:\d{2}(:\d{2})?$/;

/** Whether a string reads as a date or a time of day ("2024-05-01", "2024-05-01T10:00", "09:30"). */
export function isDateOrTime(text: string): boolean {
  return DATE.test(text) || TIME.test(text);
}

/**
 * Advice for `<` `<=` `>` `>=` between a string and a number. A date or a time compares as a string
 * of the same format (ISO dates sort as text), never through NUMBER; numeric text converts with NUMBER.
 */
export function mixedComparisonHint(text: string | undefined, number: number | undefined, node?: A.BinaryExpression, textOnLeft = true): string {
  if (text !== undefined && isDateOrTime(text)) {
    const side = node ? printExpression(textOnLeft ? node.left : node.right) : undefined;
    const same = number === undefined ? undefined : sameFormat(text, number);
    if (same !== undefined && side !== undefined) {
      const comparison = textOnLeft ? `${side} ${node!.operator} ${same}` : `${same} ${node!.operator} ${side}`;
      return `: "${text}" is a date or time, so compare it with a string of the same format: write ${comparison}`;
    }
    const stamp = number !== undefined && number > 1e11 ? ' (NOW() is a number of milliseconds, not a date)' : '';
    return `: "${text}" is a date or time, so compare it with a string of the same format, e.g. "${TIME.test(text) ? '09:30' : '2024-05-01'}"${stamp}; do not convert it with NUMBER`;
  }
  if (text !== undefined && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text.trim())) {
    const side = node ? printExpression(textOnLeft ? node.left : node.right) : undefined;
    return `: the string holds a number, so convert it: write NUMBER(${side ?? '...'})`;
  }
  if (text === undefined) return ': compare a number with a number (NUMBER(text) converts numeric text), or a string with a string (a date as a string of the same format, e.g. "2024-05-01")';
  return ': convert one side so both are numbers (NUMBER) or both strings (STR)';
}

/** 20240501 → "2024-05-01", 2024 → "2024-01-01", in the format of `text`; undefined if the number is no date. */
function sameFormat(text: string, number: number): string | undefined {
  if (!Number.isInteger(number) || TIME.test(text)) return undefined;
  const digits = String(number);
  let date: string | undefined;
  if (/^\d{8}$/.test(digits)) date = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
  else if (/^\d{4}$/.test(digits) && number >= 1900 && number <= 2200) date = `${digits}-01-01`;
  if (date === undefined) return undefined;
  // A date compared with a longer timestamp: same length as the text's date part.
  return JSON.stringify(text.length === 7 ? date.slice(0, 7) : date);
}

/**
 * "did you mean {name}?" for a FORMAT placeholder whose key is not among `keys`, or the key to add.
 * `values` is the values argument as written: when each of its keys reads the same-named field of
 * one object (`{ id: o.id, total: o.total }`), the missing key most likely does too.
 */
export function placeholderHint(path: string, keys: readonly string[], values?: A.Expression): string {
  const [root, ...rest] = path.split('.');
  // {e.subject} with { subject: ... }: the member is there under its own name.
  const tail = rest.join('.');
  if (rest.length > 0 && keys.includes(rest[0]!)) return `: write {${tail}}, or pass ${root} itself: { ${root}: ${root} }`;
  // Two letters swapped (`nmae`) is a typo too, though three edits away.
  const sorted = (word: string) => [...word.toLowerCase()].sort().join('');
  const close = [...closestNames(root!, keys, 1), ...keys.filter((key) => sorted(key) === sorted(root!))];
  if (close.length > 0) return `: did you mean {${[close[0], ...rest].join('.')}}?`;
  return `: add it to the values, { ..., ${root}: ${sameFieldOf(values, root!) ?? 'value'} }`;
}

/** `o.name`, when every key of the object literal `values` reads its own name from the one object `o`. */
function sameFieldOf(values: A.Expression | undefined, name: string): string | undefined {
  if (values?.type !== 'Object' || values.properties.length === 0) return undefined;
  const objects = values.properties.map((p) => (p.value.type === 'Member' && p.value.property === p.key ? printExpression(p.value.object) : undefined));
  const [first] = objects;
  return first !== undefined && objects.every((o) => o === first) ? `${first}.${name}` : undefined;
}

/**
 * FORMAT given a list of values (`FORMAT("{0} and {1}", [a, b])`): the call with an object of named
 * values and the template's positional placeholders (`{0}`, `{}`, `%s`) named after them.
 */
export function formatListHint(call: A.FunctionCall): string {
  const [template, values] = call.arguments;
  if (values?.type !== 'List' || template?.type !== 'Literal' || typeof template.value !== 'string') {
    return ': FORMAT takes an object of named values, e.g. FORMAT("{a} and {b}", { a: x, b: y })';
  }
  const names = values.elements.map((element, i) => (element.type === 'Variable' ? element.name : element.type === 'Member' ? element.property : `v${i + 1}`));
  let next = 0;
  const text = template.value.replace(/\{(\d*)\}|%[sd]/g, (match, digits: string | undefined) => {
    const i = digits === undefined || digits === '' ? next++ : Number(digits);
    return names[i] === undefined ? match : `{${names[i]}}`;
  });
  const properties = values.elements.map((value, i): A.Property => ({ type: 'Property', key: names[i]!, value, line: value.line, column: value.column, hasCall: value.hasCall }));
  const fixed: A.FunctionCall = {
    ...call,
    arguments: [{ ...template, value: text }, { type: 'Object', properties, line: values.line, column: values.column, hasCall: values.hasCall }],
  };
  const shown = printExpression(fixed, 160);
  return shown === undefined
    ? ': FORMAT takes an object of named values, e.g. FORMAT("{a} and {b}", { a: x, b: y })'
    : `: FORMAT takes an object of named values: write ${shown}`;
}

/**
 * A condition that is no boolean (`IF items THEN`), as the explicit comparison it stands for, from
 * what the value is: LEN(items) > 0 for a list, name != "" for a string, n != 0 for a number, and
 * x != null for the rest. Undefined when the condition cannot be printed.
 */
export function explicitCondition(condition: A.Expression, type: 'list' | 'string' | 'number' | 'object' | 'null' | 'boolean' | undefined): string | undefined {
  const text = printExpression(condition);
  if (text === undefined) return undefined;
  const operand = condition.type === 'Binary' || condition.type === 'Logical' || condition.type === 'Unary' ? `(${text})` : text;
  switch (type) {
    case 'list':
      return `LEN(${text}) > 0`;
    case 'string':
      return `${operand} != ""`;
    case 'number':
      return `${operand} != 0`;
    case 'object':
      return `LEN(KEYS(${text})) > 0`;
    default:
      return `${operand} != null`;
  }
}

/** `FOR x IN obj` over an object: the loop over its keys, as written with the script's names. */
export function keysLoop(variable: string, iterable: A.Expression): string {
  return `FOR ${variable} IN KEYS(${printOr(iterable, 'obj')}) DO (and read ${printOr(iterable, 'obj')}[${variable}] in the loop)`;
}

const GENERAL_FORMAT = ': use FORMAT to build strings, e.g. FORMAT("{a}{b}", { a: x, b: y })';
const PATH_TEXT = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Strings joined with `+` (`"It is " + w.condition + " in " + city`): the one FORMAT call that builds
 * the same text, from the whole chain the failing `+` is part of. The literals are the template's
 * text, each other operand a placeholder (a name or a path as written, STR(...) unwrapped, anything
 * else a named value).
 */
export function concatenationHint(node: A.BinaryExpression): string {
  const operands = plusChainOperands(node);
  if (!operands.some((o) => o.type === 'Literal' && typeof o.value === 'string')) return GENERAL_FORMAT;
  const call = formatCallOf(operands, '');
  return call === undefined ? GENERAL_FORMAT : call.startsWith('"') ? `: write the text as one string, ${call}` : `: use FORMAT to build strings: write ${call}`;
}

/**
 * PRINT given several values (Python's `print("Total:", n)`): the one line they would print, as a
 * FORMAT call with the values separated by spaces.
 */
export function printArgumentsHint(node: A.FunctionCall): string {
  if (node.name !== 'PRINT' || node.arguments.length < 2) return '';
  const call = formatCallOf(node.arguments, ' ');
  return call === undefined ? ': PRINT shows one value: build the line with FORMAT' : `: PRINT shows one value: write PRINT(${call})`;
}

/**
 * The FORMAT call that builds the text of `operands` joined by `separator`: literals are the
 * template's text, each other operand a placeholder (a name or a path as written, STR(...)
 * unwrapped, another language's function as the built-in meant, anything else a named value).
 * A plain string when every operand is a literal; undefined when too long to show.
 */
function formatCallOf(operands: readonly A.Expression[], separator: string): string | undefined {
  const values = new Map<string, string>();
  const pieces: string[] = [];
  for (let operand of operands) {
    // A call of another language's function (`str(n)`) as the built-in it means: never the mistake.
    if (operand.type === 'FunctionCall' && !BUILTINS_BY_NAME.has(operand.name)) operand = repairFunction(operand.name, operand.arguments, BUILTINS_BY_NAME, operand)?.node ?? operand;
    if (operand.type === 'FunctionCall' && operand.name === 'STR' && operand.arguments.length === 1) operand = operand.arguments[0]!;
    if (operand.type === 'Literal') {
      pieces.push(String(operand.value).replace(/\{/g, '{{').replace(/\}/g, '}}'));
      continue;
    }
    const text = printExpression(operand);
    if (text === undefined) return undefined;
    if (PATH_TEXT.test(text)) {
      const root = text.split('.')[0]!;
      values.set(root, root);
      pieces.push(`{${text}}`);
      continue;
    }
    const base = operand.type === 'FunctionCall' ? operand.name.toLowerCase() : 'value';
    let name = base;
    for (let n = 2; values.has(name) && values.get(name) !== text; n++) name = `${base}${n}`;
    values.set(name, text);
    pieces.push(`{${name}}`);
  }
  const template = pieces.join(separator);
  if (values.size === 0) return quote(template.replace(/\{\{/g, '{').replace(/\}\}/g, '}'));
  const call = `FORMAT(${quote(template)}, { ${[...values].map(([key, value]) => `${key}: ${value}`).join(', ')} })`;
  return call.length <= 160 ? call : undefined;
}
