// Operator precedence (LANGUAGE.md §4). The grammar reads an expression as a flat sequence
//   prefix* operand (binaryOperator prefix* operand)*
// and this module turns that sequence into a tree. Keeping precedence in one table instead of one
// grammar rule per level keeps the parser shallow (nesting costs stack) and fast.
import type { IToken } from 'chevrotain';
import type { BinaryExpression, Expression, LogicalExpression, UnaryExpression } from './ast.js';
import type { SyntaxProblem } from '../errors.js';

const BINARY_PRECEDENCE: Record<string, number> = {
  OR: 1,
  AND: 2,
  '==': 4, '!=': 4, '=': 4,
  '<': 5, '<=': 5, '>': 5, '>=': 5,
  '+': 6, '-': 6,
  '*': 7, '/': 7, '%': 7,
};
const PREFIX_PRECEDENCE: Record<string, number> = { NOT: 3, '-': 8, '+': 8 };

/** An operand with the prefix operators written before it, outermost first. */
export interface OperandParts {
  prefixes: IToken[];
  operand: Expression;
}

interface PendingOperator {
  token: IToken;
  precedence: number;
  prefix: boolean;
}

/**
 * Shunting-yard: every binary operator is left-associative; prefix operators apply to the right.
 * `report` receives the problems found on the way (a lone `=` used as an operator).
 */
export function buildExpression(parts: OperandParts[], operators: IToken[], report: (problem: SyntaxProblem, token: IToken) => void): Expression {
  const output: Expression[] = [];
  const pending: PendingOperator[] = [];

  const reduce = () => {
    const op = pending.pop()!;
    if (op.prefix) {
      const operand = output.pop()!;
      output.push(unary(op.token, operand));
    } else {
      const right = output.pop()!;
      const left = output.pop()!;
      output.push(binary(op.token, left, right));
    }
  };

  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    for (const token of part.prefixes) pending.push({ token, precedence: PREFIX_PRECEDENCE[token.image] ?? 8, prefix: true });
    output.push(part.operand);
    const operator = operators[i];
    if (operator === undefined) continue;
    if (operator.image === '=') {
      report({ line: operator.startLine!, column: operator.startColumn!, message: '`=` is not an operator: use `==` to compare, or LET name = value to assign' }, operator);
    }
    const precedence = BINARY_PRECEDENCE[operator.image] ?? 0;
    while (pending.length > 0 && pending[pending.length - 1]!.precedence >= precedence) reduce();
    pending.push({ token: operator, precedence, prefix: false });
  }
  while (pending.length > 0) reduce();
  return output[0]!;
}

function unary(token: IToken, operand: Expression): UnaryExpression {
  return {
    type: 'Unary',
    operator: token.image as UnaryExpression['operator'],
    operand,
    line: token.startLine!,
    column: token.startColumn!,
    hasCall: operand.hasCall,
  };
}

function binary(token: IToken, left: Expression, right: Expression): BinaryExpression | LogicalExpression {
  const base = { left, right, line: token.startLine!, column: token.startColumn!, hasCall: left.hasCall || right.hasCall };
  if (token.image === 'AND' || token.image === 'OR') return { type: 'Logical', operator: token.image, ...base };
  const operator = token.image === '=' ? '==' : (token.image as BinaryExpression['operator']);
  return { type: 'Binary', operator, ...base };
}
