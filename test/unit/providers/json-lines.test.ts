// The line reader of the MCP stdio transports (src/providers/json-lines.ts): lines whatever the
// chunking, a line over the cap skipped up to its newline and reported with its ends, and the
// request id read from those ends only where JSON-RPC writers put it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idOf, LineReader, looksLikeRequest, type LineEvent } from '../../../src/providers/json-lines.js';

function feed(reader: LineReader, text: string, cuts: number[]): LineEvent[] {
  const bytes = Buffer.from(text);
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const events: LineEvent[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    events.push(...reader.push(bytes.subarray(start, point)));
    start = point;
  }
  return events;
}

describe('LineReader', () => {
  it('yields the same lines however the bytes are cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }).filter((line) => !line.includes('\n') && line.trim() !== '' && !line.endsWith('\r')), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), (lines, cuts) => {
        const events = feed(new LineReader(1000), lines.map((line) => `${line}\n`).join(''), cuts);
        expect(events).toEqual(lines.map((text) => ({ kind: 'line', text })));
      }),
    );
  });

  it('skips a line over the cap, reports it when it passes the cap and at its end, and reads the next line', () => {
    const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"${'a'.repeat(5000)}"},"id":42}`;
    const events = feed(new LineReader(1000), `${big}\n{"ok":1}\r\n`, [100, 900, 1200, 3000]);
    expect(events.map((event) => event.kind)).toEqual(['oversized', 'oversized', 'line']);
    const [early, end, next] = events as [Extract<LineEvent, { kind: 'oversized' }>, Extract<LineEvent, { kind: 'oversized' }>, Extract<LineEvent, { kind: 'line' }>];
    expect(early.complete).toBe(false);
    expect(early.head.startsWith('{"jsonrpc":"2.0","method"')).toBe(true);
    expect(end).toMatchObject({ complete: true, bytes: Buffer.byteLength(big) });
    expect(end.tail.endsWith('"id":42}')).toBe(true);
    expect(idOf(early)).toBeUndefined(); // its id comes last
    expect(idOf(end)).toBe(42);
    expect(looksLikeRequest(end)).toBe(true);
    expect(next.text).toBe('{"ok":1}');
  });
});

describe('idOf', () => {
  const line = (head: string, tail: string, complete = true) => ({ head, tail, bytes: 0, complete });
  it.each([
    ['first, after jsonrpc', line('{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":', ''), 7],
    ['first', line('{ "id" : "abc", "result": {', ''), 'abc'],
    ['last, as the MCP SDK writes it', line('{"result":{"content":[', '"text":"..."}]},"jsonrpc":"2.0","id":3}'), 3],
    ['a string id with an escaped quote', line('{"id":"a\\"b","method":"x"', ''), 'a"b'],
  ])('reads the id put %s', (_where, oversized, id) => {
    expect(idOf(oversized)).toEqual(id);
  });

  it.each([
    ['an "id" inside the parameters', line('{"jsonrpc":"2.0","method":"x","params":{"id":5,', 'zzz"}}')],
    ['an id that closes a nested object', line('{"method":"x","params":', '{"id":9}}')],
    ['the end of a line not yet ended', line('{"method":"x"', ',"id":3}', false)],
    ['an escaped "id" inside a string', line('{"method":"x","params":"', '\\",\\"id\\":4}"}')],
  ])('trusts no id elsewhere: %s', (_what, oversized) => {
    expect(idOf(oversized)).toBeUndefined();
  });
});
