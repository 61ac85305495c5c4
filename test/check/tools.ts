// The tools the check corpus (test/check/*.nuwa) is checked against. check never calls them: what
// matters is each schema. Every tool is also runnable, so the property test can run what it checks.
//
//   get_price     { symbol: string } → number
//   get_quote     { symbol: string, 1 to 5 capitals } → closed object { symbol, price, previousClose }
//   get_profile   {} → open object { name, ...any other keys }
//   list_symbols  {} → list of strings
//   top3          {} → list of at most 3 strings (maxItems)
//   search        { query: string, limit?: integer ≥ 1 } → list of { title, url }
//   place_order   { symbol: string, side: "buy" | "sell", qty: integer ≥ 1 } → object   (confirm: write)
//   delete_file   { path: string } → null                                            (confirm: destructive)
//   read_file     { path: string } → string                                          (confirm: read)
//   either        { a?, b? } with anyOf: one of a or b required (arguments related to each other)
//   echo          { value?: any } → any
import type { ToolRegistry } from '../../src/index.js';

const PRICES: Record<string, number> = { AAPL: 190.5, MSFT: 410, GOOG: 150.25 };

export function registerCheckTools(registry: ToolRegistry): void {
  registry.register(
    'get_price',
    { description: 'The price of a stock.', parameters: [{ name: 'symbol', description: 'ticker', type: 'string' }], returns: 'number' },
    ({ symbol }) => PRICES[symbol as string] ?? 100,
  );
  registry.register({
    name: 'get_quote',
    description: 'Price and previous close of a stock.',
    parameters: { type: 'object', properties: { symbol: { type: 'string', pattern: '^[A-Z]{1,5}$' } }, required: ['symbol'] },
    returns: {
      type: 'object',
      properties: { symbol: { type: 'string' }, price: { type: 'number' }, previousClose: { type: 'number' } },
      required: ['symbol', 'price', 'previousClose'],
      additionalProperties: false,
    },
    execute: ({ symbol }) => ({ symbol, price: PRICES[symbol as string] ?? 100, previousClose: 99 }),
  });
  registry.register({
    name: 'get_profile',
    description: 'The user profile: an object with a name, and other keys that vary.',
    parameters: [],
    returns: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    execute: () => ({ name: 'Ada', city: 'London' }),
  });
  registry.register({
    name: 'list_symbols',
    description: 'Every known ticker.',
    parameters: [],
    returns: { type: 'array', items: { type: 'string' } },
    execute: () => Object.keys(PRICES),
  });
  registry.register({
    name: 'top3',
    description: 'At most three tickers.',
    parameters: [],
    returns: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    execute: () => Object.keys(PRICES).slice(0, 3),
  });
  registry.register({
    name: 'search',
    description: 'Searches documents.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['query'] },
    returns: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' }, url: { type: 'string' } } } },
    execute: ({ query }) => [{ title: String(query), url: 'https://example.org' }],
  });
  registry.register({
    name: 'place_order',
    description: 'Buys or sells shares.',
    parameters: {
      type: 'object',
      properties: { symbol: { type: 'string' }, side: { type: 'string', enum: ['buy', 'sell'] }, qty: { type: 'integer', minimum: 1 } },
      required: ['symbol', 'side', 'qty'],
    },
    returns: 'object',
    category: 'network',
    confirm: 'write',
    execute: (args) => ({ status: 'filled', ...args }),
  });
  registry.register({
    name: 'delete_file',
    description: 'Deletes a file.',
    parameters: [{ name: 'path', description: 'the file', type: 'string' }],
    returns: 'null',
    category: 'file',
    confirm: 'destructive',
    execute: () => null,
  });
  registry.register({
    name: 'read_file',
    description: 'Reads a file.',
    parameters: [{ name: 'path', description: 'the file', type: 'string' }],
    returns: 'string',
    category: 'file',
    confirm: 'read',
    execute: ({ path }) => `contents of ${String(path)}`,
  });
  registry.register({
    name: 'either',
    description: 'Takes a or b (at least one).',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }], additionalProperties: false },
    returns: 'number',
    execute: ({ a, b }) => Number(a ?? b),
  });
  registry.register({
    name: 'echo',
    description: 'Returns its value.',
    parameters: [{ name: 'value', description: 'anything', type: 'any', required: false }],
    returns: 'any',
    execute: ({ value }) => value ?? null,
  });
}
