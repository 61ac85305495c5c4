// The AST nodes and literal values the grammar's actions make from tokens, and the stand-ins that
// error recovery yields.
import type { IToken } from './chevrotain.js';
import type * as A from './ast.js';

export const numberValue = (token: IToken): number => Number(token.image);
export const trueValue = (): boolean => true;
export const falseValue = (): boolean => false;
export const nullValue = (): null => null;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const standInTokens = new WeakSet<IToken>();

/**
 * Marks a literal token whose value the lexer could not recover (a template string, a string with a
 * bad escape): the grammar makes a stand-in of it, not the empty string it shows. Returns it.
 */
export function standInToken(token: IToken): IToken {
  standInTokens.add(token);
  return token;
}

export const isStandInToken = (token: IToken): boolean => standInTokens.has(token);

/** The value of a string literal. Not JSON.parse: a raw tab is legal in a Nuwa string. */
export function stringValue(token: IToken): string {
  if (token.isInsertedInRecovery || token.image.length < 2) return '';
  const body = token.image.slice(1, -1);
  if (!body.includes('\\')) return body;
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => (escape.length === 5 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : (ESCAPES[escape] ?? escape)));
}

// Tokens inserted by error recovery have no position; the AST is discarded in that case anyway.
export const lineOf = (token: IToken): number => token.startLine ?? 0;
export const columnOf = (token: IToken): number => token.startColumn ?? 0;

export const placeholder = (): A.Literal => ({ type: 'Literal', value: null, line: 0, column: 0, hasCall: false });
// What a rule yields when error recovery gives up on it: every rule has one, so no action ever
// meets `undefined`. The tree of a script with errors never runs, but the checker reads it
// (check/recovered.ts): a stand-in is a value nobody knows, never the null it holds.

/**
 * Whether a node stands in for text that error recovery skipped or a value a repair could not
 * recover: it has no position (line 0), or only the one of a token recovery inserted (NaN).
 */
export const isStandIn = (node: A.NodeBase): boolean => !(node.line >= 1);
/** A placeholder typed as whatever a rule yields: only its position-less shape is ever looked at. */
export const standIn = <T>(make: () => A.Node): (() => T) => make as unknown as () => T;
export const emptyObject = (): A.ObjectExpression => ({ type: 'Object', properties: [], line: 0, column: 0, hasCall: false });
export const placeholderStatement = (): A.ExpressionStatement => ({ type: 'ExpressionStatement', expression: placeholder(), line: 0, column: 0, hasCall: false });

export function ifNode(keyword: IToken, condition: A.Expression, consequent: A.Statement[], alternate: A.Statement[] | null): A.IfStatement {
  return {
    type: 'If',
    condition,
    consequent,
    alternate,
    line: lineOf(keyword), column: columnOf(keyword),
    hasCall: condition.hasCall || anyCall(consequent) || (alternate !== null && anyCall(alternate)),
  };
}

/** What follows a comprehension's element: `FOR variable IN iterable`, and `IF condition` if written. */
export interface Clause {
  variable: string;
  iterable: A.Expression;
  condition: A.Expression | null;
}

export function comprehensionNode(bracket: IToken, element: A.Expression, { variable, iterable, condition }: Clause): A.ComprehensionExpression {
  return {
    type: 'Comprehension',
    element,
    variable,
    iterable,
    condition,
    line: lineOf(bracket), column: columnOf(bracket),
    hasCall: element.hasCall || iterable.hasCall || (condition !== null && condition.hasCall),
  };
}

/** Whether any of `nodes` contains a CALL. */
export function anyCall(nodes: readonly A.NodeBase[]): boolean {
  for (const node of nodes) if (node?.hasCall) return true;
  return false;
}

/**
 * Each `+` that is the left operand of another `+`, by that operand: `a + b + c` is one chain, read
 * left to right (a `+` on the right was put in parentheses, and is a sum of its own). The parser
 * notes them (precedence.ts).
 */
const plusParents = new WeakMap<A.BinaryExpression, A.BinaryExpression>();

export function notePlusChain(node: A.BinaryExpression): void {
  if (node.operator === '+' && node.left.type === 'Binary' && node.left.operator === '+') plusParents.set(node.left, node);
}

/**
 * The operands of the whole chain of `+` that `node` is part of, in order (`"a" + x + "b"` from any
 * of its `+`): what a message that rewrites the chain as one FORMAT call needs.
 */
export function plusChainOperands(node: A.BinaryExpression): A.Expression[] {
  let top = node;
  for (let parent = plusParents.get(top); parent !== undefined; parent = plusParents.get(top)) top = parent;
  const operands: A.Expression[] = [];
  let link: A.Expression = top;
  while (link.type === 'Binary' && link.operator === '+' && (link === top || plusParents.has(link))) {
    operands.push(link.right);
    link = link.left;
  }
  operands.push(link);
  return operands.reverse();
}
