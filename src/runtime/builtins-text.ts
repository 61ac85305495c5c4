// The built-ins that build strings (LANGUAGE.md §5): FORMAT, JOIN, SPLIT, UPPER, LOWER, TRIM,
// REPLACE. Each refuses a result longer than maxStringLength, before building it wherever the
// length is known in advance, so doubling a string forty times ends in LimitExceededError instead
// of exhausting the heap. FORMAT, JOIN, SPLIT and REPLACE have steps too (runtime/suspend.ts):
// on long text or big values they report their work as they go and pause between chunks.
import type { NuwaError, Position } from '../errors.js';
import { checkStringLength, describe, displayStringSteps, NuwaList, NuwaObject, objectKeys, toDisplayString, type Value } from '../values/values.js';
import { Args, argumentError, bigValue, chargeChars, CHUNK, define, Progress, withSteps, type Builtin, type BuiltinHost } from './builtin-support.js';
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
    const call = (at as Partial<FunctionCall>).type === 'FunctionCall' ? (at as FunctionCall) : undefined;
    const hint = placeholderHint(path, [...values.keys()].slice(0, 1000), call?.arguments[1]);
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

/** FORMAT's arguments, checked, for its steps (its one-go call checks them the same way, inline). */
function formatArgs([template, values]: Value[], at: Position): [string, NuwaObject] {
  if (typeof template !== 'string') throw argumentError(FORMAT_USAGE, `FORMAT expects a template string first, got ${describe(template!)}`, at);
  if (values instanceof NuwaList) throw formatListError(values, at);
  const args = new Args('FORMAT', FORMAT_USAGE, at);
  return [template, values === undefined ? new NuwaObject() : args.object(values, 'an object of values second')];
}

/** A list given as FORMAT's values (Python's `.format(a, b)`): the hint writes the object from the call's own pieces. */
function formatListError(values: NuwaList, at: Position): NuwaError {
  const hint = (at as Partial<FunctionCall>).type === 'FunctionCall' ? formatListHint(at as FunctionCall) : '';
  return argumentError(FORMAT_USAGE, `FORMAT expects an object of values second, got ${describe(values)}${hint}`, at);
}

function joinArgs([list, separator]: Value[], at: Position): [NuwaList, string] {
  const args = new Args('JOIN', 'JOIN(list, separator)', at);
  return [args.list(list!, 'a list first'), args.string(separator!, 'a separator string second')];
}

function splitArgs([text, separator]: Value[], at: Position): [string, string] {
  const args = new Args('SPLIT', 'SPLIT(string, separator)', at);
  return [args.string(text!, 'a string first'), args.nonEmptyString(separator!, 'a non-empty separator string second')];
}

function replaceArgs([text, find, replacement]: Value[], at: Position): [string, string, string] {
  const args = new Args('REPLACE', 'REPLACE(string, find, replacement)', at);
  return [args.string(text!, 'a string first'), args.nonEmptyString(find!, 'a non-empty string to find second'), args.string(replacement!, 'a replacement string third')];
}

/** At most one piece over the limit is ever made: enough to know the list would be too big. */
const splitLimit = (host: BuiltinHost) => Math.min(host.valueLimits.maxValueSize + 1, 2 ** 32 - 1);

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

/** The string form of a value, in steps when it is a list or an object (they may be big). */
function* display(value: Value, host: BuiltinHost): Generator<void, string, void> {
  return typeof value === 'object' && value !== null ? yield* displayStringSteps(value, host.valueLimits) : toDisplayString(value, host.valueLimits);
}

function* formatSteps(template: string, values: NuwaObject, host: BuiltinHost, at: Position): Generator<void, string, void> {
  const limits = host.valueLimits;
  const progress = new Progress(host);
  const parts: string[] = [];
  let length = 0;
  let last = 0;
  const placeholder = new RegExp(FORMAT_PLACEHOLDER);
  for (let match = placeholder.exec(template); match !== null; match = placeholder.exec(template)) {
    parts.push(template.slice(last, match.index));
    length += match.index - last;
    last = match.index + match[0].length;
    let replacement: string;
    if (match[0] === '{{') replacement = '{';
    else if (match[0] === '}}') replacement = '}';
    else {
      replacement = yield* display(placeholderValue(match[1]!, values, at), host);
    }
    parts.push(replacement);
    length += replacement.length;
    checkStringLength(length + template.length - last, limits, 'the text FORMAT builds', at);
    if (progress.add(1 + (replacement.length >>> 4))) yield;
  }
  parts.push(template.slice(last));
  const text = parts.join('');
  chargeChars(host, text.length);
  return text;
}

function* joinSteps(list: NuwaList, separator: string, host: BuiltinHost, at: Position): Generator<void, string, void> {
  const limits = host.valueLimits;
  const progress = new Progress(host);
  // Joined a chunk at a time, as REPLACE does: one join of a million parts is a long step.
  const pieces: string[] = [];
  let parts: string[] = [];
  let length = 0;
  let size = 0;
  for (let i = 0; i < list.length; i++) {
    const part = yield* display(list.at(i), host);
    parts.push(part);
    length += part.length + (i === 0 ? 0 : separator.length);
    size += part.length + separator.length;
    checkStringLength(length, limits, 'the text JOIN builds', at);
    if (size >= CHUNK) {
      pieces.push(parts.join(separator));
      parts = [];
      size = 0;
    }
    if (progress.add(1 + (part.length >>> 4))) yield;
  }
  if (parts.length > 0 || pieces.length === 0) pieces.push(parts.join(separator));
  const text = pieces.join(separator);
  chargeChars(host, text.length);
  return text;
}

/** The pieces of `text` between occurrences of `separator`, at most `limit` of them, in steps for long text. */
function* splitSteps(text: string, separator: string, limit: number, host: BuiltinHost): Generator<void, string[], void> {
  if (text.length < CHUNK) return text.split(separator, limit);
  const progress = new Progress(host);
  const pieces: string[] = [];
  let from = 0;
  while (pieces.length < limit) {
    const at = text.indexOf(separator, from);
    pieces.push(text.slice(from, at === -1 ? text.length : at));
    if (at === -1) break;
    if (progress.add(1 + ((at - from) >>> 4))) yield;
    from = at + separator.length;
  }
  return pieces;
}

/** REPLACE's result, in steps for long text: the occurrences are found, counted against the limit, then joined. */
function* replaceSteps(text: string, target: string, by: string, host: BuiltinHost, at: Position): Generator<void, string, void> {
  const progress = new Progress(host);
  const found: number[] = [];
  for (let i = text.indexOf(target); i !== -1; i = text.indexOf(target, i + target.length)) {
    found.push(i);
    if (progress.add(1 + ((i - (found[found.length - 2] ?? 0)) >>> 4))) yield;
  }
  checkStringLength(text.length + found.length * (by.length - target.length), host.valueLimits, 'the text REPLACE builds', at);
  if (found.length === 0) return text;
  // `$` in a replacement string is a pattern to String.prototype.replaceAll; `$$` is a literal `$`.
  if (text.length < CHUNK) return text.replaceAll(target, by.replaceAll('$', '$$$$'));
  // Joined a chunk at a time: one join of millions of parts would be a long step of its own.
  const pieces: string[] = [];
  let parts: string[] = [];
  let size = 0;
  let last = 0;
  for (let k = 0; k < found.length; k++) {
    parts.push(text.slice(last, found[k]), by);
    size += found[k]! - last + by.length;
    last = found[k]! + target.length;
    if (size >= CHUNK) {
      pieces.push(parts.join(''));
      parts = [];
      size = 0;
    }
    if (progress.add(1 + (by.length >>> 4))) yield;
  }
  parts.push(text.slice(last));
  pieces.push(parts.join(''));
  const result = pieces.join('');
  chargeChars(host, result.length);
  return result;
}

export const TEXT_BUILTINS: Builtin[] = [
  withSteps(
    define('FORMAT', 1, 2, FORMAT_USAGE, 'the template with each {key} (or {key.field}) replaced by the string form of values.key (values.key.field); {{ and }} are literal braces', ([template, values], host, at) => {
      // The checks of formatArgs, inline: FORMAT is called in many loops.
      if (typeof template !== 'string') throw argumentError(FORMAT_USAGE, `FORMAT expects a template string first, got ${describe(template!)}`, at);
      if (values instanceof NuwaList) throw formatListError(values, at);
      const args = new Args('FORMAT', FORMAT_USAGE, at);
      return format(template, values === undefined ? new NuwaObject() : args.object(values, 'an object of values second'), host, at);
    }),
    ([template, values]) => (typeof template === 'string' && template.length >= CHUNK) || (values instanceof NuwaObject && bigValue(values)),
    function* (args, host, at) {
      return yield* formatSteps(...formatArgs(args, at), host, at);
    },
  ),
  withSteps(
    define('JOIN', 2, 2, 'JOIN(list, separator)', "the string forms of the list's items joined by separator", ([list, separator], host, at) => {
      const args = new Args('JOIN', 'JOIN(list, separator)', at);
      return join(args.list(list!, 'a list first'), args.string(separator!, 'a separator string second'), host, at);
    }),
    ([list]) => bigValue(list),
    function* (args, host, at) {
      return yield* joinSteps(...joinArgs(args, at), host, at);
    },
  ),
  withSteps(
    define('SPLIT', 2, 2, 'SPLIT(string, separator)', 'the list of pieces of the string between occurrences of separator', ([text, separator], host, at) => {
      const args = new Args('SPLIT', 'SPLIT(string, separator)', at);
      const s = args.string(text!, 'a string first');
      const sep = args.nonEmptyString(separator!, 'a non-empty separator string second');
      const pieces = s.split(sep, splitLimit(host));
      chargeChars(host, s.length);
      return NuwaList.from(pieces, host.valueLimits, at);
    }),
    ([text]) => typeof text === 'string' && text.length >= CHUNK,
    function* (args, host, at) {
      const [s, sep] = splitArgs(args, at);
      const pieces = yield* splitSteps(s, sep, splitLimit(host), host);
      chargeChars(host, s.length);
      return NuwaList.from(pieces, host.valueLimits, at);
    },
  ),
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
  withSteps(
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
    ([text]) => typeof text === 'string' && text.length >= CHUNK,
    function* (args, host, at) {
      return yield* replaceSteps(...replaceArgs(args, at), host, at);
    },
  ),
];
