// Unit tests for src/syntax/parser.ts: tokens → statements (parseTokens) with recovery past stray
// tokens, and the single-expression entry point used by CALC formulas (parseExpressionTokens).
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/syntax/lexer.js';
import { parseExpressionTokens, parseTokens } from '../../../src/syntax/parser.js';

const tokens = (source: string) => tokenize(source).tokens;

describe('parseTokens', () => {
  it('parses a token stream into statements with no problems', () => {
    const { body, problems } = parseTokens(tokens('LET a = 1\nPRINT(a)'));
    expect(problems).toEqual([]);
    expect(body.map((s) => [s.type, s.line, s.column])).toEqual([['Let', 1, 1], ['ExpressionStatement', 2, 1]]);
  });

  it('returns no statements for no tokens', () => {
    expect(parseTokens([])).toEqual({ body: [], comprehensions: 0, problems: [], notes: [], noteRepairs: [] });
  });

  it('counts the list comprehensions it builds, nested and staged ones too', () => {
    expect(parseTokens(tokenize('LET a = [[x FOR x IN y] FOR y IN z]\nPRINT([1, 2])').tokens).comprehensions).toBe(2);
    expect(parseTokens(tokenize('LET a = [1]').tokens).comprehensions).toBe(0);
  });

  it('reports a leftover token and resumes after it', () => {
    const { problems } = parseTokens(tokens('PRINT(1) ) PRINT(2) END LET'));
    expect(problems).toEqual([
      { line: 1, column: 10, message: 'unexpected `)`: no `(` is open here' },
      { line: 1, column: 21, message: 'unexpected `END`: there is no open IF or FOR for this `END` to close' },
      { line: 1, column: 28, message: 'expected a variable name after LET but found the end of the script' },
    ]);
  });

  it('explains stray THEN, ELSE, DO, ] and }', () => {
    const messages = (source: string) => parseTokens(tokens(source)).problems.map((p) => p.message);
    expect(messages('THEN')).toEqual(['unexpected `THEN`: `THEN` belongs after the condition of an IF']);
    expect(messages('ELSE')).toEqual(['unexpected `ELSE`: `ELSE` belongs inside an IF ... END']);
    expect(messages('DO')).toEqual(['unexpected `DO`: `DO` belongs after FOR x IN list']);
    expect(messages(']')).toEqual(['unexpected `]`: no `[` is open here']);
    expect(messages('}')).toEqual(['unexpected `}`: no `{` is open here']);
  });

  it('reports an unexpected token that starts no statement', () => {
    expect(parseTokens(tokens(':')).problems).toEqual([{ line: 1, column: 1, message: 'unexpected `:`: expected a statement (LET, IF, FOR, CALL or an expression)' }]);
  });

  it('parses what the mistakes pass recognised as the structure the author meant, with no problem of its own', () => {
    for (const source of ['let x = 1', 'WHILE x DO END', 'IF a THEN ELSEIF b THEN PRINT(1) END', 'if a then PRINT(1) end', 'RETURN x', 'FOR k, v IN o DO END']) {
      const { body } = parseTokens(tokens(source));
      expect(body.length, source).toBe(1);
    }
    expect(parseTokens(tokens('let x = 1')).body[0]).toMatchObject({ type: 'Let', name: 'x' });
    expect(parseTokens(tokens('if a then PRINT(1) end')).body[0]).toMatchObject({ type: 'If', condition: { name: 'a' } });
  });

  it('adds a name hint to an error next to a name from another language', () => {
    const { problems } = parseTokens(tokens('LET x = [1 ELSEIF]'));
    expect(problems[0]).toEqual({ line: 1, column: 12, message: 'expected `]` but found `ELSEIF`: there is no ELSEIF: write ELSE IF ... END, each IF with its own END' });
  });

  it('collects certain run-time mistakes in valid syntax as notes', () => {
    const { problems, notes } = parseTokens(tokens('print(1)\nLET n = len([1])\nPRINT(LEN([1]))'));
    expect(problems).toEqual([]);
    expect(notes.map((n) => [n.line, n.column])).toEqual([[1, 1], [2, 9]]);
    expect(notes[0]!.message).toMatch(/^there is no function `print`: built-in names are uppercase: write `PRINT`/);
  });

  it('is reusable: a failed parse does not leak problems into the next one', () => {
    expect(parseTokens(tokens('LET = 1')).problems).toHaveLength(1);
    expect(parseTokens(tokens('LET b = {a: 1}')).problems).toEqual([]);
    expect(parseTokens(tokens('LET c = {a: 1, a: 2}')).problems).toHaveLength(1);
    expect(parseTokens(tokens('LET d = 2')).problems).toEqual([]);
  });
});

describe('parseExpressionTokens', () => {
  it('parses one expression', () => {
    const { expression, problems } = parseExpressionTokens(tokens('price * (1 + rate)'));
    expect(problems).toEqual([]);
    expect(expression).toMatchObject({
      type: 'Binary',
      operator: '*',
      column: 7,
      left: { type: 'Variable', name: 'price', column: 1 },
      right: { type: 'Binary', operator: '+', column: 12 },
    });
  });

  it('reports leftover tokens', () => {
    expect(parseExpressionTokens(tokens('1 + 2 )')).problems).toEqual([{ line: 1, column: 7, message: 'unexpected `)`: no `(` is open here' }]);
    expect(parseExpressionTokens(tokens('a b')).problems).toEqual([{ line: 1, column: 3, message: 'unexpected `b`: expected a statement (LET, IF, FOR, CALL or an expression)' }]);
  });

  it('reports a missing operand after the last token', () => {
    const { problems } = parseExpressionTokens(tokens('a +'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, column: 4 });
    expect(problems[0]!.message).toMatch(/^expected an expression .* but found the end of the script$/);
  });

  it('reports `=` as an operator', () => {
    const { problems } = parseExpressionTokens(tokenize('a = 1', { expression: true }).tokens);
    expect(problems).toEqual([{ line: 1, column: 3, message: '`=` is not an operator: use `==` to compare, or LET name = value to assign' }]);
  });
});
