// Operator precedence (LANGUAGE.md §4). The grammar reads an expression as a flat sequence
//   prefix* operand (binaryOperator prefix* operand)*
// and this module turns that sequence into a tree. Keeping precedence in one table instead of one
// grammar rule per level keeps the parser shallow (nesting costs stack) and fast.
import type { IToken } from 'chevrotain';
import * as T from './tokens.js';
import { expressionName } from './hints.js';
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

/**
 * Operators of other languages, already reported (by the lexer or the mistakes pass), read as the
 * Nuwa operator they stand for so the tree has the shape the author meant. IN is reported here.
 */
const MEANS: ReadonlyMap<string, string> = new Map([
  ['&&', 'AND'], ['&', 'AND'], ['||', 'OR'], ['|', 'OR'], ['<>', '!='], ['!', 'NOT'], ['===', '=='], ['!==', '!='],
  ['and', 'AND'], ['or', 'OR'], ['not', 'NOT'], ['in', 'IN'], ['And', 'AND'], ['Or', 'OR'], ['Not', 'NOT'], ['In', 'IN'],
  ['+=', '='], ['-=', '='], ['*=', '='], ['/=', '='], ['%=', '='],
]);
const meaning = (token: IToken): string => MEANS.get(token.image) ?? token.image;

/** An operand with the prefix operators written before it, outermost first. */
export interface OperandParts {
  prefixes: IToken[];
  operand: Expression;
}

/**
 * Shunting-yard: every binary operator is left-associative; prefix operators apply to the right.
 * `report` receives the problems found on the way (a lone `=` used as an operator).
 */
export function buildExpression(parts: OperandParts[], operators: IToken[], report: (problem: SyntaxProblem, token: IToken) => void): Expression {
  const output: Expression[] = [];
  // Pending operators as parallel stacks (token, precedence, is-prefix): no object per operator.
  const tokens: IToken[] = [];
  const precedences: number[] = [];
  const prefix: boolean[] = [];

  const reduce = () => {
    const token = tokens.pop()!;
    precedences.pop();
    if (prefix.pop()) {
      output.push(unary(token, output.pop()!));
    } else {
      const right = output.pop()!;
      output.push(binary(token, output.pop()!, right));
    }
  };

  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    for (const token of part.prefixes) {
      tokens.push(token);
      precedences.push(PREFIX_PRECEDENCE[meaning(token)] ?? 8);
      prefix.push(true);
    }
    output.push(part.operand);
    const operator = operators[i];
    if (operator === undefined) continue;
    if (operator.tokenType === T.Assign) {
      report({ line: operator.startLine!, column: operator.startColumn!, message: '`=` is not an operator: use `==` to compare, or LET name = value to assign' }, operator);
    } else if (meaning(operator) === 'IN') {
      const list = parts[i + 1]!.operand;
      const item = output[output.length - 1]!;
      report(
        {
          line: operator.startLine!,
          column: operator.startColumn!,
          message: `there is no \`${operator.image}\` operator: to test membership write CONTAINS(${expressionName(list, 'list')}, ${expressionName(item, 'x')})`,
        },
        operator,
      );
    }
    const precedence = BINARY_PRECEDENCE[meaning(operator)] ?? 4;
    while (precedences.length > 0 && precedences[precedences.length - 1]! >= precedence) reduce();
    tokens.push(operator);
    precedences.push(precedence);
    prefix.push(false);
  }
  while (tokens.length > 0) reduce();
  return output[0]!;
}

function unary(token: IToken, operand: Expression): UnaryExpression {
  return {
    type: 'Unary',
    operator: meaning(token) as UnaryExpression['operator'],
    operand,
    line: token.startLine!,
    column: token.startColumn!,
    hasCall: operand.hasCall,
  };
}

function binary(token: IToken, left: Expression, right: Expression): BinaryExpression | LogicalExpression {
  const base = { left, right, line: token.startLine!, column: token.startColumn!, hasCall: left.hasCall || right.hasCall };
  const meant = meaning(token);
  if (meant === 'AND' || meant === 'OR') return { type: 'Logical', operator: meant, ...base };
  // `=`, `+=` and IN were reported: any operator keeps the tree whole, and it is never run.
  const operator = meant === '=' || meant === 'IN' ? '==' : (meant as BinaryExpression['operator']);
  return { type: 'Binary', operator, ...base };
}
