// Unit tests for src/runtime/calc.ts: CALC { formula, vars } (LANGUAGE.md §4), through the
// Interpreter so that the CALC node's own position is what errors carry.
import { describe, expect, it } from 'vitest';
import { Interpreter, isNuwaError, type NuwaError } from '../../../src/index.js';

async function run(source: string): Promise<string[]> {
  const output: string[] = [];
  await new Interpreter(undefined, { print: (line) => output.push(line) }).run(source);
  return output;
}

async function calc(formula: string, vars: string = '{}'): Promise<string> {
  const output = await run(`PRINT(CALC { formula: ${JSON.stringify(formula)}, vars: ${vars} })`);
  return output[0]!;
}

async function failure(source: string): Promise<NuwaError> {
  try {
    await run(source);
  } catch (error) {
    if (isNuwaError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${source} to fail`);
}

describe('CALC: evaluation', () => {
  it.each([
    ['1 + 2 * 3', '{}', '7'],
    ['(1 + 2) * 3', '{}', '9'],
    ['price * qty', '{ price: 2.5, qty: 4 }', '10'],
    ['a - b - c', '{ a: 10, b: 3, c: 2 }', '5'],
    ['a / b', '{ a: 7, b: 2 }', '3.5'],
    ['a % b', '{ a: -7, b: 3 }', '-1'],
    ['-a + +b', '{ a: 2, b: 5 }', '3'],
    ['- -a', '{ a: 2 }', '2'],
    ['2.5E-3 * 1e3', '{}', '2.5'],
    ['x', '{ x: 42 }', '42'],
  ])('%s with %s → %s', async (formula, vars, expected) => {
    expect(await calc(formula, vars)).toBe(expected);
  });

  it.each([
    ['a > b', '{ a: 2, b: 1 }', 'true'],
    ['a <= b', '{ a: 2, b: 1 }', 'false'],
    ['a == b', '{ a: 1, b: 1 }', 'true'],
    ['a != b + 1', '{ a: 1, b: 0 }', 'false'],
    ['a * 2 >= 10', '{ a: 5 }', 'true'],
  ])('compares: %s with %s → %s', async (formula, vars, expected) => {
    expect(await calc(formula, vars)).toBe(expected);
  });

  it('yields numbers and booleans as values, not text', async () => {
    expect(await run('LET n = CALC { formula: "a + 1", vars: { a: 1 } } PRINT(TYPE(n)) PRINT(n * 10) PRINT(TYPE(CALC { formula: "1 < 2" }))')).toEqual(['number', '20', 'boolean']);
  });

  it('takes vars from script variables and ignores unused vars', async () => {
    expect(await run('LET p = 3 PRINT(CALC { formula: "p * 2", vars: { p: p, unused: "text" } })')).toEqual(['6']);
  });

  it('works without vars', async () => {
    expect(await calc('2 + 2', '{}')).toBe('4');
    expect(await run('PRINT(CALC { formula: "2 * 21" })')).toEqual(['42']);
  });

  it('resolves names only in vars, not in script variables', async () => {
    const error = await failure('LET a = 1 PRINT(CALC { formula: "a + 1", vars: {} })');
    expect(error.kind).toBe('CalcError');
  });

  it('does not leak values between calls with the same formula (cached) and different vars', async () => {
    expect(await run('FOR v IN [1, 2, 3] DO PRINT(CALC { formula: "v * 10 + w", vars: { v: v, w: v } }) END')).toEqual(['11', '22', '33']);
    expect(await calc('v * 10 + w', '{ v: 5, w: 0 }')).toBe('50');
    // A later call missing a var that an earlier call had still fails.
    const error = await failure('PRINT(CALC { formula: "v * 10 + w", vars: { v: 1 } })');
    expect(error.kind).toBe('CalcError');
    expect(error.message).toMatch(/uses `w`/);
  });
});

describe('CALC: errors', () => {
  it('names an unknown variable and its column in the formula, at the CALC node', async () => {
    const error = await failure('LET x = 1\nLET r = CALC { formula: "a + bb", vars: { a: 1, b: 2 } }');
    expect(error.kind).toBe('CalcError');
    expect(error.message).toMatch(/^formula "a \+ bb" uses `bb` \(column 5\) but vars has no such key: did you mean `b`\?/);
    expect([error.line, error.column]).toEqual([2, 9]);
  });

  it('reports a formula that does not parse with its column in the formula', async () => {
    const error = await failure('LET r =   CALC { formula: "a +", vars: { a: 1 } }');
    expect(error.kind).toBe('CalcError');
    expect(error.message).toMatch(/^formula "a \+", column 4: expected an expression/);
    expect([error.line, error.column]).toEqual([1, 11]);
  });

  it('reports leftover tokens and lexer problems with their column', async () => {
    expect((await failure('PRINT(CALC { formula: "1 + 2 )" })')).message).toMatch(/^formula "1 \+ 2 \)", column 7: unexpected `\)`/);
    expect((await failure('PRINT(CALC { formula: "a & b", vars: { a: 1, b: 2 } })')).message).toMatch(/^formula "a & b", column 3: use AND instead of `&`/);
    expect((await failure('PRINT(CALC { formula: "a = 1", vars: { a: 1 } })')).message).toMatch(/^formula "a = 1", column 3: `=` is not an operator/);
  });

  it.each([
    ['"a" + 1', /column 1: a string is not allowed in a formula/],
    ['a AND b', /column 3: AND is not allowed in a formula/],
    ['a OR b', /column 3: OR is not allowed in a formula/],
    ['NOT a', /column 1: NOT is not allowed in a formula/],
    ['1 + LEN(a)', /column 5: the function call LEN\(\.\.\.\) is not allowed in a formula/],
    ['[1, 2]', /column 1: a list is not allowed in a formula/],
    ['1 + true', /column 5: `true` is not allowed in a formula/],
    ['null', /column 1: `null` is not allowed in a formula/],
    ['a.b', /column 3: member access is not allowed in a formula/],
    ['a[0]', /column 2: member access is not allowed in a formula/],
    ['CALL t {}', /column 1: CALL is not allowed in a formula/],
    ['CALC { formula: "1" }', /column 1: CALC is not allowed in a formula/],
  ])('refuses %s', async (formula, message) => {
    const error = await failure(`LET r = CALC { formula: ${JSON.stringify(formula)}, vars: { a: 1, b: 2 } }`);
    expect(error.kind).toBe('CalcError');
    expect(error.message).toMatch(message);
    expect([error.line, error.column]).toEqual([1, 9]);
  });

  it('keeps DivisionByZeroError, at the CALC node, naming the formula', async () => {
    const error = await failure('LET q = 1\n  LET r = CALC { formula: "a / (b - 1)", vars: { a: 1, b: 1 } }');
    expect(error.kind).toBe('DivisionByZeroError');
    expect(error.message).toMatch(/in CALC formula "a \/ \(b - 1\)" at column 3/);
    expect([error.line, error.column]).toEqual([2, 11]);
    expect((await failure('PRINT(CALC { formula: "a % 0", vars: { a: 1 } })')).kind).toBe('DivisionByZeroError');
  });

  it('raises TypeError for a non-number var', async () => {
    const error = await failure('PRINT(CALC { formula: "a + 1", vars: { a: "5" } })');
    expect(error.kind).toBe('TypeError');
    expect(error.message).toMatch(/in CALC formula "a \+ 1"/);
    expect([error.line, error.column]).toEqual([1, 7]);
  });

  it('checks its arguments', async () => {
    expect((await failure('PRINT(CALC { formula: 42 })')).message).toMatch(/^CALC needs formula: a string such as "price \* qty", got number 42/);
    expect((await failure('PRINT(CALC { vars: {} })')).message).toMatch(/got nothing/);
    expect((await failure('PRINT(CALC { formula: "1", vars: [1] })')).message).toMatch(/^CALC vars must be an object of names to numbers, got list of 1 item/);
    expect((await failure('PRINT(CALC { formula: "1", extra: 1 })')).message).toMatch(/^CALC does not take `extra`/);
    for (const source of ['PRINT(CALC { formula: 42 })', 'PRINT(CALC { formula: "1", vars: [1] })']) expect((await failure(source)).kind).toBe('CalcError');
  });

  it('refuses an empty or multi-line formula', async () => {
    expect((await failure('PRINT(CALC { formula: "" })')).message).toMatch(/the formula is empty/);
    expect((await failure('PRINT(CALC { formula: "  " })')).message).toMatch(/the formula is empty/);
    expect((await failure('PRINT(CALC { formula: "1 +\\n 2" })')).message).toMatch(/a formula is a single line/);
  });

  it('reports a cached bad formula at the position of each CALC', async () => {
    const first = await failure('PRINT(CALC { formula: "1 +" })');
    const second = await failure('\n\nLET x =  CALC { formula: "1 +" }');
    expect(first.kind).toBe('CalcError');
    expect([first.line, first.column]).toEqual([1, 7]);
    expect([second.line, second.column]).toEqual([3, 10]);
    expect(second.message).toBe(first.message);
  });
});
