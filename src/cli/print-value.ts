// How the REPL shows a value: as Nuwa literal text (strings quoted, keys bare when they can be),
// on one line when it fits and indented otherwise, coloured like highlighted code when asked.
// Very large values are cut (lists and objects after MAX_ITEMS entries, long strings, deep nesting)
// so that showing a value never floods the terminal or recurses without bound.
import type { JsonValue } from '../values/json.js';
import { KEYWORDS } from '../syntax/tokens.js';
import { paintFor } from './highlight.js';

const MAX_ITEMS = 100;
const MAX_STRING = 10_000;
const MAX_DEPTH = 20;
const WIDTH = 76;

export interface ValueFormat {
  color: boolean;
}

const NOT_BARE_KEYS = new Set<string>([...KEYWORDS, 'true', 'false', 'null']);

export function formatValue(value: JsonValue, options: ValueFormat): string {
  const paint = options.color ? paintFor : () => (s: string) => s;
  /** `lead`: how many characters come before the value on its first line (indent and key). */
  const show = (v: JsonValue, indent: string, lead: number, depth: number): string => {
    if (v === null) return paint('constant')('null');
    if (typeof v === 'boolean') return paint('constant')(String(v));
    if (typeof v === 'number') return paint('number')(Object.is(v, -0) ? '0' : String(v));
    if (typeof v === 'string') return paint('string')(quote(v));
    const isList = Array.isArray(v);
    const entries: Array<[string | undefined, JsonValue]> = isList ? v.map((item) => [undefined, item]) : Object.entries(v);
    const [open, close] = isList ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) return `${open}${close}`;
    if (depth >= MAX_DEPTH) return `${open}…${close}`;
    const shown = entries.slice(0, MAX_ITEMS);
    const more = entries.length - shown.length;
    const rest = more > 0 ? [`… ${more} more ${isList ? 'item' : 'key'}${more === 1 ? '' : 's'}`] : [];
    const inner = indent + '  ';
    const parts = shown
      .map(([key, item]) => {
        const label = key === undefined ? '' : `${formatKey(key)}: `;
        return label + show(item, inner, inner.length + label.length, depth + 1);
      })
      .concat(rest);
    const oneLine = isList ? `[${parts.join(', ')}]` : `{ ${parts.join(', ')} }`;
    if (lead + visibleLength(oneLine) <= WIDTH && !oneLine.includes('\n')) return oneLine;
    return `${open}\n${parts.map((p) => inner + p).join(',\n')}\n${indent}${close}`;
  };
  return show(value, '', 0, 0);
}

function quote(text: string): string {
  if (text.length <= MAX_STRING) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, MAX_STRING))}… (${text.length - MAX_STRING} more characters)`;
}

/** A key as an object literal would write it: bare when it is a name, quoted otherwise. */
export function formatKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !NOT_BARE_KEYS.has(key) ? key : JSON.stringify(key);
}

const ANSI = /\u001b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}
