// Tab completion for the REPL. What fits where is read from the lexer's tokens before the cursor:
// a tool name after CALL (dotted toolset names too), an argument name in key position inside a
// CALL's braces, an object's key after `variable.`, and otherwise keywords, literals, built-ins
// and the session's variables. Nothing is offered inside a string or a comment.
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
  if (word.includes('.')) return [memberCandidates(word, source.variables()), word];

  const tool = argumentPosition(tokens);
  if (tool !== undefined) {
    const given = new Set(tool.given);
    return [matching(source.parameterNames(tool.name).filter((name) => !given.has(name)), word), word];
  }
  const names = [...T.KEYWORDS, 'true', 'false', 'null', ...BUILTINS.keys(), ...Object.keys(source.variables())];
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
