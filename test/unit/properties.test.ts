// Property-based tests (fast-check): whatever the input, the interpreter ends in a result or a
// NuwaError, never another exception; and a few laws that must hold for every value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interpreter, NuwaError, parse, ToolRegistry } from '../../src/index.js';
import { equals, fromJson, toJson, toJsonText } from '../../src/values/values.js';

/** Words and symbols of the language, so random scripts get past the lexer and stress the parser. */
const VOCABULARY = [
  'LET', 'CALL', 'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'AND', 'OR', 'NOT', 'CALC',
  'true', 'false', 'null', 'x', 'y', 'items', 'echo', 'PRINT', 'LEN', 'FORMAT', 'KEYS', 'APPEND', 'ROUND', 'let',
  '=', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '.', ',', ':', '(', ')', '[', ']', '{', '}',
  '0', '1', '2.5', '1e3', '"a"', '"{x}"', "'q'", '"\\n"', '//c\n', '\n', '&&', ';',
];

function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  tools.register({
    name: 'echo',
    description: 'returns its value',
    parameters: [{ name: 'value', description: 'anything', type: 'any', required: false }],
    returns: 'any',
    execute: ({ value }) => value ?? null,
  });
  return tools;
}

async function outcome(source: string): Promise<'ok' | NuwaError> {
  const interpreter = new Interpreter(registry(), { print: () => {}, limits: { maxSteps: 10_000, timeoutMs: 2_000 } });
  try {
    await interpreter.run(source, { variables: { x: 3, y: 'text', items: [1, 2, 3] } });
    return 'ok';
  } catch (error) {
    if (error instanceof NuwaError) return error;
    throw error; // anything else fails the property
  }
}

describe('every input ends in a result or a NuwaError', () => {
  it('parse: arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (source) => {
        try {
          parse(source);
        } catch (error) {
          expect(error).toBeInstanceOf(NuwaError);
          const syntax = error as NuwaError;
          expect(syntax.kind).toBe('SyntaxError');
          for (const problem of syntax.errors ?? []) {
            expect(problem.line).toBeGreaterThanOrEqual(1);
            expect(problem.column).toBeGreaterThanOrEqual(1);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('run: random scripts made of the language\'s own tokens', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 40 }), async (words) => {
        const result = await outcome(words.join(' '));
        if (result !== 'ok') {
          expect(typeof result.kind).toBe('string');
          expect(result.message.length).toBeGreaterThan(0);
          // A script error has a position unless it concerns the run as a whole.
          if (result.kind !== 'LimitExceededError' && result.kind !== 'AbortedError') expect(result.line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('run: well-formed statements over random values', async () => {
    const literal = fc.oneof(
      fc.integer({ min: -5, max: 5 }).map(String),
      fc.constantFrom('"s"', 'true', 'false', 'null', '[1, "a"]', '{ k: 1 }', 'x', 'y', 'items', 'CALL echo { value: x }'),
    );
    const operator = fc.constantFrom('+', '-', '*', '/', '%', '==', '!=', '<', '>=', 'AND', 'OR');
    const expression = fc.tuple(literal, operator, literal).map(([a, op, b]) => `${a} ${op} ${b}`);
    const statement = fc.oneof(
      expression.map((e) => `LET r = ${e}`),
      expression.map((e) => `IF ${e} THEN PRINT(1) END`),
      literal.map((l) => `FOR v IN ${l} DO PRINT(v) END`),
      literal.map((l) => `PRINT(LEN(${l}))`),
      fc.tuple(literal, literal).map(([a, b]) => `PRINT(FORMAT("{a}", { a: ${a} }) == STR(${b}))`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(statement, { minLength: 1, maxLength: 6 }), async (statements) => {
        await outcome(statements.join('\n'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('arithmetic agrees with JavaScript', () => {
  // + - * and parentheses have the same precedence and associativity in both languages.
  const arithmetic: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.integer({ min: 0, max: 1000 }).map(String),
      fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*'), tie('expr')).map(([a, op, b]) => `${a} ${op} ${b}`),
      tie('expr').map((e) => `(${e})`),
      tie('expr').map((e) => `-(${e})`),
    ),
  })).expr;

  it('the value of a random expression is the value JavaScript computes', async () => {
    await fc.assert(
      fc.asyncProperty(arithmetic, async (expression) => {
        const expected = Function(`"use strict"; return (${expression});`)() as number;
        const output: string[] = [];
        const interpreter = new Interpreter(new ToolRegistry(), { print: (line) => output.push(line) });
        try {
          await interpreter.run(`PRINT(${expression})`);
          expect(output).toEqual([String(expected === 0 ? 0 : expected)]);
        } catch (error) {
          // Only overflow may stop it, and only when JavaScript's result is not finite either.
          expect((error as NuwaError).kind).toBe('TypeError');
          expect(Number.isFinite(expected)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('values', () => {
  const json = fc.jsonValue({ maxDepth: 4 });

  it('JSON → Nuwa → JSON is the identity (up to -0)', () => {
    fc.assert(
      fc.property(json, (value) => {
        // Compared as JSON text: toEqual tells -0 from 0, and JSON (like Nuwa's string form) does not.
        expect(JSON.stringify(toJson(fromJson(value)))).toBe(JSON.stringify(value));
      }),
    );
  });

  it('the compact JSON text of a value parses back to the same value', () => {
    fc.assert(
      fc.property(json, (value) => {
        const nuwa = fromJson(value);
        expect(equals(fromJson(JSON.parse(toJsonText(nuwa))), nuwa)).toBe(true);
      }),
    );
  });

  it('equality is reflexive and symmetric, and ignores key order', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        const x = fromJson(a);
        const y = fromJson(b);
        expect(equals(x, fromJson(structuredClone(a)))).toBe(true);
        expect(equals(x, y)).toBe(equals(y, x));
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(equals(fromJson(object), fromJson(reversed))).toBe(true);
      }),
    );
  });
});
