import { describe, expect, it } from 'vitest';
import { formatValue } from '../../../src/cli/print-value.js';
import type { JsonValue } from '../../../src/values/json.js';

const show = (value: JsonValue) => formatValue(value, { color: false });

describe('formatValue', () => {
  it('writes values as Nuwa literals', () => {
    expect(show(null)).toBe('null');
    expect(show(true)).toBe('true');
    expect(show(-2.5)).toBe('-2.5');
    expect(show(1e21)).toBe('1e+21');
    expect(show('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(show([])).toBe('[]');
    expect(show({})).toBe('{}');
    expect(show({ a: 1, 'first name': 'Ada', IF: 2, true: 3, __proto__x: [1] })).toBe('{ a: 1, "first name": "Ada", "IF": 2, "true": 3, __proto__x: [1] }');
  });

  it('keeps an own __proto__ key as a key', () => {
    const value = JSON.parse('{"__proto__": 1}') as JsonValue;
    expect(show(value)).toBe('{ __proto__: 1 }');
  });

  it('breaks values that do not fit on one line, indenting nested ones', () => {
    const value = { symbols: ['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'GOOG', 'META', 'NFLX'], nested: { deep: { deeper: 's'.repeat(48) } } };
    expect(show(value)).toBe(
      [
        '{',
        '  symbols: ["AAPL", "MSFT", "NVDA", "TSLA", "AMZN", "GOOG", "META", "NFLX"],',
        '  nested: {',
        `    deep: { deeper: "${'s'.repeat(48)}" }`,
        '  }',
        '}',
      ].join('\n'),
    );
    expect(show(Array.from({ length: 30 }, (_, i) => i * 1000))).toBe(`[\n${Array.from({ length: 30 }, (_, i) => `  ${i * 1000}`).join(',\n')}\n]`);
  });

  it('cuts huge and very deep values', () => {
    const list = Array.from({ length: 250 }, (_, i) => i);
    expect(show(list)).toMatch(/\n {2}99,\n {2}… 150 more items\n\]$/);
    expect(show('x'.repeat(10_005))).toMatch(/x"… \(5 more characters\)$/);
    let deep: JsonValue = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(show(deep)).toContain('[…]');
  });

  it('colours like highlighted code when asked', () => {
    expect(formatValue({ a: ['s', 1, null] }, { color: true })).toBe('{ a: [\u001b[32m"s"\u001b[39m, \u001b[33m1\u001b[39m, \u001b[33mnull\u001b[39m] }');
  });
});
