// Types from a JSON Schema written as a literal (`as const`, or inline in the registration), by
// json-schema-to-ts: required properties are there, others possibly undefined, defaults filled in,
// and unknown properties refused as the runtime refuses unknown arguments.
import { expectTypeOf } from 'vitest';
import { ToolRegistry, defineTool, type JsonObject, type ToolArgs } from '../../src/index.js';

const registry = new ToolRegistry();

const orderSchema = {
  type: 'object',
  properties: {
    symbol: { type: 'string' },
    side: { type: 'string', enum: ['buy', 'sell'] },
    quantity: { type: 'integer', minimum: 1, default: 1 },
    note: { type: 'string' },
  },
  required: ['symbol', 'side'],
} as const;

registry.register({
  name: 'place_order',
  description: 'Buys or sells shares',
  parameters: orderSchema,
  returns: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const,
  execute: ({ symbol, side, quantity, note }) => {
    expectTypeOf(side).toEqualTypeOf<'buy' | 'sell'>();
    expectTypeOf(quantity).toEqualTypeOf<number>();
    expectTypeOf(note).toEqualTypeOf<string | undefined>();
    return { status: `${side} ${quantity.toFixed(0)} ${symbol.toLowerCase()}` };
  },
});

// Inline, no `as const` needed: the registration reads the literal as it is written.
registry.register({
  name: 'lower',
  description: 'Lower case',
  parameters: { type: 'object', properties: { s: { type: 'string' }, times: { type: 'number' } }, required: ['s'] },
  returns: 'string',
  execute: ({ s, times }) => s.toLowerCase().repeat(times ?? 1),
});

// The parameters' type, for a function written apart from its registration.
type OrderArgs = ToolArgs<typeof orderSchema>;
expectTypeOf<OrderArgs>().toEqualTypeOf<{ symbol: string; side: 'buy' | 'sell'; quantity: number; note?: string }>();
const placeOrder = (args: OrderArgs) => `${args.side} ${args.symbol}`;
registry.register('place_order_2', { description: 'Places an order', parameters: orderSchema, returns: 'string' }, placeOrder);

// `type` may be left out (parameters are an object), and `additionalProperties: true` lets other
// arguments through, as at run time.
registry.register({
  name: 'open',
  description: 'Takes anything besides `id`',
  parameters: { properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: true },
  execute: (args) => {
    expectTypeOf(args.id).toEqualTypeOf<number>();
    return args.anything ?? null;
  },
});

// A schema whose shape the compiler does not know: the general JSON object, as before.
const built: JsonObject = { type: 'object', properties: {} };
registry.register({ name: 'general', description: 'Built at run time', parameters: { type: 'object', ...built }, execute: (args) => args });

// sdkwork's input.
defineTool({
  id: 'file-read',
  name: 'File Read',
  description: 'Reads a file',
  input: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: async ({ path }) => ({ success: true, data: path.toUpperCase() }),
});

// What must not compile.
registry.register({
  name: 'bad_method',
  description: 'A number method on a string',
  parameters: orderSchema,
  // @ts-expect-error: `symbol` is a string
  execute: ({ symbol }) => symbol.toFixed(),
});
registry.register({
  name: 'bad_optional',
  description: 'An optional argument used as if it were always there',
  parameters: orderSchema,
  // @ts-expect-error: `note` may be undefined
  execute: ({ note }) => note.length,
});
registry.register({
  name: 'bad_unknown',
  description: 'An argument the schema does not declare (the runtime refuses it)',
  parameters: orderSchema,
  // @ts-expect-error: there is no `price`
  execute: (args) => args.price,
});
registry.register({
  name: 'bad_result',
  description: 'A result without the required `status`',
  parameters: orderSchema,
  returns: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  // @ts-expect-error: `status` is required
  execute: () => ({ state: 'done' }),
});
