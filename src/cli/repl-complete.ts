// Tab completion for the REPL. What fits where is read from the lexer's tokens before the cursor:
// a tool name after CALL (dotted toolset names too), an argument name in key position inside a
// CALL's braces, an object's key after `variable.`, and otherwise keywords, literals, built-ins,
// the session's variables and the loop variables in scope at the cursor (of a FOR body, or of a
// list comprehension's condition). Nothing is offered inside a string or a comment.
import type { IToken } from '../syntax/chevrotain.js';
import { openAtEnd } from '../syntax/incomplete.js';
import { tokenize } from '../syntax/lexer.js';
import * as T from '../syntax/tokens.js';
import { BUILTINS } from '../runtime/builtins.js';
import type { JsonValue } from '../values/json.js';
import { classify } from './highlight.js';

export interface CompletionSource {
  /** The session's variables. */
  variables(): Record<string, JsonValue>;
  /** Every tool name, dotted toolset names included. */
  toolNames(): string[];
  /** The argument names of a tool, or none if it does not exist. */
  parameterNames(tool: string): string[];
}

/** readline's completer result: the candidates, and the text before the cursor they replace. */
export type Completion = [string[], string];

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const WORD_AT_END = new RegExp(`(?:${NAME}(?:\\.${NAME})*\\.?)?$`);

/** Completes the word that ends `before` (all text of the entry before the cursor). */
export function complete(before: string, source: CompletionSource): Completion {
  const word = WORD_AT_END.exec(before)![0];
  const prefix = before.slice(0, before.length - word.length);
  const none: Completion = [[], word];
  if (word === '' && /[A-Za-z0-9_."')\]}]$/.test(prefix)) return none;
  if (insideStringOrComment(prefix)) return none;

  const tokens = tokenize(prefix).tokens;
  const last = tokens[tokens.length - 1];
  if (last?.tokenType === T.Call) return [matching(source.toolNames(), word), word];
  const variables = { ...source.variables() };
  for (const [name, value] of loopVariables(tokens, variables)) setKey(variables, name, value);
  if (word.includes('.')) return [memberCandidates(word, variables), word];

  const tool = argumentPosition(tokens);
  if (tool !== undefined) {
    const given = new Set(tool.given);
    return [matching(source.parameterNames(tool.name).filter((name) => !given.has(name)), word), word];
  }
  const names = [...T.KEYWORDS, 'true', 'false', 'null', ...BUILTINS.keys(), ...Object.keys(variables)];
  return [matching(names, word), word];
}

function matching(names: Iterable<string>, word: string): string[] {
  return [...new Set(names)].filter((name) => name.startsWith(word)).sort();
}

function insideStringOrComment(prefix: string): boolean {
  if (openAtEnd(prefix).string) return true;
  const spans = classify(prefix);
  const last = spans[spans.length - 1];
  return last !== undefined && last.kind === 'comment' && last.end === prefix.length;
}

/** `order.items.fi` → the keys of the object `order.items` that start with `fi`, as full paths. */
function memberCandidates(word: string, variables: Record<string, JsonValue>): string[] {
  const parts = word.split('.');
  const partial = parts.pop()!;
  let value: JsonValue | undefined = Object.hasOwn(variables, parts[0]!) ? variables[parts[0]!] : undefined;
  for (const key of parts.slice(1)) {
    value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  }
  if (!isObject(value)) return [];
  const base = parts.join('.');
  return matching(Object.keys(value).filter((key) => new RegExp(`^${NAME}$`).test(key)), partial).map((key) => `${base}.${key}`);
}

/** A loop being read: its variable, whether the cursor is past the point where it is bound, and what it goes over. */
interface OpenLoop {
  /** The bracket or block it stands in: `[` for a comprehension, FOR for a loop. */
  kind: 'comprehension' | 'block';
  variable: string | undefined;
  bound: boolean;
  /** The name of the list it goes over, when the list is just a name. */
  over: string | undefined;
  /** How deep the brackets were where it started. */
  depth: number;
}

const FOR_WORDS = new Set([T.For, T.ComprehensionFor]);
const IF_WORDS = new Set([T.If, T.ComprehensionIf]);

/**
 * The loop variables in scope at the end of `tokens`: that of each FOR loop whose body the cursor
 * is in, and that of each list comprehension whose condition it is in (the element comes first, and
 * the list is read outside the comprehension's scope). Each with a value standing for its items
 * when it goes over a variable of the session holding a list: an object with the keys its items
 * have, for completing `item.`.
 */
function loopVariables(tokens: IToken[], variables: Record<string, JsonValue>): Map<string, JsonValue> {
  const loops: OpenLoop[] = [];
  const brackets: IToken[] = [];
  const blocks: Array<OpenLoop | null> = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    if (type === T.LParen || type === T.LBracket || type === T.LBrace) brackets.push(token);
    else if (type === T.RParen || type === T.RBracket || type === T.RBrace) {
      brackets.pop();
      while (loops.length > 0 && loops[loops.length - 1]!.kind === 'comprehension' && loops[loops.length - 1]!.depth > brackets.length) loops.pop();
    } else if (FOR_WORDS.has(type) && tokens[i + 1]?.tokenType === T.Identifier) {
      const inBrackets = brackets.length > 0 && brackets[brackets.length - 1]!.tokenType === T.LBracket;
      const variable = tokens[i + 1]!.image;
      const over = tokens[i + 2]?.tokenType === T.In && tokens[i + 3]?.tokenType === T.Identifier ? tokens[i + 3]!.image : undefined;
      const loop: OpenLoop = { kind: inBrackets ? 'comprehension' : 'block', variable, bound: false, over, depth: brackets.length };
      loops.push(loop);
      if (!inBrackets) blocks.push(loop);
      i++;
    } else if (IF_WORDS.has(type) || type === T.While) {
      const top = loops[loops.length - 1];
      if (type !== T.While && top?.kind === 'comprehension' && top.depth === brackets.length) top.bound = true;
      else if (brackets.length === 0) blocks.push(null);
    } else if (type === T.Do) {
      const top = loops[loops.length - 1];
      if (top?.kind === 'block') top.bound = true;
    } else if (type === T.End) {
      const block = blocks.pop();
      if (block) loops.splice(loops.lastIndexOf(block), 1);
    }
  }
  const out = new Map<string, JsonValue>();
  for (const loop of loops) {
    if (!loop.bound || loop.variable === undefined) continue;
    const list = loop.over === undefined ? undefined : (out.get(loop.over) ?? (Object.hasOwn(variables, loop.over) ? variables[loop.over] : undefined));
    out.set(loop.variable, Array.isArray(list) ? keysOfItems(list) : null);
  }
  return out;
}

/** An object with every key the object items of `list` have (the first value of each). */
function keysOfItems(list: JsonValue[]): JsonValue {
  const merged: { [key: string]: JsonValue } = {};
  for (const item of list) {
    if (!isObject(item)) continue;
    for (const key of Object.keys(item)) if (!Object.hasOwn(merged, key)) setKey(merged, key, item[key]!);
  }
  return merged;
}

/** Sets an own key, `__proto__` included (a name like any other). */
function setKey(object: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * When the cursor is where an argument name goes (just after the `{` or a `,` of a CALL's
 * arguments), the tool's name and the argument names already given; otherwise undefined.
 */
function argumentPosition(tokens: IToken[]): { name: string; given: string[] } | undefined {
  const last = tokens[tokens.length - 1];
  if (last?.tokenType !== T.LBrace && last?.tokenType !== T.Comma) return undefined;
  // The innermost bracket still open, and the keys written at its level so far.
  const open: Array<{ index: number; keys: string[] }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenType;
    if (type === T.LBrace || type === T.LBracket || type === T.LParen) open.push({ index: i, keys: [] });
    else if (type === T.RBrace || type === T.RBracket || type === T.RParen) open.pop();
    else if (type === T.Colon && open.length > 0) {
      const key = tokens[i - 1];
      if (key?.tokenType === T.Identifier) open[open.length - 1]!.keys.push(key.image);
      else if (key?.tokenType === T.StringLiteral) open[open.length - 1]!.keys.push(key.image.slice(1, -1));
    }
  }
  const inner = open[open.length - 1];
  if (inner === undefined || tokens[inner.index]!.tokenType !== T.LBrace) return undefined;
  // Walk back over `name(.name)*` to the CALL keyword.
  const names: string[] = [];
  let i = inner.index - 1;
  while (i >= 0 && tokens[i]!.tokenType === T.Identifier) {
    names.unshift(tokens[i]!.image);
    if (tokens[i - 1]?.tokenType !== T.Dot) break;
    i -= 2;
  }
  if (names.length === 0 || tokens[i - 1]?.tokenType !== T.Call) return undefined;
  return { name: names.join('.'), given: inner.keys };
}
