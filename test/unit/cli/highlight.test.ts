// The lexer-driven highlighter and the coloured code frames of formatError.
import { describe, expect, it } from 'vitest';
import { classify, highlight, highlightFrame } from '../../../src/cli/highlight.js';
import { formatError } from '../../../src/cli/report.js';
import { NuwaError } from '../../../src/errors.js';
import { codeFrame } from '../../../src/syntax/source.js';

const ESC = '\u001b[';
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** Each span as [text, class]. */
function classes(source: string): Array<[string, string]> {
  return classify(source).map((span) => [source.slice(span.start, span.end), span.kind]);
}

describe('classify', () => {
  it('gives every token its class, from the lexer', () => {
    expect(classes('LET p = CALL market.get_price { symbol: "A\\n", "n": 1.5e3 } // note')).toEqual([
      ['LET', 'keyword'],
      ['p', 'variable'],
      ['=', 'operator'],
      ['CALL', 'keyword'],
      ['market', 'tool'],
      ['.', 'tool'],
      ['get_price', 'tool'],
      ['{', 'punctuation'],
      ['symbol', 'key'],
      [':', 'punctuation'],
      ['"A\\n"', 'string'],
      [',', 'punctuation'],
      ['"n"', 'key'],
      [':', 'punctuation'],
      ['1.5e3', 'number'],
      ['}', 'punctuation'],
      ['// note', 'comment'],
    ]);
    expect(classes('IF NOT LEN(x.items) > FOO(1) AND true THEN PRINT(null) END')).toEqual([
      ['IF', 'keyword'],
      ['NOT', 'operator'],
      ['LEN', 'builtin'],
      ['(', 'punctuation'],
      ['x', 'variable'],
      ['.', 'punctuation'],
      ['items', 'property'],
      [')', 'punctuation'],
      ['>', 'operator'],
      ['FOO', 'function'],
      ['(', 'punctuation'],
      ['1', 'number'],
      [')', 'punctuation'],
      ['AND', 'operator'],
      ['true', 'constant'],
      ['THEN', 'keyword'],
      ['PRINT', 'builtin'],
      ['(', 'punctuation'],
      ['null', 'constant'],
      [')', 'punctuation'],
      ['END', 'keyword'],
    ]);
  });

  it('keeps the real extent of malformed strings and marks rejected characters', () => {
    expect(classes('LET s = "bad \\q" LET t = \'single\' LET u = a && "open')).toEqual([
      ['LET', 'keyword'],
      ['s', 'variable'],
      ['=', 'operator'],
      ['"bad \\q"', 'string'],
      ['LET', 'keyword'],
      ['t', 'variable'],
      ['=', 'operator'],
      ["'single'", 'string'],
      ['LET', 'keyword'],
      ['u', 'variable'],
      ['=', 'operator'],
      ['a', 'variable'],
      ['&', 'invalid'],
      ['&', 'invalid'],
      ['"open', 'string'],
    ]);
  });

  it('counts offsets in the text as given, byte-order mark included', () => {
    const source = '\uFEFFLET x = 1';
    expect(classify(source)[0]).toEqual({ start: 1, end: 4, kind: 'keyword' });
  });
});

describe('highlight', () => {
  it('colours tokens and keeps the text', () => {
    const source = 'LET s = "x" // c';
    const coloured = highlight(source);
    expect(plain(coloured)).toBe(source);
    expect(coloured).toContain(`${ESC}35mLET${ESC}39m`);
    expect(coloured).toContain(`${ESC}32m"x"${ESC}39m`);
  });
});

describe('highlightFrame and formatError', () => {
  const source = 'LET total = 0\nLET message = "at " + total\n';
  const error = new NuwaError('TypeError', '`+` adds numbers', { line: 2, column: 21 });

  it('colours the source lines of a frame only when colour is on', () => {
    const frame = codeFrame(source, 2, 21);
    expect(highlightFrame(frame, source, false)).toBe(frame);
    const coloured = highlightFrame(frame, source, true);
    expect(plain(coloured)).toBe(frame);
    expect(coloured.split('\n')[0]).toContain(`${ESC}35mLET${ESC}39m`);
    expect(coloured.split('\n')[1]).toContain(`${ESC}32m"at "${ESC}39m`);
    expect(coloured.split('\n')[2]).toBe(frame.split('\n')[2]); // the caret line
  });

  it('is what formatError shows with colour, and nothing changes without', () => {
    const withColour = formatError(error, source, 'x.nuwa', true);
    expect(withColour).toContain(`${ESC}32m"at "${ESC}39m`);
    expect(plain(withColour)).toBe(plain(formatError(error, source, 'x.nuwa', false)));
    expect(formatError(error, source, 'x.nuwa', false)).not.toContain(ESC);
  });

  it('highlights the window of a very long line as part of the whole line', () => {
    const long = `LET s = "${'x'.repeat(300)}" LET n = 1 / 0`;
    const frame = codeFrame(long, 1, long.length - 2);
    const coloured = highlightFrame(frame, long, true);
    expect(plain(coloured)).toBe(frame);
    expect(coloured).toContain(`${ESC}32mxxxx`); // the string, cut by the window, is still a string
    expect(coloured).toContain(`${ESC}33m0${ESC}39m`);
  });
});
