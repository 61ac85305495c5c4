// The tools of bench/plan-30.nuwa, as a user gives them to `nuwa run --tools`: a tools module whose
// default export lists plain tool definitions. A module rather than executables because that is
// what a JavaScript user writes first (examples/tools.mjs), and because an executable costs a
// process per call, which would measure process spawning rather than `nuwa` starting up.

const PRICES = { AAPL: [189.84, 192.1], MSFT: [415.5, 409.02], NVDA: [121.4, 118.0] };

export default [
  {
    name: 'get_quote',
    description: 'Price and previous close of a stock.',
    parameters: [{ name: 'symbol', description: 'Ticker symbol', type: 'string' }],
    returns: 'object',
    execute: async ({ symbol }) => ({ symbol, price: PRICES[symbol][0], previousClose: PRICES[symbol][1] }),
  },
  {
    name: 'get_cash',
    description: 'Cash left in the account, in USD.',
    parameters: [],
    returns: 'number',
    execute: async () => 10000,
  },
  {
    name: 'place_orders',
    description: 'Places the orders described by lines.',
    parameters: [
      { name: 'lines', description: 'one order a line', type: 'array' },
      { name: 'total', description: 'what they cost', type: 'number' },
    ],
    returns: 'object',
    execute: async ({ lines, total }) => ({ id: 'ord-1', lines, total }),
  },
];
