// Helpers of the parser's unit tests (test/unit/syntax/parse*.test.ts): the statement or expression a
// one-line script parses to, a compact prefix form of an expression's tree, the SyntaxError a
// script gives, and a check of every node's `hasCall`.
import { expect } from 'vitest';
import type * as A from '../../src/syntax/ast.js';
import { childrenOf } from '../../src/syntax/ast.js';
import { isNuwaError, type NuwaError } from '../../src/errors.js';
import { parse } from '../../src/syntax/parse.js';

export function syntaxFailure(source: unknown, options?: { fileName?: string }): NuwaError {
  try {
    parse(source as string, options);
  } catch (error) {
    if (isNuwaError(error)) return error;
    throw new Error(`expected a NuwaError, got ${String(error)}`);
  }
  throw new Error(`expected a SyntaxError for ${JSON.stringify(source)}`);
}

/** The only statement of `source`. */
export function statement(source: string): A.Statement {
  const program = parse(source);
  expect(program.body).toHaveLength(1);
  return program.body[0]!;
}

/** The expression of a one-expression script. */
export function expression(source: string): A.Expression {
  const node = statement(source);
  if (node.type !== 'ExpressionStatement') throw new Error(`expected an expression statement, got ${node.type}`);
  return node.expression;
}

/** A compact prefix form of an expression, to check tree shapes. */
export function sexpr(node: A.Expression): string {
  switch (node.type) {
    case 'Literal':
      return JSON.stringify(node.value);
    case 'Variable':
      return node.name;
    case 'Binary':
    case 'Logical':
      return `(${node.operator} ${sexpr(node.left)} ${sexpr(node.right)})`;
    case 'Unary':
      return `(${node.operator} ${sexpr(node.operand)})`;
    case 'Member':
      return `(. ${sexpr(node.object)} ${node.property})`;
    case 'Index':
      return `([] ${sexpr(node.object)} ${sexpr(node.index)})`;
    case 'List':
      return `[${node.elements.map(sexpr).join(' ')}]`;
    case 'Comprehension':
      return `[${sexpr(node.element)} FOR ${node.variable} IN ${sexpr(node.iterable)}${node.condition ? ` IF ${sexpr(node.condition)}` : ''}]`;
    case 'Object':
      return `{${node.properties.map((p) => `${JSON.stringify(p.key)}: ${sexpr(p.value)}`).join(', ')}}`;
    case 'FunctionCall':
      return `${node.name}(${node.arguments.map(sexpr).join(' ')})`;
    case 'Call':
      return `CALL ${node.tool} ${sexpr(node.arguments)}`;
    case 'Calc':
      return `CALC ${sexpr(node.arguments)}`;
  }
}

export const shape = (source: string) => sexpr(expression(source));

export function containsCall(node: A.Node): boolean {
  return node.type === 'Call' || childrenOf(node).some(containsCall);
}

/** Checks `hasCall` on every node of the tree against a recomputation; returns the node count. */
export function checkHasCall(node: A.Node): number {
  expect(node.hasCall, `hasCall of ${node.type} at ${node.line}:${node.column}`).toBe(containsCall(node));
  return 1 + childrenOf(node).reduce((n, child) => n + checkHasCall(child), 0);
}
