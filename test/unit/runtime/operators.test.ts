// Unit tests for src/runtime/operators.ts: every operator of LANGUAGE.md §4 on values, and the
// kind, message and position of each error.
import { describe, expect, it } from 'vitest';
import { NuwaError, type Position } from '../../../src/errors.js';
import { BINARY_OPERATIONS as B, logicalOperand, UNARY_OPERATIONS as U } from '../../../src/runtime/operators.js';
import { fromJson, listOf, objectOf, type Value } from '../../../src/values/values.js';
import { thrownBy } from '../../support/thrown.js';
import { parse } from '../../../src/syntax/parse.js';
import type { BinaryExpression } from '../../../src/syntax/ast.js';

const at: Position = { line: 4, column: 12 };
const o = (entries: Record<string, Value>): Value => objectOf(Object.entries(entries));
const v = (json: unknown): Value => fromJson(json);

const failure = (run: () => unknown): NuwaError => thrownBy(run, NuwaError);

function expectError(run: () => unknown, kind: string, message: RegExp | string): NuwaError {
  const error = failure(run);
  expect(error.kind).toBe(kind);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  expect([error.line, error.column]).toEqual([4, 12]);
  return error;
}

describe('arithmetic', () => {
  it('computes + - * / %', () => {
    expect(B['+'](2, 3, at)).toBe(5);
    expect(B['+'](0.1, 0.2, at)).toBe(0.1 + 0.2);
    expect(B['-'](2, 3, at)).toBe(-1);
    expect(B['*'](-2, 3.5, at)).toBe(-7);
    expect(B['/'](7, 2, at)).toBe(3.5);
    expect(B['%'](7, 3, at)).toBe(1);
  });

  it('gives % the sign of the dividend', () => {
    expect(B['%'](-7, 3, at)).toBe(-1);
    expect(B['%'](7, -3, at)).toBe(1);
    expect(B['%'](-7, -3, at)).toBe(-1);
    expect(B['%'](5.5, 2, at)).toBe(1.5);
  });

  it('refuses to join strings with + and says to use FORMAT', () => {
    expectError(() => B['+']('a', 'b', at), 'TypeError', /^`\+` adds numbers; it cannot join string "a" and string "b": use FORMAT to build strings/);
    expectError(() => B['+']('total: ', 3, at), 'TypeError', /cannot join string "total: " and number 3: use FORMAT/);
    expectError(() => B['+'](3, 'x', at), 'TypeError', /use FORMAT/);
  });

  it('refuses non-numbers for every arithmetic operator', () => {
    expectError(() => B['+'](1, null, at), 'TypeError', '`+` needs two numbers, got number 1 and null');
    expectError(() => B['-']('5', 1, at), 'TypeError', '`-` needs two numbers, got string "5" and number 1');
    expectError(() => B['*'](true, 2, at), 'TypeError', '`*` needs two numbers, got boolean true and number 2');
    expectError(() => B['/'](listOf([1]), 2, at), 'TypeError', '`/` needs two numbers, got list of 1 item and number 2');
    expectError(() => B['%'](3, o({ a: 1 }), at), 'TypeError', '`%` needs two numbers, got number 3 and object with keys a');
  });

  it('checks the types before dividing by zero', () => {
    expect(failure(() => B['/']('a', 0, at)).kind).toBe('TypeError');
  });

  it('raises DivisionByZeroError for / and % by zero (and -0)', () => {
    expectError(() => B['/'](1, 0, at), 'DivisionByZeroError', /^`\/` by zero/);
    expectError(() => B['/'](0, 0, at), 'DivisionByZeroError', /^`\/` by zero/);
    expectError(() => B['%'](5, 0, at), 'DivisionByZeroError', /^`%` by zero/);
    expectError(() => B['/'](1, -0, at), 'DivisionByZeroError', /by zero/);
  });

  it('raises TypeError when a result overflows', () => {
    expectError(() => B['*'](1e308, 10, at), 'TypeError', /^the result of `\*` is too large to be a number \(overflow\)/);
    expectError(() => B['+'](1.7e308, 1.7e308, at), 'TypeError', /`\+`.*overflow/);
    expectError(() => B['-'](-1.7e308, 1.7e308, at), 'TypeError', /`-`.*overflow/);
    expectError(() => B['/'](1e308, 1e-10, at), 'TypeError', /`\/`.*overflow/);
  });

  it('lets a result underflow to zero', () => {
    expect(B['*'](1e-300, 1e-300, at)).toBe(0);
  });
});

describe('equality', () => {
  it('compares structurally without coercion', () => {
    expect(B['=='](1, 1, at)).toBe(true);
    expect(B['=='](1, '1', at)).toBe(false);
    expect(B['!='](1, '1', at)).toBe(true);
    expect(B['=='](null, null, at)).toBe(true);
    expect(B['=='](null, false, at)).toBe(false);
    expect(B['=='](v([1, [2]]), v([1, [2]]), at)).toBe(true);
    expect(B['!='](v([1, [2]]), v([1, [3]]), at)).toBe(true);
    expect(B['=='](v({ a: 1, b: 2 }), v({ b: 2, a: 1 }), at)).toBe(true);
  });
});

describe('ordering', () => {
  it('compares numbers numerically', () => {
    expect([B['<'](1, 2, at), B['<='](2, 2, at), B['>'](2, 10, at), B['>='](-1, -1, at)]).toEqual([true, true, false, true]);
    expect([B['<'](2, 2, at), B['>'](3, 2, at)]).toEqual([false, true]);
  });

  it('compares strings by UTF-16 code units', () => {
    expect(B['<']('apple', 'banana', at)).toBe(true);
    expect(B['<']('B', 'a', at)).toBe(true);
    expect(B['<']('10', '9', at)).toBe(true);
    expect(B['<=']('a', 'a', at)).toBe(true);
    expect(B['>']('ab', 'a', at)).toBe(true);
    // U+1F600 is stored as the surrogates D83D DE00, below U+FF5E.
    expect(B['<']('😀', '～', at)).toBe(true);
  });

  it('refuses a number and a string, suggesting NUMBER for numeric text', () => {
    expectError(() => B['<']('5', 3, at), 'TypeError', '`<` compares two numbers or two strings, got string "5" and number 3: the string holds a number, so convert it: write NUMBER(...)');
    expectError(() => B['>='](3, '5', at), 'TypeError', /write NUMBER\(\.\.\.\)/);
    expectError(() => B['>=']('abc', 5, at), 'TypeError', /convert one side so both are numbers \(NUMBER\) or both strings \(STR\)/);
  });

  it('refuses a date or time compared with a number, suggesting a string of the same format and never NUMBER', () => {
    const node = parse('LET r = d >= 20240101').body[0]!;
    const compare = { ...(node as { value: BinaryExpression }).value, line: 4, column: 12 };
    expectError(() => B['>=']('2024-05-01', 20240101, compare), 'TypeError', /"2024-05-01" is a date or time, so compare it with a string of the same format: write d >= "2024-01-01"$/);
    expectError(() => B['<']('09:30', 930, at), 'TypeError', /compare it with a string of the same format, e\.g\. "09:30"; do not convert it with NUMBER$/);
    expectError(() => B['<'](1714550400000, '2024-05-01T10:00', at), 'TypeError', /\(NOW\(\) is a number of milliseconds, not a date\)/);
  });

  it('refuses other pairs without that hint', () => {
    for (const [l, r] of [[null, 1], [true, false], [[1], [2]], [new Map(), new Map()]] as Array<[Value, Value]>) {
      const error = expectError(() => B['<='](l, r, at), 'TypeError', /^`<=` compares two numbers or two strings, got /);
      expect(error.message).not.toMatch(/NUMBER/);
    }
  });
});

describe('unary operators', () => {
  it('negates numbers, and -0 never appears', () => {
    expect(U['-'](5, at)).toBe(-5);
    expect(U['-'](-2.5, at)).toBe(2.5);
    expect(Object.is(U['-'](0, at), 0)).toBe(true);
    expect(Object.is(U['-'](-0, at), 0)).toBe(true);
  });

  it('keeps numbers with unary +', () => {
    expect(U['+'](-3, at)).toBe(-3);
  });

  it('refuses non-numbers for unary - and +', () => {
    expectError(() => U['-']('5', at), 'TypeError', 'unary `-` needs a number, got string "5"');
    expectError(() => U['+'](null, at), 'TypeError', 'unary `+` needs a number, got null');
  });

  it('negates booleans with NOT', () => {
    expect(U.NOT(true, at)).toBe(false);
    expect(U.NOT(false, at)).toBe(true);
  });

  it('refuses NOT of a non-boolean', () => {
    expectError(() => U.NOT(0, at), 'TypeError', 'NOT needs a boolean, got number 0: compare explicitly, e.g. NOT (x == 0)');
    expectError(() => U.NOT(null, at), 'TypeError', 'NOT needs a boolean, got null');
    expectError(() => U.NOT('true', at), 'TypeError', /^NOT needs a boolean, got string "true"/);
  });
});

describe('logicalOperand', () => {
  it('passes booleans through', () => {
    expect(logicalOperand(true, 'AND', 'left', at)).toBe(true);
    expect(logicalOperand(false, 'OR', 'right', at)).toBe(false);
  });

  it('refuses anything else, naming the side and operator', () => {
    expectError(() => logicalOperand(1, 'AND', 'left', at), 'TypeError', 'the left side of AND must be a boolean, got number 1: compare explicitly, e.g. x != null');
    expectError(() => logicalOperand(null, 'OR', 'right', at), 'TypeError', /^the right side of OR must be a boolean, got null/);
  });
});
