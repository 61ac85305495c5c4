// Types from a Nuwa parameter list: each listed name becomes a property of its type (string,
// number, boolean, null, array, object, any), `required: false` makes it optional.
import { expectTypeOf } from 'vitest';
import { ToolRegistry, type JsonObject, type JsonValue, type ToolParameter } from '../../src/index.js';

const registry = new ToolRegistry();

registry.register(
  'convert',
  {
    description: 'Converts an amount between currencies',
    parameters: [
      { name: 'amount', description: 'The amount', type: 'number' },
      { name: 'to', type: 'string' }, // no description: the runtime accepts it, so do the types
      { name: 'round', type: 'boolean', required: false },
      { name: 'rates', type: 'object', required: false },
      { name: 'path', type: 'array', required: false },
      { name: 'extra', type: 'any', required: false },
      { name: 'nothing', type: 'null', required: false },
    ],
    returns: 'number',
  },
  ({ amount, to, round, rates, path, extra, nothing }) => {
    expectTypeOf(amount).toEqualTypeOf<number>();
    expectTypeOf(to).toEqualTypeOf<string>();
    expectTypeOf(round).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(rates).toEqualTypeOf<JsonObject | undefined>();
    expectTypeOf(path).toEqualTypeOf<JsonValue[] | undefined>();
    expectTypeOf(extra).toEqualTypeOf<JsonValue | undefined>();
    expectTypeOf(nothing).toEqualTypeOf<null | undefined>();
    const rate = rates?.[to];
    const converted = amount * (typeof rate === 'number' ? rate : 1);
    return round ? Math.round(converted) : converted;
  },
);

// `as const` outside the registration works the same.
const params = [{ name: 'n', type: 'number' }] as const;
registry.register({ name: 'double', description: 'Doubles n', parameters: params, returns: 'number', execute: ({ n }) => n * 2 });

// A list whose names the compiler does not know: the general JSON object.
const listed: ToolParameter[] = [{ name: 'n', type: 'number' }];
registry.register({
  name: 'general',
  description: 'Names from elsewhere',
  parameters: listed,
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<JsonObject>();
    return args.n ?? null;
  },
});

// What must not compile.
registry.register({
  name: 'bad_method',
  description: 'A number method on a string',
  parameters: [{ name: 's', type: 'string' }],
  // @ts-expect-error: `s` is a string
  execute: ({ s }) => s.toFixed(),
});
registry.register({
  name: 'bad_optional',
  description: 'An optional argument used as if it were always there',
  parameters: [{ name: 'limit', type: 'number', required: false }],
  // @ts-expect-error: `limit` may be undefined
  execute: ({ limit }) => limit.toFixed(),
});
registry.register({
  name: 'bad_result',
  description: 'A string where a number is declared',
  parameters: [],
  returns: 'number',
  // @ts-expect-error: the result must be a number
  execute: () => 'forty-two',
});
registry.register({
  name: 'bad_type',
  description: 'A type that does not exist',
  // @ts-expect-error: `integer` is not a Nuwa type (JSON Schema has it)
  parameters: [{ name: 'n', type: 'integer' }],
  execute: () => null,
});
