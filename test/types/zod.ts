// Types from a Zod schema (API.md v1.1, "Types flow from schemas"): `execute`'s arguments are the
// schema's output type, with no cast, in every registration form; `returns` checks the result.
// Compiled by `tsc --strict` (test/types.test.ts and npm run typecheck), never run.
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { ToolRegistry, defineTool } from '../../src/index.js';

const registry = new ToolRegistry();

// One-object form: the arguments are the schema's output (a default fills `quantity` in).
registry.register({
  name: 'place_order',
  description: 'Buys or sells shares',
  parameters: z.object({ symbol: z.string(), side: z.enum(['buy', 'sell']), quantity: z.number().int().default(1), note: z.string().optional() }),
  returns: z.object({ status: z.string() }),
  execute: ({ symbol, side, quantity, note }) => {
    expectTypeOf(side).toEqualTypeOf<'buy' | 'sell'>();
    expectTypeOf(quantity).toEqualTypeOf<number>();
    expectTypeOf(note).toEqualTypeOf<string | undefined>();
    return { status: `${side} ${quantity.toFixed(0)} ${symbol.toUpperCase()}` };
  },
});

// The Nuwa form, name, schema, function: the function is typed from the schema beside it.
registry.register('lower', { description: 'Lower case', parameters: z.object({ s: z.string() }), returns: z.string() }, ({ s }) => s.toLowerCase());

// An async function: its promise's value is checked.
registry.register({
  name: 'count',
  description: 'Counts the items',
  parameters: z.object({ items: z.array(z.number()) }),
  returns: z.number(),
  execute: async ({ items }) => items.reduce((sum, n) => sum + n, 0),
});

// sdkwork's defineTool: `input` types `execute`'s input.
registry.register(
  defineTool({
    id: 'word-count',
    name: 'Word Count',
    description: 'Counts the words of a text',
    input: z.object({ text: z.string() }),
    execute: async ({ text }) => ({ success: true, data: text.split(/\s+/).length }),
  }),
);

// What must not compile.
registry.register({
  name: 'bad_method',
  description: 'A number method on a string',
  parameters: z.object({ s: z.string() }),
  // @ts-expect-error: `s` is a string
  execute: ({ s }) => s.toFixed(2),
});
registry.register({
  name: 'bad_result',
  description: 'A string where the schema says number',
  parameters: z.object({ n: z.number() }),
  returns: z.number(),
  // @ts-expect-error: the result must be a number
  execute: ({ n }) => n.toFixed(2),
});
registry.register('bad_name', { description: 'An argument the schema does not have', parameters: z.object({ s: z.string() }) }, (args) =>
  // @ts-expect-error: there is no `t`
  args.t.toUpperCase(),
);
defineTool({
  id: 'bad-input',
  name: 'bad_input',
  description: 'A number method on a string',
  input: z.object({ text: z.string() }),
  // @ts-expect-error: `text` is a string
  execute: async ({ text }) => ({ success: true, data: text.toFixed() }),
});
