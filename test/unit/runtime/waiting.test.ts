// Unit tests for src/runtime/waiting.ts: the path from a statement to a list comprehension is
// compiled as the path to a CALL (it may wait, to give the event loop a turn), and nothing else is.
import { describe, expect, it } from 'vitest';
import type * as A from '../../../src/syntax/ast.js';
import { parse } from '../../../src/syntax/parse.js';
import { markWaiting, mayWait } from '../../../src/runtime/waiting.js';

describe('markWaiting', () => {
  it('marks the comprehension and the expressions around it up to its statement, and nothing beside', () => {
    const program = parse('LET a = 1 + LEN([x FOR x IN xs]) * 2\nLET b = 1 + 2');
    markWaiting(program);
    const [first, second] = program.body as [A.LetStatement, A.LetStatement];
    const sum = first.value as A.BinaryExpression;
    const product = sum.right as A.BinaryExpression;
    const len = product.left as A.FunctionCall;
    expect([first, sum, product, len, len.arguments[0]!].map(mayWait)).toEqual([true, true, true, true, true]);
    expect([sum.left, product.right, second, second.value].map(mayWait)).toEqual([false, false, false, false]);
    const comprehension = len.arguments[0] as A.ComprehensionExpression;
    expect([comprehension.element, comprehension.iterable].map(mayWait)).toEqual([false, false]);
  });

  it('marks nested comprehensions and the path through the outer one', () => {
    const program = parse('PRINT([[y FOR y IN x] FOR x IN xs])');
    markWaiting(program);
    const print = (program.body[0] as A.ExpressionStatement).expression as A.FunctionCall;
    const outer = print.arguments[0] as A.ComprehensionExpression;
    expect([print, outer, outer.element].map(mayWait)).toEqual([true, true, true]);
    expect(mayWait(outer.iterable)).toBe(false);
  });

  it('walks a program made by hand, and a program parse() made from text with comprehensions; not one without', () => {
    const parsed = parse('LET a = [x FOR x IN xs]');
    const byHand: A.Program = { ...parsed, body: [...parsed.body] };
    markWaiting(byHand);
    expect(mayWait(byHand.body[0]!)).toBe(true);
    const plain = parse('LET a = [1, 2]');
    markWaiting(plain);
    expect(mayWait(plain.body[0]!)).toBe(false);
  });

  it('follows CALLs as the parser marked them (hasCall)', () => {
    const program = parse('LET a = CALL t {}');
    expect(mayWait(program.body[0]!)).toBe(true);
  });

  it('walks a thousand levels and a chain of thousands of operators without recursion', () => {
    const deep = parse(`LET x = ${'['.repeat(999)}7${' FOR i IN [1]]'.repeat(999)}`);
    markWaiting(deep);
    expect(mayWait(deep.body[0]!)).toBe(true);
    const chain = parse(`LET y = 1${' + 1'.repeat(20_000)} + LEN([z FOR z IN zs])`);
    markWaiting(chain);
    expect(mayWait((chain.body[0] as A.LetStatement).value)).toBe(true);
  });
});
