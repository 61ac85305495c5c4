// Unit tests for src/syntax/incomplete.ts: what a piece of text leaves open at its end, for the REPL
// to tell an unfinished entry from a wrong one.
import { describe, expect, it } from 'vitest';
import { openAtEnd } from '../../../src/syntax/incomplete.js';

describe('openAtEnd', () => {
  it('finds nothing open in complete text, right or wrong', () => {
    for (const source of ['LET a = 1', 'IF a THEN PRINT(1) END', 'PRINT([1, (2)])', 'LET s = "a // b"', 'LET a = )', '']) {
      expect(openAtEnd(source), source).toEqual({ blocks: 0, brackets: 0, string: false });
    }
  });

  it('counts blocks without END, lowercase ones and WHILE included', () => {
    expect(openAtEnd('IF a THEN')).toMatchObject({ blocks: 1 });
    expect(openAtEnd('FOR x IN xs DO\n  IF x THEN\n    PRINT(x)\n  END')).toMatchObject({ blocks: 1 });
    expect(openAtEnd('if a then')).toMatchObject({ blocks: 1 });
    expect(openAtEnd('WHILE x < 3 DO')).toMatchObject({ blocks: 1 });
    expect(openAtEnd('IF a THEN\nELSE IF b THEN\nEND')).toMatchObject({ blocks: 1 });
  });

  it('does not count keywords used where a name stands', () => {
    expect(openAtEnd('LET END = 1').blocks).toBe(0);
    expect(openAtEnd('x.IF').blocks).toBe(0);
  });

  it('counts open brackets and an unterminated string on the last line', () => {
    expect(openAtEnd('PRINT(FORMAT("{a}", {')).toEqual({ blocks: 0, brackets: 3, string: false });
    expect(openAtEnd('LET s = "abc')).toEqual({ blocks: 0, brackets: 0, string: true });
    expect(openAtEnd('LET s = "a\\"b')).toMatchObject({ string: true });
    expect(openAtEnd('LET s = "ab" // "')).toMatchObject({ string: false });
  });
});
