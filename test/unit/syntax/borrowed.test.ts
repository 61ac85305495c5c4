// Unit tests for src/syntax/borrowed.ts and borrowed-operators.ts: other languages' statements and
// operators read as the Nuwa they mean, each reported on its line with a fix built from the script's
// own pieces.
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

describe('blocks in braces', () => {
  it('reads C-style and JavaScript for loops as FOR, an if with braces as IF, and each `}` as ELSE or END', () => {
    expect(messages('for (let i = 0; i < 3; i++) {\n  PRINT(i)\n}\n')).toEqual([
      '1:1 there are no braces around blocks: write FOR i IN RANGE(3) DO ... END',
      '3:1 write END: a block ends with END, not `}`',
    ]);
    expect(messages('for (let i = 1; i <= n; i++) {\n  PRINT(i)\n}\n')[0]).toBe('1:1 there are no braces around blocks: write FOR i IN RANGE(1, n + 1) DO ... END');
    expect(messages('for (const x of xs) {\n  PRINT(x)\n}\nfor (const k in o) {\n  PRINT(k)\n}\n')).toEqual([
      '1:1 there are no braces around blocks: write FOR x IN xs DO ... END',
      '3:1 write END: a block ends with END, not `}`',
      '4:1 there are no braces around blocks: write FOR k IN KEYS(o) DO ... END',
      '6:1 write END: a block ends with END, not `}`',
    ]);
    expect(messages('if (LEN(xs) > 0) {\n  PRINT(1)\n} else {\n  PRINT(2)\n}\n')).toEqual([
      '1:1 there are no braces around blocks: write IF LEN(xs) > 0 THEN ... END',
      '3:1 write ELSE: there are no braces around blocks (`} else {`)',
      '5:1 write END: a block ends with END, not `}`',
    ]);
  });
});
