// A tool with a bug, for examples/errors/tool-result.nuwa: it declares that it returns a number
// but returns the rate as text, as the web service it copies from does.
//   nuwa run examples/errors/tool-result.nuwa --tools examples/errors/tools.mjs

export default [
  {
    name: 'get_exchange_rate',
    description: 'How many units of `to` one unit of `from` buys.',
    parameters: [
      { name: 'from', description: 'Currency code, e.g. EUR', type: 'string' },
      { name: 'to', description: 'Currency code, e.g. USD', type: 'string' },
    ],
    returns: 'number',
    category: 'network',
    execute: ({ from, to }) => (from === to ? 1 : '1.0842'),
  },
];
