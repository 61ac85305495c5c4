// Unit tests for src/syntax/source.ts: the code frame shown under an error message.
import { describe, expect, it } from 'vitest';
import { codeFrame } from '../../../src/syntax/source.js';

describe('codeFrame', () => {
  it('shows the line with a caret under the column, and the line before it', () => {
    expect(codeFrame('LET a = 1\nLET b = x + 1', 2, 9)).toBe(['1 | LET a = 1', '2 | LET b = x + 1', '  |         ^'].join('\n'));
  });

  it('shows no previous line for line 1, and puts the caret at column 1', () => {
    expect(codeFrame('oops', 1, 1)).toBe(['1 | oops', '  | ^'].join('\n'));
  });

  it('skips a blank previous line', () => {
    expect(codeFrame('LET a = 1\n   \nbad', 3, 2)).toBe(['3 | bad', '  |  ^'].join('\n'));
  });

  it('widens the gutter for two-digit line numbers', () => {
    const source = Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join('\n');
    expect(codeFrame(source, 10, 5)).toBe([' 9 | line9', '10 | line10', '   |     ^'].join('\n'));
  });

  it('keeps tabs before the caret so it lines up', () => {
    expect(codeFrame('\t\tLET x = y', 1, 11)).toBe(['1 | \t\tLET x = y', '  | \t\t        ^'].join('\n'));
  });

  it('splits lines on \\r\\n and \\r too', () => {
    expect(codeFrame('a\r\nbb\rccc', 3, 3)).toBe(['2 | bb', '3 | ccc', '  |   ^'].join('\n'));
  });

  it('points just past the end of a line (a missing token at the end)', () => {
    expect(codeFrame('LET x =', 1, 8)).toBe(['1 | LET x =', '  |        ^'].join('\n'));
  });

  it('returns the empty string for a line that does not exist', () => {
    expect(codeFrame('one line', 2, 1)).toBe('');
    expect(codeFrame('one line', 0, 1)).toBe('');
  });

  it('clips a very long line to a window around the column, caret still under it', () => {
    const line = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const column = 500;
    const frame = codeFrame(line, 1, column).split('\n');
    expect(frame).toHaveLength(2);
    const shown = frame[0]!.slice('1 | '.length);
    expect(shown.length).toBe(160);
    // The window starts 80 characters before the column.
    expect(shown).toBe(line.slice(column - 1 - 80, column - 1 + 80));
    expect(frame[1]).toBe(`  | ${' '.repeat(80)}^`);
  });

  it('clips at the start and at the end of a long line', () => {
    const line = `${'x'.repeat(300)}END`;
    const start = codeFrame(line, 1, 2).split('\n');
    expect(start[0]).toBe(`1 | ${'x'.repeat(160)}`);
    expect(start[1]).toBe('  |  ^');
    const end = codeFrame(line, 1, 301).split('\n');
    expect(end[0]).toBe(`1 | ${'x'.repeat(157)}END`);
    expect(end[1]).toBe(`  | ${' '.repeat(157)}^`);
  });

  it('uses the caret option to decorate the caret', () => {
    expect(codeFrame('abc', 1, 2, { caret: (s) => `<${s}>` })).toBe(['1 | abc', '  |  <^>'].join('\n'));
  });
});
