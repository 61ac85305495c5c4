import { describe, expect, it } from 'vitest';
import { entryStatus } from '../../../src/cli/repl-entry.js';

const unfinished = { complete: false, openString: false };

describe('entryStatus: when a REPL entry is finished', () => {
  it.each([
    'IF x THEN',
    'IF x',
    'IF x > 1 THEN\n  PRINT(x)\nELSE',
    'FOR i IN [1, 2] DO\n  PRINT(i)',
    'PRINT(1',
    '[1, 2,',
    '{ a: 1,',
    'CALL tool',
    'CALL tools.',
    'CALL tool { a: [1, {',
    'LET x =',
    'LET x',
    'LET',
    'x.',
    'x +',
    'a AND',
    'NOT',
    'LET x = 1 LET',
    'IF x = 1 THEN', // the `=` is reported once the entry is complete
    // a list comprehension being typed: its FOR and IF need no END, its `]` is still to come
    'LET ys = [\n  x * 2\n  FOR x IN xs',
    '[x FOR',
    '[x FOR x IN xs IF',
    '[x FOR x IN xs IF x > 1',
    'FOR i IN [x FOR x IN xs',
    '[x FOR x IN xs FOR', // a second FOR is reported once the entry is complete
  ])('%j goes on to the next line', (text) => {
    expect(entryStatus(text)).toEqual(unfinished);
  });

  it.each([
    '',
    '   ',
    '// only a comment',
    'LET x = 1',
    'x',
    'PRINT(1)',
    'IF x THEN PRINT(1) END',
    'FOR i IN [1] DO\n  PRINT(i)\nEND',
    'CALL tool {}',
    'LET x = {a: 1, a: 2}', // a duplicate key: an error, reported at once
    'LET x = 1 )',
    'END',
    'IF x THEN ) ',
    '{a: 1 b: 2',
    'LET a = 1 &',
    "PRINT('single')",
    'PRINT("bad \\q escape',
    'PRINT("cut after a backslash\\',
    'LET x = 1e999',
    'LET ys = [\n  x * 2\n  FOR x IN xs\n]',
    '[x FOR x IN xs IF x > 1]',
    'LET a = [1, 2\nFOR i IN a DO', // a forgotten `]` before a FOR loop: reported at once
  ])('%j is run (or reported) at once', (text) => {
    expect(entryStatus(text)).toEqual({ complete: true });
  });

  it('continues a string left open at the end of the last line', () => {
    expect(entryStatus('PRINT("abc')).toEqual({ complete: false, openString: true });
    expect(entryStatus('PRINT("abc\\\\')).toEqual({ complete: false, openString: true }); // an escaped backslash
    expect(entryStatus('LET s = "x" LET t = "open')).toEqual({ complete: false, openString: true });
  });

  it('does not continue a string broken on an earlier line', () => {
    expect(entryStatus('PRINT("a\nb")')).toEqual({ complete: true });
  });

  it('checks a long entry by its blocks, brackets and strings only', () => {
    const body = Array.from({ length: 300 }, (_, i) => `  IF i > ${i} THEN LET total = total + CALL math.add { a: [1, 2], b: { x: ${i} } } ELSE PRINT(i) END`).join('\n');
    expect(entryStatus(`FOR i IN list DO\n${body}`)).toEqual(unfinished);
    expect(entryStatus(`FOR i IN list DO\n${body}\nPRINT("open`)).toEqual({ complete: false, openString: true });
    expect(entryStatus(`FOR i IN list DO\n${body}\nEND`)).toEqual({ complete: true });
    expect(entryStatus(`FOR i IN list DO\n${body}\nEND LET x =`)).toEqual({ complete: true }); // reported when run
  });

  it('reports text nested too deeply at once instead of waiting', () => {
    expect(entryStatus('['.repeat(1500))).toEqual({ complete: true });
  });
});
