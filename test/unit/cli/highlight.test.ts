// The lexer-driven highlighter and the coloured code frames of formatError.
import { describe, expect, it } from 'vitest';
import { classify, highlight, highlightFrame, type TokenClass } from '../../../src/cli/highlight.js';
import { formatError } from '../../../src/cli/report.js';
import { NuwaError } from '../../../src/errors.js';
import { codeFrame } from '../../../src/syntax/source.js';
import { Lexer, type TokenType } from '../../../src/syntax/chevrotain.js';
import { tokensAsWritten } from '../../../src/syntax/lexer.js';
import { allTokens } from '../../../src/syntax/tokens.js';

const ESC = '\u001b[';
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** Each span as [text, class]. */
function classes(source: string): Array<[string, string]> {
  return classify(source).map((span) => [source.slice(span.start, span.end), span.kind]);
}

/** Texts that between them make every token type of the lexer, with the class of each span. */
const TOKEN_EXAMPLES: Array<[string, TokenClass[]]> = [
  ['LET CALL IF THEN ELSE END FOR IN DO CALC', Array(10).fill('keyword')],
  ['AND OR NOT == != < <= > >= = + - * / %', Array(15).fill('operator')],
  ['&& & || | ! === !== <> ++ += -= *= /= %= ... =>', Array(16).fill('operator')],
  ['true false null', ['constant', 'constant', 'constant']],
  ['12 1.5e3 .5', ['number', 'number', 'number']],
  ['"s" "bad \\q" "open', ['string', 'string', 'string']],
  ["'single' `template`", ['string', 'string']],
  ['name // comment', ['variable', 'comment']],
  ['# hash\n/* block */', ['comment', 'comment']],
  ['```', ['invalid']],
  ['( ) [ ] { } , : .', Array(9).fill('punctuation')],
];

describe('classify', () => {
  it('colours a list comprehension\'s FOR, IN and IF as keywords, and the new built-ins as built-ins', () => {
    expect(classes('[GET(o, k) FOR o IN xs IF SUM(o.n) > 0]')).toEqual([
      ['[', 'punctuation'], ['GET', 'builtin'], ['(', 'punctuation'], ['o', 'variable'], [',', 'punctuation'], ['k', 'variable'], [')', 'punctuation'],
      ['FOR', 'keyword'], ['o', 'variable'], ['IN', 'keyword'], ['xs', 'variable'],
      ['IF', 'keyword'], ['SUM', 'builtin'], ['(', 'punctuation'], ['o', 'variable'], ['.', 'punctuation'], ['n', 'property'], [')', 'punctuation'],
      ['>', 'operator'], ['0', 'number'], [']', 'punctuation'],
    ]);
  });

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
      ['&&', 'operator'],
      ['"open', 'string'],
    ]);
    expect(classes('LET a = 1; LET b = ?')).toEqual([
      ['LET', 'keyword'],
      ['a', 'variable'],
      ['=', 'operator'],
      ['1', 'number'],
      [';', 'invalid'],
      ['LET', 'keyword'],
      ['b', 'variable'],
      ['=', 'operator'],
      ['?', 'invalid'],
    ]);
  });

  it('shows what other languages taught as what it is in the text, whatever the parser makes of it', () => {
    expect(classes('if x > .5 then\n  LET n += 1 # note\nend')).toEqual([
      ['if', 'variable'], // a name, as LANGUAGE.md says; the error message says "write IF"
      ['x', 'variable'],
      ['>', 'operator'],
      ['.5', 'number'],
      ['then', 'variable'],
      ['LET', 'keyword'],
      ['n', 'variable'],
      ['+=', 'operator'],
      ['1', 'number'],
      ['# note', 'comment'],
      ['end', 'variable'],
    ]);
    expect(classes('```nuwa\n/* a\nb */ x = a === b || !c <> d++ `t` xs.0\n```')).toEqual([
      ['```nuwa', 'invalid'],
      ['/* a\nb */', 'comment'],
      ['x', 'variable'],
      ['=', 'operator'],
      ['a', 'variable'],
      ['===', 'operator'],
      ['b', 'variable'],
      ['||', 'operator'],
      ['!', 'operator'],
      ['c', 'variable'],
      ['<>', 'operator'],
      ['d', 'variable'],
      ['++', 'operator'],
      ['`t`', 'string'],
      ['xs', 'variable'],
      ['.0', 'number'],
      ['```', 'invalid'],
    ]);
    expect(classes('CALL t(city = "Oslo") LET o = { "k\\q": 1 }')).toEqual([
      ['CALL', 'keyword'],
      ['t', 'tool'],
      ['(', 'punctuation'],
      ['city', 'variable'],
      ['=', 'operator'],
      ['"Oslo"', 'string'],
      [')', 'punctuation'],
      ['LET', 'keyword'],
      ['o', 'variable'],
      ['=', 'operator'],
      ['{', 'punctuation'],
      ['"k\\q"', 'key'], // a key with a bad escape is still a key
      [':', 'punctuation'],
      ['1', 'number'],
      ['}', 'punctuation'],
    ]);
  });

  it('has an example for every token type the lexer makes, so a new one gets a class on purpose', () => {
    const covered = new Set<TokenType>();
    for (const [source] of TOKEN_EXAMPLES) for (const token of tokensAsWritten(source)) covered.add(token.tokenType);
    const lexable = allTokens.filter((t) => t.PATTERN !== Lexer.NA && t.GROUP !== Lexer.SKIPPED);
    expect(lexable.filter((t) => !covered.has(t)).map((t) => t.name)).toEqual([]);
    for (const [source, kinds] of TOKEN_EXAMPLES) expect(classify(source).map((s) => s.kind), source).toEqual(kinds);
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
