// Unit tests for src/syntax/deep-parse.ts and parse-worker.ts: deep (legal) text is parsed on a
// worker thread with a large stack, synchronously, and the outcome comes back intact.
import { describe, expect, it } from 'vitest';
import { parseOnWorker } from '../../../src/syntax/deep-parse.js';

describe('parseOnWorker', () => {
  it('returns the program of a valid script, positions and hasCall included', () => {
    const outcome = parseOnWorker('LET a = 1\nLET b = CALL t { x: a }');
    expect(outcome).toEqual({
      program: {
        type: 'Program',
        line: 1,
        column: 1,
        hasCall: true,
        body: [
          { type: 'Let', name: 'a', value: { type: 'Literal', value: 1, line: 1, column: 9, hasCall: false }, line: 1, column: 1, hasCall: false },
          {
            type: 'Let',
            name: 'b',
            value: {
              type: 'Call',
              tool: 't',
              arguments: {
                type: 'Object',
                properties: [
                  { type: 'Property', key: 'x', value: { type: 'Variable', name: 'a', line: 2, column: 21, hasCall: false }, line: 2, column: 18, hasCall: false },
                ],
                line: 2,
                column: 16,
                hasCall: false,
              },
              line: 2,
              column: 9,
              hasCall: true,
            },
            line: 2,
            column: 1,
            hasCall: true,
          },
        ],
      },
    });
  });

  it('returns the problems of an invalid script', () => {
    expect(parseOnWorker('LET = 1\nEND')).toEqual({
      problems: [
        { line: 1, column: 5, message: 'expected a variable name after LET but found `=`' },
        { line: 2, column: 1, message: 'unexpected `END`: there is no open IF or FOR for this `END` to close' },
      ],
    });
  });

  it('parses the deepest legal nesting', () => {
    const outcome = parseOnWorker(`LET x = ${'['.repeat(1000)}${']'.repeat(1000)}`);
    expect('program' in outcome).toBe(true);
    if (!('program' in outcome)) return;
    let node = (outcome.program.body[0] as { value: { type: string; elements?: unknown[] } }).value;
    let depth = 0;
    while (node.type === 'List' && node.elements!.length === 1) {
      node = node.elements![0] as typeof node;
      depth++;
    }
    expect(depth).toBe(999);
    expect(node).toMatchObject({ type: 'List', elements: [], column: 9 + 999 });
  });

  it('refuses text nested too deeply with the lexer problem', () => {
    const outcome = parseOnWorker(`${'('.repeat(1001)}1${')'.repeat(1001)}`);
    expect(outcome).toEqual({ problems: [expect.objectContaining({ line: 1, column: 1001, message: expect.stringMatching(/^nesting deeper than 1000 levels/) })] });
  });

  it('can be called repeatedly', () => {
    for (let i = 0; i < 3; i++) expect(parseOnWorker(`LET v${i} = ${i}`)).toMatchObject({ program: { body: [{ name: `v${i}`, value: { value: i } }] } });
  });
});
