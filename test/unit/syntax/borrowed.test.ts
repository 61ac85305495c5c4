// Unit tests for src/syntax/borrowed.ts: other languages' statements and operators read as the Nuwa
// they mean, each reported on its line with a fix built from the script's own pieces.
import { describe, expect, it } from 'vitest';
import { parseProblems } from '../../../src/syntax/parse.js';

const messages = (source: string) => {
  const outcome = parseProblems(source);
  return 'problems' in outcome ? outcome.problems.map((p) => `${p.line}:${p.column} ${p.message}`) : [];
};

describe('statements of other languages', () => {
  it('reads `LET n == 0` as the LET it means, and writes it', () => {
    expect(messages('LET rainy == 0\nPRINT(rainy)\n')).toEqual(['1:11 LET takes one `=`: write LET rainy = 0']);
  });

  it('leaves a function definition out, and answers a call of it with where it was defined', () => {
    expect(messages('def to_f(c):\n  LET f = c * 2\nPRINT(to_f(3))\n')).toEqual([
      '1:1 there are no functions of your own (`def`): write what to_f computes where it is used, or keep a value in a variable with LET',
      expect.stringMatching(/^3:7 there is no function `to_f`: the definition on line 1 is not one \(there are no functions of your own\): write what it computes here instead/),
    ]);
    expect(messages('function toF(c) {\nPRINT(1)\n')[0]).toMatch(/^1:1 there are no functions of your own \(`function`\)/);
  });

  it('removes await, and writes the statement without it', () => {
    expect(messages('LET w = await CALL get_weather { city: "Oslo" }\n')).toEqual(['1:9 there is no `await`: every CALL waits for its result, so remove it: write CALL get_weather { city: "Oslo" }']);
  });
});
