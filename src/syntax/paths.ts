// `LET item.price = 2` and `counts[word] += 1`: lists and objects cannot be changed in place, and the
// Nuwa way is to set the whole variable to a new object, LET item = SET(item, "price", 2). These
// helpers build that value from the path the author wrote, for the LET rule (grammar.ts) to report
// and to put in the tree.
import type { IToken } from './chevrotain.js';
import type * as A from './ast.js';

/** One `.name` or `[index]` after LET's name. */
export type LetPathPart = { token: IToken; key: string } | { token: IToken; index: A.Expression };

const at = (token: IToken) => ({ line: token.startLine ?? 0, column: token.startColumn ?? 0 });

function keyOf(part: LetPathPart): A.Expression {
  return 'key' in part ? { type: 'Literal', value: part.key, ...at(part.token), hasCall: false } : part.index;
}

function access(base: A.Expression, part: LetPathPart): A.Expression {
  if ('key' in part) return { type: 'Member', object: base, property: part.key, ...at(part.token), hasCall: base.hasCall };
  return { type: 'Index', object: base, index: part.index, ...at(part.token), hasCall: base.hasCall || part.index.hasCall };
}

function call(name: string, args: A.Expression[], token: IToken): A.FunctionCall {
  return { type: 'FunctionCall', name, arguments: args, ...at(token), hasCall: args.some((a) => a.hasCall) };
}

/** A list's item (`xs[0] = ...`): SET works on objects only. */
const isListIndex = (part: LetPathPart) => 'index' in part && part.index.type === 'Literal' && typeof part.index.value === 'number';

/**
 * The value the path reads now: `counts[word]`, or with `orZero` GET(counts, word, 0) for the last
 * part (a count that `+= 1` starts), as the prompt teaches counting.
 */
export function readPath(base: A.Expression, path: readonly LetPathPart[], orZero: boolean): A.Expression {
  let node = base;
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    const last = i === path.length - 1;
    node = last && orZero && 'index' in part && !isListIndex(part) ? call('GET', [node, part.index, { type: 'Literal', value: 0, ...at(part.token), hasCall: false }], part.token) : access(node, part);
  }
  return node;
}

/**
 * The new value of the variable: SET(base, key, value), nested for a longer path
 * (SET(a, "b", SET(a.b, "c", value))); undefined when a part indexes a list.
 */
export function setPath(base: A.Expression, path: readonly LetPathPart[], value: A.Expression): A.Expression | undefined {
  if (path.some(isListIndex)) return undefined;
  const [first, ...rest] = path;
  if (first === undefined) return value;
  const inner = rest.length === 0 ? value : setPath(access(base, first), rest, value);
  return inner === undefined ? undefined : call('SET', [base, keyOf(first), inner], first.token);
}
