// Unit tests for src/syntax/parse.ts: syntax errors (all of them, in order, with positions and
// hints), deep but legal nesting, text full of other languages' habits, and parseProblems /
// syntaxError. The AST itself: parse.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as A from '../../../src/syntax/ast.js';
import { NuwaError } from '../../../src/errors.js';
import { parse, parseProblems, syntaxError } from '../../../src/syntax/parse.js';
import { expression, statement, syntaxFailure } from '../../support/parse-shapes.js';

describe('parse: syntax errors', () => {
  it('refuses duplicate keys at the second key', () => {
    const error = syntaxFailure('LET a = {x: 1, "x": 2}');
    expect(error.kind).toBe('SyntaxError');
    expect([error.line, error.column]).toEqual([1, 16]);
    expect(error.message).toMatch(/^duplicate key "x" in object literal/);
  });

  it('refuses duplicate keys in CALL arguments', () => {
    const error = syntaxFailure('CALL t {\n  a: 1,\n  a: 2\n}');
    expect([error.line, error.column]).toEqual([3, 3]);
    expect(error.message).toMatch(/duplicate key "a"/);
  });

  it('accepts the same key in two different objects', () => {
    expect(() => parse('LET a = [{x: 1}, {x: 2, y: {x: 3}}]')).not.toThrow();
  });

  it('refuses `=` in an expression and says to use ==', () => {
    const error = syntaxFailure('IF x = 1 THEN END');
    expect(error.kind).toBe('SyntaxError');
    expect([error.line, error.column]).toEqual([1, 6]);
    expect(error.message).toMatch(/`=` is not an operator: use `==` to compare/);
    expect(error.errors).toHaveLength(1);
  });

  it('refuses `=` used as an assignment without LET, and says to write LET', () => {
    const error = syntaxFailure('x = 1');
    expect(error.errors).toEqual([{ line: 1, column: 1, message: 'to set a variable, write LET x = ...' }]);
  });

  it('reports every syntax error of a script in source order, with positions', () => {
    const error = syntaxFailure('LET = 1\nLET b 2\nFOR IN');
    expect(error.kind).toBe('SyntaxError');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([[1, 5], [2, 7], [3, 5], [3, 7]]);
    expect(error.errors![0]!.message).toBe('expected a variable name after LET but found `=`');
    expect(error.errors![1]!.message).toBe('expected `=` but found `2`');
    expect(error.errors![2]!.message).toBe('expected a loop variable name after FOR but found `IN`');
    expect(error.errors![3]!.message).toBe('the FOR opened on line 3 has no END');
    expect(error.message).toBe('expected a variable name after LET but found `=` (and 3 more syntax errors)');
    expect([error.line, error.column]).toEqual([1, 5]);
  });

  it('merges lexer and parser problems in source order', () => {
    const error = syntaxFailure('LET a = "x\\qy"\nLET b = \'z\'\nLET = 3');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([[1, 11], [2, 9], [3, 5]]);
    expect(error.errors![0]!.message).toMatch(/^invalid escape/);
    expect(error.errors![1]!.message).toMatch(/double quotes/);
  });

  it('reports a stray END and keeps parsing: a later error still shows', () => {
    const error = syntaxFailure('PRINT(1)\nEND\nLET = 2');
    expect(error.errors).toHaveLength(2);
    expect(error.errors![0]).toEqual({ line: 2, column: 1, message: 'unexpected `END`: no IF or FOR is open here; remove it' });
    expect(error.errors![1]).toMatchObject({ line: 3, column: 5 });
    expect(error.message).toMatch(/\(and 1 more syntax error\)$/);
  });

  it('reports a stray `)` and keeps parsing', () => {
    const error = syntaxFailure('LET a = 1 ) LET b = ');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([[1, 11], [1, 20]]);
    expect(error.errors![0]!.message).toBe('unexpected `)`: no `(` is open here');
  });

  it('hints that keywords are uppercase for lowercase `let`', () => {
    const error = syntaxFailure('let x = 1');
    expect(error.kind).toBe('SyntaxError');
    expect(error.message).toMatch(/uppercase/);
    expect(error.message).toMatch(/`LET`/);
  });

  it('hints that keywords are uppercase for lowercase `if` and `for`', () => {
    expect(syntaxFailure('if x THEN END').message).toMatch(/keywords are uppercase: write `IF`/);
    expect(syntaxFailure('for x IN y DO END').message).toMatch(/keywords are uppercase: write `FOR`/);
  });

  it('reports a comprehension written with two FORs or two IFs once, and the rest of the script', () => {
    const error = syntaxFailure('LET a = [x FOR x IN xs FOR y IN ys]\nLET b = [x FOR x IN xs IF x > 1 IF x < 5]\nLET c = ');
    expect(error.errors!.map((e) => [e.line, e.column, e.message.slice(0, 40)])).toEqual([
      [1, 24, 'a list comprehension has one FOR: nest t'],
      [2, 33, 'a list comprehension has one IF: join th'],
      [3, 8, 'expected an expression (a value, a name,'],
    ]);
  });

  it('hints that keywords are uppercase in a comprehension written in lowercase, once per word', () => {
    const error = syntaxFailure('LET a = [x for x in xs if x > 1]');
    expect(error.errors!.map((e) => [e.column, e.message])).toEqual([
      [12, 'keywords are uppercase: write `FOR`, as in [x FOR x IN xs IF x > 1]'],
      [18, 'keywords are uppercase: write `IN`'],
      [24, 'keywords are uppercase: write `IF`'],
    ]);
  });

  it('says what a comprehension expects after FOR', () => {
    const first = (source: string) => syntaxFailure(source).errors![0]!.message;
    expect(first('LET a = [x FOR 1 IN xs]')).toBe('expected a variable name after FOR ([expression FOR x IN list]) but found `1`');
    expect(first('LET a = [x FOR x OF xs]')).toBe('expected IN after the variable ([expression FOR x IN list]) but found `OF`');
    expect(first('LET a = [FOR x IN xs]')).toBe('a list comprehension starts with the value to make of each item: [x * 2 FOR x IN xs]');
  });

  it('leaves the FOR after a forgotten `]` a FOR loop: only the bracket is reported', () => {
    const error = syntaxFailure('LET a = [1, 2\nFOR i IN a DO\n  PRINT(i)\nEND');
    expect(error.errors!.map((e) => [e.line, e.column, e.message])).toEqual([[1, 14, '`[` at column 9 is not closed: add `]` at the end of the line: write LET a = [1, 2]']]);
  });

  it('hints at ELSE IF for ELSEIF', () => {
    expect(syntaxFailure('IF a THEN ELSEIF b THEN END').message).toMatch(/there is no ELSEIF/);
  });

  it('points a missing END at the end of the script just after the last token', () => {
    const error = syntaxFailure('IF true THEN\n  PRINT(1)\n\n');
    expect(error.errors).toEqual([{ line: 2, column: 11, message: 'the IF opened on line 1 has no END' }]);
  });

  it('points a missing closing bracket after the last token', () => {
    expect(syntaxFailure('LET x = [1, 2').errors).toEqual([{ line: 1, column: 14, message: 'expected `]` but found the end of the script' }]);
    expect(syntaxFailure('(1').errors).toEqual([{ line: 1, column: 3, message: 'expected `)` but found the end of the script' }]);
  });

  it('reports a dot without a name', () => {
    expect(syntaxFailure('x.').errors).toEqual([{ line: 1, column: 3, message: 'expected a name but found the end of the script' }]);
  });

  it('refuses keywords as names', () => {
    expect(syntaxFailure('LET END = 1').errors![0]).toMatchObject({ line: 1, column: 5, message: 'expected a variable name after LET but found `END`' });
  });

  it('refuses a non-string script with a SyntaxError instead of crashing', () => {
    for (const [input, name] of [[42, 'number'], [null, 'null'], [undefined, 'undefined'], [{}, 'object']] as const) {
      const error = syntaxFailure(input);
      expect(error).toBeInstanceOf(NuwaError);
      expect(error.kind).toBe('SyntaxError');
      expect(error.message).toBe(`a script must be text, not ${name}`);
      expect([error.line, error.column]).toEqual([1, 1]);
    }
  });

  it('puts the fileName option on the error', () => {
    const error = syntaxFailure('LET', { fileName: 'plan.nuwa' });
    expect(error.fileName).toBe('plan.nuwa');
    expect(error.toJSON()).toMatchObject({ kind: 'SyntaxError', fileName: 'plan.nuwa', line: 1, column: 4 });
  });

  it('keeps the error list bounded for hopeless text', () => {
    const error = syntaxFailure('PRINT(1) )\n'.repeat(80));
    expect(error.errors!.length).toBeLessThanOrEqual(50);
    expect(error.errors!.length).toBeGreaterThan(10);
    expect(error.errors!.slice(0, 3)).toEqual([1, 2, 3].map((line) => ({ line, column: 10, message: 'unexpected `)`: no `(` is open here' })));
  });
});

describe('parse: deep nesting', () => {
  it('parses 999 nested parentheses to the inner expression (parentheses leave no node)', () => {
    const node = statement(`LET x = ${'('.repeat(999)}1 + 2${')'.repeat(999)}`) as A.LetStatement;
    expect(node.value).toEqual({
      type: 'Binary',
      operator: '+',
      left: { type: 'Literal', value: 1, line: 1, column: 9 + 999, hasCall: false },
      right: { type: 'Literal', value: 2, line: 1, column: 9 + 999 + 4, hasCall: false },
      line: 1,
      column: 9 + 999 + 2,
      hasCall: false,
    });
  });

  it('parses exactly 1,000 nested parentheses', () => {
    expect(expression(`${'('.repeat(1000)}x${')'.repeat(1000)}`)).toEqual({ type: 'Variable', name: 'x', line: 1, column: 1001, hasCall: false });
  });

  it('parses 999 nested lists to 999 List nodes', () => {
    const node = statement(`LET x = ${'['.repeat(999)}7${']'.repeat(999)}`) as A.LetStatement;
    let current: A.Expression = node.value;
    let depth = 0;
    while (current.type === 'List') {
      expect(current.column).toBe(9 + depth);
      expect(current.elements).toHaveLength(1);
      current = current.elements[0]!;
      depth++;
    }
    expect(depth).toBe(999);
    expect(current).toEqual({ type: 'Literal', value: 7, line: 1, column: 9 + 999, hasCall: false });
  });

  it('parses 500 nested IF blocks', () => {
    const program = parse(`${'IF true THEN\n'.repeat(500)}CALL t {}\n${'END\n'.repeat(500)}`);
    let node: A.Statement = program.body[0]!;
    let depth = 0;
    while (node.type === 'If') {
      expect([node.line, node.column, node.hasCall, node.alternate]).toEqual([depth + 1, 1, true, null]);
      expect(node.consequent).toHaveLength(1);
      node = node.consequent[0]!;
      depth++;
    }
    expect(depth).toBe(500);
    expect(node).toMatchObject({ type: 'ExpressionStatement', line: 501, column: 1, hasCall: true, expression: { type: 'Call', tool: 't' } });
    expect(program.hasCall).toBe(true);
  });

  it('parses 1,000 prefix operators', () => {
    let node = expression(`${'NOT '.repeat(1000)}true`);
    let count = 0;
    while (node.type === 'Unary') {
      expect([node.operator, node.column]).toEqual(['NOT', 1 + 4 * count]);
      node = node.operand;
      count++;
    }
    expect(count).toBe(1000);
    expect(node).toMatchObject({ type: 'Literal', value: true, column: 4001 });
  });

  it('reports syntax errors found in deeply nested text, with positions', () => {
    const error = syntaxFailure(`LET x = ${'('.repeat(100)}1 +${')'.repeat(100)}\nLET = 1`, { fileName: 'deep.nuwa' });
    expect(error.kind).toBe('SyntaxError');
    expect(error.fileName).toBe('deep.nuwa');
    expect(error.errors![0]).toMatchObject({ line: 1, column: 9 + 100 + 3, message: expect.stringMatching(/but found `\)`$/) });
    expect(error.errors!.at(-1)).toMatchObject({ line: 2, column: 5 });
  });

  it('refuses 1,001 nested parentheses with a SyntaxError at the offending token', () => {
    const error = syntaxFailure(`LET x = ${'('.repeat(1001)}1${')'.repeat(1001)}`);
    expect(error.kind).toBe('SyntaxError');
    expect(error.errors).toHaveLength(1);
    expect([error.line, error.column]).toEqual([1, 9 + 1000]);
    expect(error.message).toMatch(/^nesting deeper than 1000 levels/);
  });

  it('refuses 1,001 nested IF blocks and 1,001 prefix operators', () => {
    const blocks = syntaxFailure(`${'IF true THEN '.repeat(1001)}${'END '.repeat(1001)}`);
    expect([blocks.kind, blocks.line, blocks.column]).toEqual(['SyntaxError', 1, 1 + 13 * 1000]);
    const prefixes = syntaxFailure(`LET x = ${'-'.repeat(1001)}1`);
    expect([prefixes.kind, prefixes.line, prefixes.column]).toEqual(['SyntaxError', 1, 9 + 1000]);
  });

  it('parses a chain of 5,000 `+` terms, left-associative', () => {
    const source = `LET x = ${Array.from({ length: 5000 }, (_, i) => String(i)).join(' + ')}`;
    const node = statement(source) as A.LetStatement;
    let current: A.Expression = node.value;
    let operators = 0;
    while (current.type === 'Binary') {
      expect(current.operator).toBe('+');
      expect(current.right).toMatchObject({ type: 'Literal', value: 4999 - operators });
      current = current.left;
      operators++;
    }
    expect(operators).toBe(4999);
    expect(current).toMatchObject({ type: 'Literal', value: 0, column: 9 });
  });
});

describe('parse: text full of other languages\' habits', () => {
  it('always ends in a Program or positioned, worded problems, never a crash', () => {
    const word = fc.constantFrom(
      'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'LET', 'x', 'y', '=', '==', '1', '.5', '"s"', "'q'", '(', ')', '[', ']', '{', '}', ':', ',',
      '+', '-', 'NOT', '!', '&&', '||', 'CALL', 't', 'CALC', 'ELSEIF', 'elif', 'WHILE', 'while', 'RETURN', 'BREAK', 'if', 'then', 'else', 'end',
      'for', 'in', 'do', 'let', 'and', 'or', 'not', 'call', '.', '\n', '\n  ', 'print', 'PRINT', 'True', 'None', '+=', '<>', '===', '++',
      '#c\n', '/* c */', '```', '`t`', 'f"x"', 'x.y', 'LEN(', 'get_weather', 'END IF', 'ENDIF', 'x = 2',
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 80 }), (words) => {
        const outcome = parseProblems(words.join(' '));
        if ('program' in outcome) return;
        expect(outcome.problems.length).toBeGreaterThan(0);
        for (const problem of outcome.problems) {
          expect(problem.line).toBeGreaterThanOrEqual(1);
          expect(problem.column).toBeGreaterThanOrEqual(1);
          expect(problem.message).not.toMatch(/undefined|\[object|NaN|function \w*\(/);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('parseProblems and syntaxError', () => {
  it('returns problems instead of throwing', () => {
    expect(parseProblems('LET')).toEqual({ problems: [{ line: 1, column: 4, message: 'expected a variable name after LET but found the end of the script' }], problemCount: 1 });
    expect(parseProblems('LET a = 1')).toMatchObject({ program: { type: 'Program', body: [{ type: 'Let', name: 'a' }] } });
  });

  it('builds one SyntaxError from a list of problems', () => {
    const problems = [
      { line: 2, column: 3, message: 'first' },
      { line: 4, column: 1, message: 'second' },
      { line: 5, column: 1, message: 'third' },
    ];
    const error = syntaxError(problems, 'f.nuwa');
    expect(error.kind).toBe('SyntaxError');
    expect(error.message).toBe('first (and 2 more syntax errors)');
    expect([error.line, error.column, error.fileName]).toEqual([2, 3, 'f.nuwa']);
    expect(error.errors).toBe(problems);
    expect(syntaxError([problems[0]!]).message).toBe('first');
    expect(syntaxError(problems.slice(0, 2)).message).toBe('first (and 1 more syntax error)');
  });
});
