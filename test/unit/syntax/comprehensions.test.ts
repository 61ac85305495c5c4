// Unit tests for src/syntax/comprehensions.ts: which FOR and IF are a list comprehension's, decided
// before the passes that match blocks with their END, and what those passes then make of them.
import { describe, expect, it } from 'vitest';
import { markComprehensions } from '../../../src/syntax/comprehensions.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { openAtEnd } from '../../../src/syntax/incomplete.js';
import { tokensAsWritten } from '../../../src/syntax/lexer.js';
import * as T from '../../../src/syntax/tokens.js';

/** The FOR and IF tokens of `source` after the walk, as `FOR`/`IF` (a statement's) or `[FOR]`/`[IF]` (a comprehension's). */
function marked(source: string): string[] {
  const tokens = tokensAsWritten(source);
  markComprehensions(tokens);
  return tokens
    .filter((t) => [T.For, T.If, T.ComprehensionFor, T.ComprehensionIf].includes(t.tokenType))
    .map((t) => (t.tokenType === T.ComprehensionFor || t.tokenType === T.ComprehensionIf ? `[${t.image}]` : t.image));
}

describe('markComprehensions', () => {
  it('takes the FOR and IF directly inside closed square brackets', () => {
    expect(marked('LET a = [x FOR x IN xs IF x > 1]')).toEqual(['[FOR]', '[IF]']);
    expect(marked('LET a = [x FOR x IN xs]')).toEqual(['[FOR]']);
  });

  it('takes those of nested comprehensions, in the element and in the list', () => {
    expect(marked('[[i FOR j IN xs IF j] FOR i IN [k FOR k IN ys] IF i]')).toEqual(['[FOR]', '[IF]', '[FOR]', '[FOR]', '[IF]']);
  });

  it('leaves the FOR and IF of statements, around and after comprehensions', () => {
    expect(marked('FOR i IN [x FOR x IN xs] DO\n  IF i THEN PRINT(i) END\nEND\nIF a THEN END')).toEqual(['FOR', '[FOR]', 'IF', 'IF']);
  });

  it('leaves a FOR or IF inside parentheses or braces within the brackets, and an IF before any FOR', () => {
    expect(marked('[f(x FOR x IN xs)]')).toEqual(['FOR']);
    expect(marked('[{ a: IF }]')).toEqual(['IF']);
    expect(marked('[IF x THEN 1 END]')).toEqual(['IF']);
  });

  it('leaves the FOR of brackets that never close, or close with another bracket', () => {
    expect(marked('LET a = [1, 2\nFOR i IN a DO PRINT(i) END')).toEqual(['FOR']);
    expect(marked('LET a = [x FOR x IN xs)')).toEqual(['FOR']);
    expect(marked('LET a = [1, 2\nFOR i IN a DO PRINT([j FOR j IN i]) END')).toEqual(['FOR', '[FOR]']);
  });
});

describe('markComprehensions on unfinished text', () => {
  it('takes the FOR and IF of a `[` still open at the end, as a REPL entry being typed has them', () => {
    const tokens = tokensAsWritten('LET ys = [\n  x FOR x IN xs IF x');
    markComprehensions(tokens, true);
    expect(tokens.filter((t) => t.tokenType === T.ComprehensionFor || t.tokenType === T.ComprehensionIf)).toHaveLength(2);
    expect(marked('LET ys = [\n  x FOR x IN xs IF x')).toEqual(['FOR', 'IF']);
  });
});

describe('the passes after it', () => {
  it('see no block in a comprehension: nothing is left open, and the nesting is that of the brackets', () => {
    expect(openAtEnd('LET a = [x FOR x IN xs IF x > 1]')).toEqual({ blocks: 0, brackets: 0, string: false });
    expect(openAtEnd('FOR i IN [x FOR x IN xs] DO')).toEqual({ blocks: 1, brackets: 0, string: false });
    expect(openAtEnd('LET ys = [x FOR x IN xs')).toEqual({ blocks: 0, brackets: 1, string: false });
    expect(tokenize('LET a = [[x FOR x IN xs] FOR y IN ys]').maxNesting).toBe(2);
    // a thousand comprehensions one after the other nest no deeper than one
    const many = tokenize(Array.from({ length: 1000 }, (_, i) => `LET a${i} = [x FOR x IN xs IF x]`).join('\n'));
    expect([many.problems, many.maxNesting]).toEqual([[], 1]);
  });
});
