// A model-sized plan: 1,000 statements of the kind a model writes (tool calls, loops over their
// results, conditions, FORMAT and PRINT), generated deterministically, with the tools it calls.
// Used to measure a cold parse-and-run in a fresh process.

/** The script text; `statements` counts every statement, nested ones included. */
export function modelScript(statements = 1000) {
  const lines = ['LET report = []', 'LET total = 0'];
  let count = 2;
  for (let i = 0; count < statements; i++) {
    const symbol = ['AAPL', 'MSFT', 'NVDA', 'TSLA'][i % 4];
    lines.push(
      `// step ${i}: check ${symbol} and record what to do`,
      `LET quote${i} = CALL get_quote { symbol: "${symbol}" }`,
      `LET change${i} = quote${i}.price - quote${i}.previousClose`,
      `IF change${i} > 0 AND quote${i}.price < ${100 + (i % 50) * 5} THEN`,
      `  LET report = APPEND(report, FORMAT("{s}: buy at {p}", { s: "${symbol}", p: quote${i}.price }))`,
      'ELSE',
      `  LET total = total + ROUND(change${i}, 2)`,
      'END',
      `FOR order IN CALL list_orders { symbol: "${symbol}", limit: 3 } DO`,
      `  LET total = total + order.quantity * order.price`,
      'END',
      `PRINT(FORMAT("{i}: {s} {c}", { i: ${i}, s: "${symbol}", c: change${i} }))`,
    );
    count += 8; // LET, LET, IF, LET (then), LET (else), FOR, LET (body), PRINT
  }
  lines.push('PRINT(FORMAT("{n} ideas, total {t}", { n: LEN(report), t: ROUND(total, 2) }))');
  return `${lines.join('\n')}\n`;
}

export const modelTools = [
  {
    name: 'get_quote',
    description: 'Price and previous close of a stock.',
    parameters: {
      type: 'object',
      properties: { symbol: { type: 'string', pattern: '^[A-Z]{1,5}$' } },
      required: ['symbol'],
    },
    returns: { type: 'object', properties: { price: { type: 'number' }, previousClose: { type: 'number' } } },
    execute: async ({ symbol }) => ({ symbol, price: 100 + symbol.length * 17.5, previousClose: 100 + symbol.length * 17 }),
  },
  {
    name: 'list_orders',
    description: 'Recent orders for a symbol.',
    parameters: [
      { name: 'symbol', description: 'ticker', type: 'string' },
      { name: 'limit', description: 'how many', type: 'number' },
    ],
    returns: 'array',
    execute: async ({ symbol, limit }) => Array.from({ length: limit }, (_, i) => ({ symbol, quantity: i + 1, price: 10 * (i + 1) })),
  },
];
