// Unit tests for src/syntax/extract.ts: extractScript(reply) takes the script out of a model's reply
// (TOOLS.md §10): the first fence labelled nuwa, else the first fence, else the whole text.
import { describe, expect, it } from 'vitest';
import { extractScript, NuwaError, parse } from '../../../src/index.js';

describe('extractScript', () => {
  it('takes the first block labelled nuwa, wherever it is', () => {
    const reply = 'Here is a plan:\n\n```js\nconsole.log(1)\n```\n\nand in Nuwa:\n\n```nuwa\nLET a = 1\nPRINT(a)\n```\n\n```nuwa\nPRINT(2)\n```\nDone.';
    expect(extractScript(reply)).toBe('LET a = 1\nPRINT(a)');
  });

  it('takes the first fenced block when none is labelled nuwa', () => {
    expect(extractScript('Sure!\n```\nPRINT("x")\n```\nthen\n```text\nno\n```')).toBe('PRINT("x")');
    expect(extractScript('```python\nLET x = 1\n```')).toBe('LET x = 1');
  });

  it('returns the whole text when there is no fence', () => {
    expect(extractScript('LET a = 1\nPRINT(a)\n')).toBe('LET a = 1\nPRINT(a)\n');
    expect(extractScript('')).toBe('');
  });

  it('reads the label case-insensitively and ignores what follows it', () => {
    expect(extractScript('```js\n1\n```\n```NUWA title="plan"\nPRINT(1)\n```')).toBe('PRINT(1)');
  });

  it('follows CommonMark fences: tildes, longer fences, indentation, CRLF, and an unclosed fence', () => {
    expect(extractScript('~~~nuwa\nPRINT(1)\n~~~')).toBe('PRINT(1)');
    expect(extractScript('````nuwa\nLET s = "```"\n```\nPRINT(s)\n````')).toBe('LET s = "```"\n```\nPRINT(s)');
    expect(extractScript('  ```nuwa\n  IF true THEN\n    PRINT(1)\n  END\n  ```')).toBe('IF true THEN\n  PRINT(1)\nEND');
    expect(extractScript('```nuwa\r\nPRINT(1)\r\n```\r\n')).toBe('PRINT(1)');
    expect(extractScript('text\n```nuwa\nPRINT(1)\nPRINT(2)')).toBe('PRINT(1)\nPRINT(2)');
    // An inline span with backticks in its "info" is not a fence.
    expect(extractScript('use ```x``` here\nPRINT(1)')).toBe('use ```x``` here\nPRINT(1)');
  });

  it('gives text that parses for a typical model reply', () => {
    const reply = "I'll check the weather first.\n\n```nuwa\nLET w = CALL get_weather { city: \"Oslo\" }\nIF w.temp < 5 THEN\n  PRINT(\"cold\")\nEND\n```\n\nLet me know!";
    expect(parse(extractScript(reply)).body).toHaveLength(2);
  });

  it('refuses a reply that is not text with a NuwaError', () => {
    expect(() => extractScript(undefined as unknown as string)).toThrow(NuwaError);
    expect(() => extractScript(42 as unknown as string)).toThrow(/needs the reply's text, not number/);
  });
});
