// Unit tests for src/syntax/line-ends.ts: a bracket a line leaves open before a line that starts a
// statement is reported on its own line, closed there, and nothing is reported on the lines after;
// expressions written over several lines are never touched.
import { describe, expect, it } from 'vitest';
import { parse, parseProblems } from '../../../src/syntax/parse.js';

const problems = (source: string) => {
  const outcome = parseProblems(source);
  return 'problems' in outcome ? outcome.problems.map((p) => [p.line, p.column, p.message]) : [];
};

describe('brackets left open at the end of a line', () => {
  it('reports a `)` missing at the end of a line there, with the line as it would run, and nothing on the next line', () => {
    expect(problems('PRINT(FORMAT("{v}", { v: ROUND(x, 2) })\nPRINT("done")\n')).toEqual([
      [1, 40, '`(` at column 6 is not closed: add `)` at the end of the line: write PRINT(FORMAT("{v}", { v: ROUND(x, 2) }))'],
    ]);
  });

  it('closes braces and brackets too, with a space before a `}`, and the blocks after stay as written', () => {
    const source = 'IF a THEN\n  CALL t { id: 1, fields: { stage: "x" }\n  PRINT(1)\nELSE\n  PRINT(2)\nEND\nLET xs = [1, 2\nFOR x IN xs DO\n  PRINT(x)\nEND\n';
    expect(problems(source)).toEqual([
      [2, 41, '`{` at column 10 is not closed: add `}` at the end of the line: write CALL t { id: 1, fields: { stage: "x" } }'],
      [7, 15, '`[` at column 10 is not closed: add `]` at the end of the line: write LET xs = [1, 2]'],
    ]);
  });

  it('names a bracket opened on an earlier line, and closes it at the end of the last line of the expression', () => {
    expect(problems('LET o = {\n  a: 1,\n  b: 2\nPRINT(o)\n')).toEqual([[3, 7, '`{` on line 1 is not closed: add `}` at the end of this line']]);
  });

  it('on an IF or FOR header, says the closer belongs before THEN or DO, without guessing where', () => {
    expect(problems('IF LEN(xs > 0 THEN\n  PRINT(1)\nEND\nFOR x IN SORT(xs DO\n  PRINT(x)\nEND\n')).toEqual([
      [1, 15, '`(` at column 7 is not closed before THEN: add `)` where it belongs in the condition'],
      [4, 18, '`(` at column 14 is not closed before DO: add `)` where it belongs in the list'],
    ]);
  });

  it('finds the `(` too many when a grouping parenthesis holds a comma', () => {
    expect(problems('LET v = ROUND((p * 10, 2)\nPRINT(v)\n')).toEqual([
      [1, 15, 'one `(` too many on this line: remove the `(` at column 15: write LET v = ROUND(p * 10, 2)'],
    ]);
  });

  it('leaves the line as written in the message when something else on it is wrong', () => {
    expect(problems('PRINT(a && b\nPRINT(1)\n').map((p) => p[2])).toContain('`(` at column 6 is not closed: add `)` at the end of the line');
  });

  it('adds the THEN or DO a header lacks at the end of its line, and reports it there', () => {
    expect(problems('IF price < 20\n  PRINT(1)\nELSE IF price < 40\n  PRINT(2)\nEND\nEND\nFOR d IN deals\n  PRINT(d)\nEND\n')).toEqual([
      [1, 14, 'expected THEN after the IF condition: add THEN at the end of the line, IF price < 20 THEN'],
      [3, 19, 'expected THEN after the IF condition: add THEN at the end of the line, ELSE IF price < 40 THEN'],
      [7, 15, 'expected DO after FOR x IN list: add DO at the end of the line, FOR d IN deals DO'],
    ]);
    // A condition that runs on to the next line, or a one-line IF, has its THEN.
    expect(() => parse('IF 1 > 0 AND\n  2 > 1 THEN\n  PRINT(1)\nEND\nIF true THEN PRINT(1) END\n')).not.toThrow();
  });

  it('never touches an expression written over several lines', () => {
    const sources = [
      'LET xs = [\n  1,\n  2\n]\nPRINT(xs)',
      'LET o = { a: 1,\nb: 2 }\nPRINT(o)',
      'PRINT(FORMAT("{a} {b}", {\n  a: 1,\n  b: LEN([1])\n}))',
      'LET v = MAX(\n  LEN([1]),\n  LEN([2]))\nPRINT(v)',
      'LET names = [n\n  FOR n IN ["a"]]\nPRINT(names)',
      'LET ps = [\n  CALL t {},\n  CALL t {}\n]',
      'IF (1 > 0\n  AND 2 > 1) THEN\n  PRINT(1)\nEND',
    ];
    for (const source of sources) expect(() => parse(source), source).not.toThrow();
  });

  it('leaves a missing comma inside a bracket to the grammar (the next line is indented, or not a statement)', () => {
    expect(problems('LET o = {\n  a: 1\n  b: 2\n}\n').map((p) => p[2]).join('\n')).not.toMatch(/not closed/);
    expect(problems('LET o = { a: 1\nb: 2 }\n').map((p) => p[2]).join('\n')).not.toMatch(/not closed/);
  });
});
