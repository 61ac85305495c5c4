// Tools for the example scripts: a small, fake market and a sales ledger. A tools module's default
// export is a list of tool definitions (or a function that receives the registry).
//   nuwa run examples/quickstart.nuwa --tools examples/tools.mjs

const PRICES = { AAPL: 189.84, MSFT: 415.5, NVDA: 121.4, TSLA: 248.23 };
const PREVIOUS_CLOSE = { AAPL: 192.1, MSFT: 409.02, NVDA: 118.0, TSLA: 251.7 };

// The account every session starts with: get_portfolio shows it and place_order trades from it.
const STARTING_PORTFOLIO = { cash: 10000, positions: { AAPL: 10, TSLA: 4 } };

/** The session's portfolio, made from the starting one the first time a tool asks for it. */
function portfolioOf(context) {
  if (!context.hasState('portfolio')) {
    context.setState('portfolio', STARTING_PORTFOLIO, { description: 'cash and positions of the account' });
  }
  return context.getStateValue('portfolio');
}

const SALES = {
  north: [{ product: 'lamp', amount: 120 }, { product: 'desk', amount: 340 }, { product: 'lamp', amount: 95 }],
  south: [{ product: 'chair', amount: 210 }, { product: 'lamp', amount: 60 }],
  east: [{ product: 'desk', amount: 410 }, { product: 'chair', amount: 75 }, { product: 'chair', amount: 130 }],
};

export default [
  {
    name: 'get_price',
    description: 'Current price of a stock, in USD.',
    parameters: [{ name: 'symbol', description: 'Ticker symbol, e.g. AAPL', type: 'string' }],
    returns: 'number',
    category: 'data',
    keywords: ['stock', 'quote', 'market'],
    execute: async ({ symbol }) => {
      const price = PRICES[symbol.toUpperCase()];
      if (price === undefined) throw new Error(`unknown symbol ${symbol} (known: ${Object.keys(PRICES).join(', ')})`);
      return price;
    },
  },
  {
    name: 'get_quote',
    description: 'Price and previous close of a stock.',
    parameters: {
      type: 'object',
      properties: { symbol: { type: 'string', pattern: '^[A-Za-z]{1,5}$', description: 'Ticker symbol' } },
      required: ['symbol'],
    },
    returns: {
      type: 'object',
      properties: { symbol: { type: 'string' }, price: { type: 'number' }, previousClose: { type: 'number' } },
      required: ['symbol', 'price', 'previousClose'],
    },
    category: 'data',
    execute: ({ symbol }) => {
      const key = symbol.toUpperCase();
      if (!(key in PRICES)) throw new Error(`unknown symbol ${symbol}`);
      return { symbol: key, price: PRICES[key], previousClose: PREVIOUS_CLOSE[key] };
    },
  },
  {
    name: 'get_portfolio',
    description: 'Cash and positions of the account; remembers orders placed in this session.',
    parameters: [],
    returns: 'object',
    category: 'data',
    execute: (_args, context) => portfolioOf(context),
  },
  {
    name: 'place_order',
    description: 'Buy or sell shares at the current price. Needs approval: it changes the account.',
    parameters: {
      type: 'object',
      properties: {
        symbol: { type: 'string' },
        side: { type: 'string', enum: ['buy', 'sell'] },
        quantity: { type: 'integer', minimum: 1 },
      },
      required: ['symbol', 'side', 'quantity'],
    },
    returns: 'object',
    category: 'network',
    confirm: 'write',
    execute: ({ symbol, side, quantity }, context) => {
      const price = PRICES[symbol];
      if (price === undefined) throw new Error(`unknown symbol ${symbol}`);
      const portfolio = portfolioOf(context);
      const held = portfolio.positions[symbol] ?? 0;
      const cost = price * quantity;
      if (side === 'buy' && cost > portfolio.cash) throw new Error(`not enough cash: need ${cost.toFixed(2)}, have ${portfolio.cash.toFixed(2)}`);
      if (side === 'sell' && quantity > held) throw new Error(`cannot sell ${quantity} ${symbol}: only ${held} held`);
      portfolio.cash = Math.round((portfolio.cash + (side === 'buy' ? -cost : cost)) * 100) / 100;
      portfolio.positions[symbol] = held + (side === 'buy' ? quantity : -quantity);
      context.setState('portfolio', portfolio);
      return { status: 'filled', symbol, side, quantity, price };
    },
  },
  {
    name: 'list_regions',
    description: 'The sales regions.',
    parameters: [],
    returns: { type: 'array', items: { type: 'string' } },
    category: 'data',
    execute: () => Object.keys(SALES),
  },
  {
    name: 'get_sales',
    description: 'The sales of one region: a list of { product, amount }.',
    parameters: [{ name: 'region', description: 'A region from list_regions', type: 'string' }],
    returns: 'array',
    category: 'data',
    execute: async ({ region }) => {
      const sales = SALES[region];
      if (!sales) throw new Error(`unknown region ${region}`);
      return sales;
    },
  },
];
