// Unit tests for src/syntax/blocks.ts: a missing or extra END is found before the grammar runs,
// reported once with the block it concerns, and the stream repaired so nothing else cascades.
import { describe, expect, it } from 'vitest';
import { balanceBlocks } from '../../../src/syntax/blocks.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { ProblemList } from '../../../src/syntax/problems.js';

function balance(source: string) {
  const { tokens } = tokenize(source);
  const problems = new ProblemList();
  const out = balanceBlocks(tokens, problems);
  return { tokens, out, problems: problems.list.map((p) => `${p.line}:${p.column} ${p.message}`), ends: out.filter((t) => t.image === 'END').length };
}

describe('balanceBlocks', () => {
  it('returns balanced text untouched, however it is indented', () => {
    const { tokens, out, problems } = balance('IF a THEN\n      PRINT(1)\n  END\nFOR x IN y DO END');
    expect(out).toBe(tokens);
    expect(problems).toEqual([]);
  });

  it('names the block a missing END belongs to, after the last token', () => {
    const { problems, ends } = balance('LET a = 1\nFOR x IN xs DO\n  PRINT(x)');
    expect(problems).toEqual(['3:11 the FOR opened on line 2 has no END']);
    expect(ends).toBe(1);
  });

  it('says each IF needs its own END after ELSE IF, and reports a chain once', () => {
    expect(balance('IF a THEN\n  x\nELSE IF b THEN\n  y\nEND').problems).toEqual([
      '5:4 the IF opened on line 1 has no END; with ELSE IF each IF needs its own END',
    ]);
    const chain = balance('IF a THEN\n  x\nELSE IF b THEN\n  y\nELSE IF c THEN\n  z\nEND');
    expect(chain.problems).toEqual(['7:4 the IF opened on line 1 and the IF opened on line 3 have no END; with ELSE IF each IF needs its own END']);
    expect(chain.ends).toBe(3);
  });

  it('puts a missing END where the indentation ends the block', () => {
    const source = 'FOR o IN orders DO\n  IF o.ok THEN\n    PRINT(o)\n  PRINT(1)\nEND';
    const { problems, out } = balance(source);
    expect(problems).toEqual(['4:3 the IF opened on line 2 has no END: add END before this line, where the indentation ends it']);
    expect(out.map((t) => t.image).join(' ')).toBe('FOR o IN orders DO IF o . ok THEN PRINT ( o ) END PRINT ( 1 ) END');
  });

  it('ignores indentation when the block body is not indented', () => {
    expect(balance('FOR x IN xs DO\nIF x THEN\nPRINT(x)\nEND').problems).toEqual(['4:4 the FOR opened on line 1 has no END']);
  });

  it('removes an END that closes nothing, saying which block was closed last', () => {
    const { problems, ends } = balance('IF a THEN\n  x\nEND\nEND');
    expect(problems).toEqual(['4:1 unexpected `END`: no IF or FOR is open here (the last block, the IF opened on line 1, was closed on line 3); remove it']);
    expect(ends).toBe(1);
  });

  it('removes an END that the indentation shows would close its block too early', () => {
    const { problems, ends } = balance('FOR f IN fs DO\n  IF f THEN\n    x\n  END\n  END\n  PRINT(f)\nEND');
    expect(problems).toEqual([
      '5:3 unexpected `END`: it would close the FOR opened on line 1 early, but the IF opened on line 2 was already closed on line 4; remove this END',
    ]);
    expect(ends).toBe(2);
  });

  it('reopens an IF closed just before its ELSE', () => {
    const { problems, ends } = balance('IF a THEN\n  x\nEND\nELSE\n  y\nEND');
    expect(problems).toEqual(['3:1 this END closes the IF opened on line 1 before its ELSE: remove it (the IF\'s one END comes after the ELSE branch)']);
    expect(ends).toBe(1);
  });

  it('does not take a keyword used as a name for a block', () => {
    expect(balance('LET END = 1').problems).toEqual([]);
    expect(balance('FOR IF IN xs DO END').problems).toEqual([]);
  });
});
