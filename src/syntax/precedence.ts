// Operator precedence (LANGUAGE.md §4). The grammar reads an expression as a flat sequence
//   prefix* operand (binaryOperator prefix* operand)*
// and this module turns that sequence into a tree. Keeping precedence in one table instead of one
// grammar rule per level keeps the parser shallow (nesting costs stack) and fast.
import type { IToken } from 'chevrotain';
import * as T from './tokens.js';
import { expressionName } from './hints.js';
import { pending as unresolved } from './methods.js';
import { notePlusChain, placeholder } from './nodes.js';
import { printOr } from './print.js';
import { repaired } from './problems.js';
import type { BinaryExpression, Expression, UnaryExpression } from './ast.js';
import type { SyntaxProblem } from '../errors.js';

const BINARY_PRECEDENCE: Record<string, number> = {
  // An arrow function's body is everything after its `=>` (methods.ts reads it).
  '=>': 0,
  OR: 1,
  AND: 2,
  '==': 4, '!=': 4, '=': 4,
  '<': 5, '<=': 5, '>': 5, '>=': 5,
  '+': 6, '-': 6,
  '*': 7, '/': 7, '%': 7,
};
const PREFIX_PRECEDENCE: Record<string, number> = { NOT: 3, '-': 8, '+': 8, '...': 8 };

/**
 * Operators of other languages, already reported (by the lexer or the mistakes pass), read as the
 * Nuwa operator they stand for so the tree has the shape the author meant. IN is reported here.
 */
const MEANS: ReadonlyMap<string, string> = new Map([
  ['&&', 'AND'], ['&', 'AND'], ['||', 'OR'], ['|', 'OR'], ['<>', '!='], ['!', 'NOT'], ['===', '=='], ['!==', '!='],
  ['and', 'AND'], ['or', 'OR'], ['not', 'NOT'], ['in', 'IN'], ['And', 'AND'], ['Or', 'OR'], ['Not', 'NOT'], ['In', 'IN'],
  ['+=', '='], ['-=', '='], ['*=', '='], ['/=', '='], ['%=', '='], ['=>', '=>'], ['...', '...'],
]);
const meaning = (token: IToken): string => MEANS.get(token.image) ?? token.image;

/** What a piece of an expression's flat sequence is. */
export type PieceKind = 0 | 1 | 2;
export const OPERAND = 0;
export const PREFIX = 1;
export const BINARY = 2;

// The operator stacks of the shunting-yard, reused by every call (it never nests: the operands are
// finished trees): parallel arrays of token, precedence and is-prefix, no object per operator.
const output: Expression[] = [];
const pending: IToken[] = [];
const precedences: number[] = [];
const isPrefix: boolean[] = [];

function reduce(): void {
  const token = pending.pop()!;
  precedences.pop();
  if (isPrefix.pop()) {
    output.push(unary(token, output.pop()!));
  } else {
    const right = output.pop()!;
    output.push(binary(token, output.pop()!, right));
  }
}

/**
 * Shunting-yard over `pieces[start..]`, a sequence `prefix* operand (binary prefix* operand)*` as the
 * grammar reads it (`kinds` says which piece is which): every binary operator is left-associative;
 * prefix operators apply to the right. `report` receives the problems found on the way (a lone `=`
 * used as an operator). Undefined when the sequence is not of that form, which only error recovery
 * leaves behind.
 */
export function buildExpression(
  pieces: ReadonlyArray<Expression | IToken>,
  kinds: readonly PieceKind[],
  start: number,
  report: (problem: SyntaxProblem, token: IToken) => void,
): Expression | undefined {
  // Left over only by a sequence that was not of the form (an early return).
  while (pending.length > 0) {
    pending.pop();
    precedences.pop();
    isPrefix.pop();
  }
  while (output.length > 0) output.pop();
  let wantOperand = true;
  for (let i = start; i < pieces.length; i++) {
    const kind = kinds[i];
    if (kind === OPERAND) {
      if (!wantOperand) return undefined;
      output.push(pieces[i] as Expression);
      wantOperand = false;
      continue;
    }
    const token = pieces[i] as IToken;
    if (kind === PREFIX) {
      if (!wantOperand) return undefined;
      pending.push(token);
      precedences.push(PREFIX_PRECEDENCE[meaning(token)] ?? 8);
      isPrefix.push(true);
      continue;
    }
    if (wantOperand) return undefined;
    if (token.tokenType === T.Assign) {
      report(repaired({ line: token.startLine!, column: token.startColumn!, message: '`=` is not an operator: use `==` to compare, or LET name = value to assign' }), token);
    } else if (meaning(token) === 'IN') {
      const list = nextOperand(pieces, kinds, i);
      const item = output[output.length - 1]!;
      const contains = `CONTAINS(${list ? printOr(list, expressionName(list, 'list')) : 'list'}, ${printOr(item, expressionName(item, 'x'))})`;
      report(
        repaired({
          line: token.startLine!,
          column: token.startColumn!,
          message: `there is no \`${token.image}\` operator: to test membership write ${contains}`,
        }),
        token,
      );
    }
    const precedence = BINARY_PRECEDENCE[meaning(token)] ?? 4;
    while (precedences.length > 0 && precedences[precedences.length - 1]! >= precedence) reduce();
    pending.push(token);
    precedences.push(precedence);
    isPrefix.push(false);
    wantOperand = true;
  }
  if (wantOperand) return undefined;
  while (pending.length > 0) reduce();
  return output.pop();
}

/** The operand after the operator at `i` (past its prefix operators). */
function nextOperand(pieces: ReadonlyArray<Expression | IToken>, kinds: readonly PieceKind[], i: number): Expression | undefined {
  for (let j = i + 1; j < pieces.length; j++) if (kinds[j] === OPERAND) return pieces[j] as Expression;
  return undefined;
}

function unary(token: IToken, operand: Expression): Expression {
  if (token.tokenType === T.Spread) {
    // `...xs`: the list itself, for MAX(...xs); reported where it is used (methods.ts), or on its own.
    unresolved.spreads.set(operand, { line: token.startLine!, column: token.startColumn! });
    return operand;
  }
  return {
    type: 'Unary',
    operator: meaning(token) as UnaryExpression['operator'],
    operand,
    line: token.startLine!,
    column: token.startColumn!,
    hasCall: operand.hasCall,
  };
}

function binary(token: IToken, left: Expression, right: Expression): Expression {
  const meant = meaning(token);
  const line = token.startLine!;
  const column = token.startColumn!;
  const hasCall = left.hasCall || right.hasCall;
  if (meant === '=>') {
    // An arrow function: a stand-in, which a method that takes it (xs.filter(x => ...)) reads.
    const params = unresolved.lambdaParams.get(`${left.line}:${left.column}`) ?? (left.type === 'Variable' ? [left.name] : []);
    const node = placeholder();
    unresolved.lambdas.set(node, { params, body: right, at: { line, column } });
    return node;
  }
  if (meant === 'AND' || meant === 'OR') return { type: 'Logical', operator: meant, left, right, line, column, hasCall };
  // x IN list means CONTAINS(list, x) (reported above).
  if (meant === 'IN') return { type: 'FunctionCall', name: 'CONTAINS', arguments: [right, left], line, column, hasCall };
  // `=` and `+=` were reported: `==` keeps the tree whole.
  const operator = meant === '=' ? '==' : (meant as BinaryExpression['operator']);
  const node: BinaryExpression = { type: 'Binary', operator, left, right, line, column, hasCall };
  notePlusChain(node);
  return node;
}
