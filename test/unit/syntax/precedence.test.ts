// Unit tests for src/syntax/precedence.ts: the shunting-yard that turns a flat operand/operator
// sequence into a tree with the precedence of LANGUAGE.md §4.
import { describe, expect, it } from 'vitest';
import type { IToken } from 'chevrotain';
import type * as A from '../../../src/syntax/ast.js';
import type { SyntaxProblem } from '../../../src/errors.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { BINARY, buildExpression, OPERAND, PREFIX, type PieceKind } from '../../../src/syntax/precedence.js';

/**
 * Splits simple text (single-letter names, prefix and binary operators) into the flat sequence the
 * parser hands over, the way the grammar does: prefix* operand (binary prefix* operand)*.
 */
function build(source: string, report: (problem: SyntaxProblem, token: IToken) => void = () => {}): A.Expression {
  const tokens = tokenize(source, { expression: true }).tokens;
  const pieces: Array<A.Expression | IToken> = [];
  const kinds: PieceKind[] = [];
  for (const token of tokens) {
    if (token.tokenType.name === 'Identifier' || token.tokenType.name === 'NumberLiteral') {
      const operand: A.Expression =
        token.tokenType.name === 'Identifier'
          ? { type: 'Variable', name: token.image, line: token.startLine!, column: token.startColumn!, hasCall: token.image === 'c' }
          : { type: 'Literal', value: Number(token.image), line: token.startLine!, column: token.startColumn!, hasCall: false };
      pieces.push(operand);
      kinds.push(OPERAND);
    } else {
      // Expecting an operand: a prefix operator; after one: a binary operator.
      kinds.push(kinds.length === 0 || kinds[kinds.length - 1] !== OPERAND ? PREFIX : BINARY);
      pieces.push(token);
    }
  }
  return buildExpression(pieces, kinds, 0, report)!;
}

function sexpr(node: A.Expression): string {
  if (node.type === 'Variable') return node.name;
  if (node.type === 'Literal') return String(node.value);
  if (node.type === 'Unary') return `(${node.operator} ${sexpr(node.operand)})`;
  if (node.type === 'Binary' || node.type === 'Logical') return `(${node.operator} ${sexpr(node.left)} ${sexpr(node.right)})`;
  throw new Error(node.type);
}

describe('buildExpression', () => {
  it.each([
    ['a - b - d', '(- (- a b) d)'],
    ['a * b + d * e', '(+ (* a b) (* d e))'],
    ['a + b * d', '(+ a (* b d))'],
    ['a / b % d', '(% (/ a b) d)'],
    ['NOT a == b', '(NOT (== a b))'],
    ['NOT a AND b', '(AND (NOT a) b)'],
    ['a OR b AND d', '(OR a (AND b d))'],
    ['- - a', '(- (- a))'],
    ['- a * b', '(* (- a) b)'],
    ['a < b == d >= e', '(== (< a b) (>= d e))'],
    ['a == - b', '(== a (- b))'],
    ['a != NOT b', '(!= a (NOT b))'],
    ['+ a - b', '(- (+ a) b)'],
  ])('%s → %s', (source, expected) => {
    expect(sexpr(build(source))).toBe(expected);
  });

  it('makes AND/OR Logical nodes and the rest Binary nodes, at the operator token', () => {
    const node = build('a AND b == d');
    expect(node).toMatchObject({ type: 'Logical', operator: 'AND', line: 1, column: 3, right: { type: 'Binary', operator: '==', column: 9 } });
  });

  it('gives unary nodes the position of their operator', () => {
    expect(build('  NOT a')).toMatchObject({ type: 'Unary', operator: 'NOT', line: 1, column: 3 });
  });

  it('propagates hasCall from the operands', () => {
    expect(build('a + b').hasCall).toBe(false);
    const node = build('a + b * c') as A.BinaryExpression;
    expect([node.hasCall, node.left.hasCall, node.right.hasCall]).toEqual([true, false, true]);
    expect(build('- c').hasCall).toBe(true);
  });

  it('reports a lone `=` and builds it as `==` so that parsing can go on', () => {
    const reported: Array<[SyntaxProblem, string]> = [];
    const node = build('a = 1', (problem, token) => reported.push([problem, token.image]));
    expect(reported).toEqual([[{ line: 1, column: 3, message: '`=` is not an operator: use `==` to compare, or LET name = value to assign' }, '=']]);
    expect(node).toMatchObject({ type: 'Binary', operator: '==' });
  });

  it('builds long chains without recursion', () => {
    const node = build(Array.from({ length: 20_000 }, () => 'a').join(' - '));
    let depth = 0;
    for (let n: A.Expression = node; n.type === 'Binary'; n = n.left) depth++;
    expect(depth).toBe(19_999);
  });

  it('reads the sequence from its start, and yields nothing for one that error recovery left incomplete', () => {
    const a: A.Expression = { type: 'Variable', name: 'a', line: 1, column: 1, hasCall: false };
    const [plus] = tokenize('+', { expression: true }).tokens;
    expect(buildExpression([plus!, a, plus!, a], [BINARY, OPERAND, BINARY, OPERAND], 1, () => {})).toMatchObject({ type: 'Binary', operator: '+' });
    expect(buildExpression([a, plus!], [OPERAND, BINARY], 0, () => {})).toBeUndefined();
    expect(buildExpression([a, a], [OPERAND, OPERAND], 0, () => {})).toBeUndefined();
    expect(buildExpression([plus!], [PREFIX], 0, () => {})).toBeUndefined();
    expect(buildExpression([], [], 0, () => {})).toBeUndefined();
  });
});
