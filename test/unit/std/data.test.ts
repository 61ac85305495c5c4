// Unit tests for src/std/data.ts: data.parse_json, data.parse_csv and data.validate (TOOLS.md §12).
import { describe, expect, it } from 'vitest';
import { stdHost } from './support.js';

const host = stdHost({});

describe('data.parse_json', () => {
  it('parses JSON text into a value', async () => {
    expect(await host.call('data.parse_json', { text: '{"a": [1, 2.5, "x", null, true]}' })).toEqual({ a: [1, 2.5, 'x', null, true] });
    expect(await host.call('data.parse_json', { text: '"just a string"' })).toBe('just a string');
  });

  it('reports text that is not JSON as a ToolExecutionError with the parser\'s reason', async () => {
    const error = await host.fails('data.parse_json', { text: "{ 'single': quotes }" });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/^tool `data\.parse_json` failed: the text is not valid JSON: /);
    expect(error.code).toBe('BAD_JSON');
    expect((await host.fails('data.parse_json', { text: '' })).kind).toBe('ToolExecutionError');
  });

  it('refuses JSON nested deeper than values may be', async () => {
    const error = await host.fails('data.parse_json', { text: `${'['.repeat(1200)}${']'.repeat(1200)}` });
    expect(error.kind).toBe('ToolResultError');
  });
});

describe('data.parse_csv', () => {
  it('reads rows as objects keyed by the header line, values as strings', async () => {
    expect(await host.call('data.parse_csv', { text: 'symbol,price\nAAPL,189.84\nMSFT,415.5\n' })).toEqual([
      { symbol: 'AAPL', price: '189.84' },
      { symbol: 'MSFT', price: '415.5' },
    ]);
  });

  it('reads rows as lists without a header', async () => {
    expect(await host.call('data.parse_csv', { text: 'a,b,c\n1,2,3', header: false })).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps quoted fields whole: commas, doubled quotes and line breaks inside', async () => {
    expect(await host.call('data.parse_csv', { text: 'name,note\n"Smith, Ada","said ""hi""\nthen left"\n' })).toEqual([{ name: 'Smith, Ada', note: 'said "hi"\nthen left' }]);
  });

  it('takes another delimiter, skips empty lines and a byte order mark', async () => {
    expect(await host.call('data.parse_csv', { text: '\uFEFFa;b\n\n1;2\n', delimiter: ';' })).toEqual([{ a: '1', b: '2' }]);
    expect(await host.call('data.parse_csv', { text: 'a\tb\n1\t2', delimiter: '\t', header: false })).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('keeps a column named __proto__ as a plain key', async () => {
    expect(await host.call('data.parse_csv', { text: '__proto__,b\n1,2' })).toEqual([{ ['__proto__']: '1', b: '2' }]);
  });

  it('reports malformed CSV with the library\'s reason', async () => {
    const uneven = await host.fails('data.parse_csv', { text: 'a,b\n1,2,3\n' });
    expect(uneven.kind).toBe('ToolExecutionError');
    expect(uneven.message).toContain('the text is not valid CSV');
    expect(uneven.code).toBe('BAD_CSV');
    expect((await host.fails('data.parse_csv', { text: 'a,b\n"unclosed,2\n' })).message).toContain('not valid CSV');
    expect((await host.fails('data.parse_csv', { text: 'a,a\n1,2' })).message).toContain('names the column "a" twice');
    expect((await host.fails('data.parse_csv', { text: 'a', delimiter: '"' })).message).toContain('delimiter must be one character');
  });
});

describe('data.validate', () => {
  const person = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name'], additionalProperties: false };

  it('says valid for a value that matches the schema', async () => {
    expect(await host.call('data.validate', { data: { name: 'Ada', age: 36 }, schema: person })).toEqual({ valid: true, errors: [] });
    expect(await host.call('data.validate', { data: null, schema: { type: 'null' } })).toEqual({ valid: true, errors: [] });
  });

  it('lists every problem of a value that does not, each with its path', async () => {
    expect(await host.call('data.validate', { data: { age: -1, extra: 1 }, schema: person })).toEqual({
      valid: false,
      errors: [
        { path: 'name', message: "must have required property 'name'" },
        { path: 'extra', message: 'must NOT have additional properties' },
        { path: 'age', message: 'must be >= 0' },
      ],
    });
    expect(await host.call('data.validate', { data: [1, 'two'], schema: { type: 'array', items: { type: 'number' } } })).toEqual({
      valid: false,
      errors: [{ path: '[1]', message: 'must be number' }],
    });
  });

  it('checks formats and patterns', async () => {
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email' }, code: { type: 'string', pattern: '^[A-Z]{3}\\d+$' } } };
    expect(await host.call('data.validate', { data: { email: 'a@b.example', code: 'ABC12' }, schema })).toMatchObject({ valid: true });
    expect(await host.call('data.validate', { data: { email: 'nope', code: 'abc' }, schema })).toMatchObject({
      valid: false,
      errors: [
        { path: 'email', message: 'must match format "email"' },
        { path: 'code', message: 'must match pattern "^[A-Z]{3}\\d+$"' },
      ],
    });
  });

  it('takes ECMAScript patterns, lookahead included, as JSON Schema says', async () => {
    expect(await host.call('data.validate', { data: 'password1', schema: { type: 'string', pattern: '^(?=.*\\d)[a-z0-9]{8,}$' } })).toMatchObject({ valid: true });
  });

  it('stops a check that would hold the host, instead of blocking it: a pattern that backtracks catastrophically', async () => {
    // /(a+)+$/ on "aaa…ab" takes exponential time in a backtracking engine, in code that never yields.
    const error = await host.fails('data.validate', { data: `${'a'.repeat(40)}b`, schema: { type: 'string', pattern: '(a+)+$' } });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('checking took longer than 2000 ms and was stopped');
    expect(error.code).toBe('TIMEOUT');
    // The tool (and the shared validator) still work afterwards.
    expect(await host.call('data.validate', { data: 'aaa', schema: { type: 'string', pattern: '(a+)+$' } })).toEqual({ valid: true, errors: [] });
  });

  it('stops uniqueItems over a very long list of objects (quadratic in Ajv)', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ id: i }));
    const error = await host.fails('data.validate', { data: rows, schema: { type: 'array', uniqueItems: true } });
    expect(error.message).toContain('checking took longer than 2000 ms');
  });

  it('refuses a schema too large to check', async () => {
    const huge = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`property_${i}`, { type: 'string', minLength: 1 }])) };
    expect((await host.fails('data.validate', { data: {}, schema: huge })).message).toContain('the schema is too large to check');
  });

  it('needs no approval (none), like the other data tools', () => {
    for (const id of ['json-parse', 'csv-parse', 'data-validate']) expect(host.registry.get(id)?.confirm).toBe('none');
    expect(host.registry.get('csv-parse')?.name).toBe('data.parse_csv');
  });
});
