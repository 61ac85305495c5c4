// Unit tests for src/syntax/stage.ts: deep text is parsed bottom-up in shallow stages, on the
// caller's stack, into exactly the AST a direct parse gives; every kind of nesting reaches the
// 1,000 levels LANGUAGE.md §1 allows, and runs; errors deep inside keep their positions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interpreter, parse, ToolRegistry } from '../../../src/index.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { parseTokens } from '../../../src/syntax/parser.js';
import { parseScriptTokens, STAGE_HEIGHT } from '../../../src/syntax/stage.js';
import { balanceBlocks } from '../../../src/syntax/blocks.js';
import { ProblemList } from '../../../src/syntax/problems.js';

/** Tokens as parse() hands them to the grammar. */
function tokensOf(source: string) {
  const lexed = tokenize(source);
  expect(lexed.problems).toEqual([]);
  return balanceBlocks(lexed.tokens, new ProblemList());
}

// Random valid scripts, rendered as text.
const name = fc.constantFrom('a', 'b', 'items', 'total');
const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: 99 }).map(String),
    name,
    fc.constantFrom('"s"', 'true', 'null'),
    fc.tuple(tie('e'), fc.constantFrom('+', '*', '==', 'AND', '<'), tie('e')).map(([l, op, r]) => `${l} ${op} ${r}`),
    fc.tuple(fc.constantFrom('-', 'NOT '), tie('e')).map(([op, e]) => `${op}${e}`),
    tie('e').map((e) => `(${e})`),
    fc.array(tie('e'), { maxLength: 3 }).map((es) => `[${es.join(', ')}]`),
    fc.tuple(tie('e'), name, tie('e'), fc.option(tie('e'))).map(([e, n, l, c]) => `[${e} FOR ${n} IN ${l}${c === null ? '' : ` IF ${c}`}]`),
    fc.array(fc.tuple(name, tie('e')), { maxLength: 3 }).map((ps) => `{ ${[...new Map(ps)].map(([k, v]) => `${k}: ${v}`).join(', ')} }`),
    fc.array(tie('e'), { maxLength: 3 }).map((es) => `LEN(${es.join(', ')})`),
    fc.tuple(tie('e'), tie('e')).map(([o, i]) => `(${o})[${i}]`),
    tie('e').map((o) => `(${o}).key`),
    fc.array(fc.tuple(name, tie('e')), { maxLength: 2 }).map((ps) => `CALL tool.run { ${[...new Map(ps)].map(([k, v]) => `${k}: ${v}`).join(', ')} }`),
  ),
})).e;
const statements: fc.Arbitrary<string> = fc.letrec<{ s: string }>((tie) => ({
  s: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(name, expression).map(([n, e]) => `LET ${n} = ${e}`),
    expression.map((e) => `PRINT(${e})`),
    fc.tuple(expression, fc.array(tie('s'), { maxLength: 3 }), fc.option(fc.array(tie('s'), { maxLength: 2 }))).map(
      ([c, then, otherwise]) => `IF ${c} THEN\n${then.join('\n')}\n${otherwise === null ? '' : `ELSE\n${otherwise.join('\n')}\n`}END`,
    ),
    fc.tuple(name, expression, fc.array(tie('s'), { maxLength: 3 })).map(([n, e, body]) => `FOR ${n} IN ${e} DO\n${body.join('\n')}\nEND`),
  ),
})).s;
const script = fc.array(statements, { minLength: 1, maxLength: 4 }).map((ss) => ss.join('\n'));

describe('parseScriptTokens', () => {
  it('gives the AST of a direct parse, however low the stage height', () => {
    fc.assert(
      fc.property(script, fc.integer({ min: 1, max: 4 }), (source, height) => {
        const tokens = tokensOf(source);
        const direct = parseTokens(tokens);
        expect(direct.problems).toEqual([]);
        const staged = parseScriptTokens(tokens, Infinity, height);
        expect(staged.problems).toEqual([]);
        expect(staged.body).toEqual(direct.body);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on broken text, staged or not: both report problems', () => {
    const word = fc.constantFrom(
      'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'LET', 'x', '=', '1', '"s"', '(', ')', '[', ']', '{', '}', ':', ',', '+', 'NOT',
      'CALL', 't', 'ELSEIF', 'WHILE', 'RETURN', 'if', 'then', 'end', '&&', '.', '\n', 'print', 'True',
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), fc.integer({ min: 1, max: 3 }), (words, height) => {
        const lexed = tokenize(words.join(' '));
        const tokens = balanceBlocks(lexed.tokens, new ProblemList());
        const direct = parseTokens(tokens);
        const staged = parseScriptTokens(tokens, Infinity, height);
        // Where the direct parse finds nothing wrong, neither does the staged one, and they agree.
        if (direct.problems.length === 0 && lexed.problems.length === 0) expect(staged).toEqual(direct);
        else expect(staged.problems.length + lexed.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('parses directly below the stage height', () => {
    expect(STAGE_HEIGHT).toBeGreaterThanOrEqual(20);
    const tokens = tokensOf('LET x = [[1]]');
    expect(parseScriptTokens(tokens, 2)).toEqual(parseTokens(tokens));
  });
});

/** 1,000 levels of each kind of nesting, with what running the script prints. */
const n = 1000;
const DEEP: Array<[string, string, string]> = [
  ['parentheses', `PRINT(${'('.repeat(n - 1)}7${')'.repeat(n - 1)})`, '7'],
  ['lists', `LET x = ${'['.repeat(n)}${']'.repeat(n)}\nPRINT(LEN(x))`, '1'],
  ['objects', `LET x = ${'{ a: '.repeat(n)}1${' }'.repeat(n)}\nPRINT(KEYS(x))`, '["a"]'],
  ['function calls', `PRINT(${'ABS('.repeat(n - 1)}2${')'.repeat(n - 1)})`, '2'],
  ['indexes', `LET x = [0]\nPRINT(${'x['.repeat(n - 1)}0${']'.repeat(n - 1)})`, '0'],
  // (the PRINT inside is the thousandth level)
  ['IF blocks', `${'IF true THEN\n'.repeat(n - 1)}PRINT("in")\n${'END\n'.repeat(n - 1)}`, 'in'],
  ['ELSE blocks', `${'IF false THEN\nELSE\n'.repeat(n - 1)}PRINT("else")\n${'END\n'.repeat(n - 1)}`, 'else'],
  ['FOR blocks', `${'FOR i IN [1] DO\n'.repeat(n - 1)}PRINT(i)\n${'END\n'.repeat(n - 1)}`, '1'],
  ['list comprehensions', `LET x = ${'['.repeat(n - 1)}7${' FOR i IN [1]]'.repeat(n - 1)}\nPRINT(LEN(x))`, '1'],
  ['CALL arguments', `PRINT(${'CALL echo { value: '.repeat(n - 1)}5${' }'.repeat(n - 1)})`, '5'],
  // 500 blocks (IF and FOR by turns) around PRINT(LEN([LEN([... 1 ...])])): 1,000 levels in all
  ['a mix of everything', `${'IF true THEN\nFOR i IN [1] DO\n'.repeat(n / 4)}PRINT(${'LEN([{ a: '.repeat(166)}1${' }])'.repeat(166)})\n${'END\nEND\n'.repeat(n / 4)}`, '1'],
];

function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  tools.register({
    name: 'echo',
    description: 'returns its value',
    parameters: [{ name: 'value', type: 'any', description: 'v' }],
    returns: 'any',
    execute: async ({ value }) => value ?? null,
  });
  return tools;
}

describe('1,000 levels of every kind of nesting', () => {
  it.each(DEEP)('parses and runs %s', async (_kind, source, printed) => {
    expect(parse(source).body.length).toBeGreaterThan(0);
    const output: string[] = [];
    await new Interpreter(registry(), { print: (line) => output.push(line), limits: { maxSteps: 1e6, maxToolCalls: 2000 } }).run(source);
    expect(output).toEqual([printed]);
  });

  it('builds the same tree as a direct parse would: 1,000 nested lists are 1,000 List nodes', () => {
    const program = parse(`LET x = ${'['.repeat(n)}${']'.repeat(n)}`);
    let node = (program.body[0] as { value: { type: string; elements: unknown[]; column: number } }).value;
    let depth = 1;
    while (node.elements.length === 1) {
      node = node.elements[0] as typeof node;
      depth++;
    }
    expect([depth, node.type, node.column]).toEqual([n, 'List', 9 + n - 1]);
  });

  it('reports errors deep inside with their positions, and nothing else', () => {
    const bad = `LET x = ${'('.repeat(500)}1 + * 2${')'.repeat(500)}\nLET y = 'q'`;
    expect(() => parse(bad)).toThrow();
    const errors = (() => {
      try {
        parse(bad);
      } catch (error) {
        return (error as { errors: Array<{ line: number; column: number; message: string }> }).errors;
      }
    })()!;
    expect(errors.map((e) => [e.line, e.column])).toEqual([[1, 9 + 500 + 4], [2, 9]]);
    expect(errors[0]!.message).toMatch(/^expected an expression .* but found `\*`/);
  });

  it('reports brackets left open deep down at the end of the text', () => {
    const error = (() => {
      try {
        parse(`LET x = ${'['.repeat(600)}1`);
      } catch (e) {
        return e as { errors: Array<{ line: number; column: number; message: string }> };
      }
    })()!;
    expect(error.errors[0]).toMatchObject({ line: 1, column: 9 + 600 + 1, message: 'expected `]` but found the end of the script' });
  });

  it('reports a missing END deep down once, naming its block', () => {
    const source = `${'IF true THEN\n'.repeat(300)}PRINT(1)\n${'END\n'.repeat(299)}`;
    const error = (() => {
      try {
        parse(source);
      } catch (e) {
        return e as { errors: Array<{ message: string }> };
      }
    })()!;
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]!.message).toMatch(/^the IF opened on line \d+ has no END/);
  });
});
