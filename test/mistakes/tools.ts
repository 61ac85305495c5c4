// The tools the mistakes corpus (test/mistakes/*.nuwa) can call: the kind of host an agent plans
// against (weather, markets, travel, files, CRM, mail, reports). They return plausible fixed data;
// what the corpus checks is the messages a script's mistakes get, so the scripts must be able to run
// as far as their one run-time mistake, if they have one.
import type { JsonObject, ToolDefinition, ToolRegistry } from '../../src/index.js';

const text = (name: string, description: string) => ({ name, type: 'string' as const, description });
const number = (name: string, description: string) => ({ name, type: 'number' as const, description });
const optional = <P extends object>(parameter: P) => ({ ...parameter, required: false });

const PRICES: JsonObject = { ACME: 98.5, GLOBEX: 143.2, INITECH: 12.75, UMBRELLA: 310 };

const TOOLS: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: [text('city', 'city name')],
    returns: 'object',
    execute: async ({ city }) => ({ city, temp: city === 'Oslo' ? 3 : 21, condition: city === 'Oslo' ? 'snow' : 'sunny', wind: 12 }),
  },
  {
    name: 'get_forecast',
    description: 'Daily forecast for a city.',
    parameters: [text('city', 'city name'), optional(number('days', 'how many days'))],
    returns: 'array',
    execute: async ({ days }) => Array.from({ length: Number(days ?? 3) }, (_, i) => ({ day: i, temp: 10 + i, rain: i % 2 === 0 })),
  },
  {
    name: 'get_price',
    description: 'Latest price of a stock symbol.',
    parameters: [text('symbol', 'ticker symbol')],
    returns: 'object',
    execute: async ({ symbol }) => ({ symbol, price: PRICES[String(symbol)] ?? 50, change: -1.5, volume: 120000 }),
  },
  {
    name: 'get_portfolio',
    description: 'Holdings of the account: symbol → quantity.',
    parameters: [],
    returns: 'object',
    execute: async () => ({ ACME: 10, GLOBEX: 4, INITECH: 200 }),
  },
  {
    name: 'place_order',
    description: 'Places a market order.',
    parameters: [text('symbol', 'ticker symbol'), text('side', 'buy or sell'), number('qty', 'quantity')],
    returns: 'object',
    confirm: 'write',
    execute: async ({ symbol, side, qty }) => ({ id: 'ord-1', symbol, side, qty, status: 'filled' }),
  },
  {
    name: 'search_flights',
    description: 'Flights between two cities on a date.',
    parameters: [text('from', 'origin city'), text('to', 'destination city'), text('date', 'YYYY-MM-DD')],
    returns: 'array',
    execute: async ({ from, to }) => [
      { id: 'F1', from, to, price: 320, stops: 1, airline: 'Nordic' },
      { id: 'F2', from, to, price: 190, stops: 0, airline: 'Blue' },
      { id: 'F3', from, to, price: 250, stops: 2, airline: 'Red' },
    ],
  },
  {
    name: 'book_flight',
    description: 'Books a flight by id.',
    parameters: [text('flight_id', 'flight id'), text('passenger', 'full name')],
    returns: 'object',
    confirm: 'write',
    execute: async ({ flight_id, passenger }) => ({ booking: 'B-77', flight_id, passenger, status: 'confirmed' }),
  },
  {
    name: 'find_hotels',
    description: 'Hotels in a city under a nightly budget.',
    parameters: [text('city', 'city'), number('max_price', 'nightly budget')],
    returns: 'array',
    execute: async ({ city }) => [
      { name: 'Harbour Inn', city, price: 120, rating: 4.2 },
      { name: 'Grand', city, price: 260, rating: 4.8 },
    ],
  },
  {
    name: 'list_files',
    description: 'Files in a folder.',
    parameters: [text('folder', 'folder path')],
    returns: 'array',
    execute: async () => [
      { name: 'q1.csv', size: 2048 },
      { name: 'notes.txt', size: 512 },
      { name: 'q2.csv', size: 4096 },
    ],
  },
  {
    name: 'read_file',
    description: 'Text of a file.',
    parameters: [text('path', 'file path')],
    returns: 'string',
    execute: async ({ path }) => `contents of ${String(path)}\nline two`,
  },
  {
    name: 'write_file',
    description: 'Writes text to a file.',
    parameters: [text('path', 'file path'), text('content', 'text')],
    returns: 'object',
    confirm: 'write',
    execute: async ({ path, content }) => ({ path, bytes: String(content).length }),
  },
  {
    name: 'find_contact',
    description: 'CRM contact by email.',
    parameters: [text('email', 'email address')],
    returns: 'object',
    execute: async ({ email }) => ({ id: 'C-1', email, name: 'Ada Lovelace', company: 'Analytical', stage: 'lead', score: 72 }),
  },
  {
    name: 'list_deals',
    description: 'Open deals of the sales pipeline.',
    parameters: [optional(text('stage', 'pipeline stage'))],
    returns: 'array',
    execute: async () => [
      { id: 'D1', name: 'Acme renewal', amount: 12000, stage: 'proposal', owner: 'sam' },
      { id: 'D2', name: 'Globex pilot', amount: 4000, stage: 'qualified', owner: 'kim' },
      { id: 'D3', name: 'Initech upsell', amount: 30000, stage: 'proposal', owner: 'sam' },
    ],
  },
  {
    name: 'update_contact',
    description: 'Updates fields of a CRM contact.',
    parameters: [text('id', 'contact id'), { name: 'fields', type: 'object', description: 'fields to set' }],
    returns: 'object',
    confirm: 'write',
    execute: async ({ id, fields }) => ({ id, updated: Object.keys(fields as object) }),
  },
  {
    name: 'send_email',
    description: 'Sends an email.',
    parameters: [text('to', 'recipient'), text('subject', 'subject'), text('body', 'body')],
    returns: 'object',
    confirm: 'write',
    execute: async ({ to }) => ({ sent: true, to }),
  },
  {
    name: 'fetch_news',
    description: 'Headlines about a topic.',
    parameters: [text('topic', 'topic'), optional(number('limit', 'how many'))],
    returns: 'array',
    execute: async ({ topic }) => [
      { title: `${String(topic)} rallies`, source: 'Wire', score: 0.8 },
      { title: `${String(topic)} slips`, source: 'Daily', score: -0.4 },
    ],
  },
  {
    name: 'get_sales',
    description: 'Sales per region for a quarter.',
    parameters: [text('quarter', 'e.g. Q1')],
    returns: 'object',
    execute: async () => ({ north: 1200, south: 950, east: 1430, west: 610 }),
  },
  {
    name: 'create_report',
    description: 'Stores a report and returns its id.',
    parameters: [text('title', 'title'), text('body', 'text')],
    returns: 'object',
    confirm: 'write',
    execute: async ({ title }) => ({ id: 'R-9', title }),
  },
  {
    name: 'get_orders',
    description: 'Orders of a customer.',
    parameters: [text('customer', 'customer id')],
    returns: 'array',
    execute: async () => [
      { id: 'O1', total: 40, status: 'shipped' },
      { id: 'O2', total: 125.5, status: 'pending' },
    ],
  },
];

export function registerMistakeTools(registry: ToolRegistry): void {
  for (const tool of TOOLS) registry.register(tool);
}
