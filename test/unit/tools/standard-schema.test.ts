// Unit tests for schema libraries as tool schemas (TOOLS.md §1): Zod 4 object schemas and any Standard
// Schema that produces JSON Schema, converted once at registration and validated by the central
// validator, so coercion, defaults and messages are those of the same schema written as JSON Schema.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { librarySchemaToJsonSchema } from '../../../src/tools/standard-schema.js';
import type { JsonSchemaObject, StandardSchemaLike, ToolDefinition } from '../../../src/tools/types.js';
import { failure } from '../../support/harness.js';

const orderZod = z.object({
  symbol: z.string().regex(/^[A-Z]{1,5}$/).describe('Ticker, e.g. AAPL'),
  side: z.enum(['buy', 'sell']),
  quantity: z.number().int().min(1).default(1),
  note: z.string().optional(),
});

const orderJson: JsonSchemaObject = {
  type: 'object',
  properties: {
    symbol: { type: 'string', pattern: '^[A-Z]{1,5}$', description: 'Ticker, e.g. AAPL' },
    side: { type: 'string', enum: ['buy', 'sell'] },
    quantity: { type: 'integer', minimum: 1, default: 1 },
    note: { type: 'string' },
  },
  required: ['symbol', 'side'],
};

function order(name: string, parameters: ToolDefinition['parameters'], returns: ToolDefinition['returns'] = 'object'): ToolDefinition {
  return { name, description: 'Places an order', parameters, returns, execute: (args) => args };
}

describe('Zod object schemas', () => {
  it('become JSON Schema at registration: what callers may send (defaults optional)', () => {
    const registry = new ToolRegistry();
    const tool = registry.register(order('place_order', orderZod));
    expect(tool.parametersSchema).toMatchObject({
      type: 'object',
      properties: {
        symbol: { type: 'string', pattern: '^[A-Z]{1,5}$', description: 'Ticker, e.g. AAPL' },
        side: { type: 'string', enum: ['buy', 'sell'] },
        quantity: { type: 'integer', minimum: 1, default: 1 },
        note: { type: 'string' },
      },
      required: ['symbol', 'side'],
      additionalProperties: false,
    });
    expect(tool.parametersSchema).not.toHaveProperty('$schema');
    // The registered tool holds plain, frozen data, not the Zod object.
    expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual(tool.parameters);
    expect(Object.isFrozen(tool.parameters)).toBe(true);
  });

  it.each([
    ['valid, with the default filled in', { symbol: 'AAPL', side: 'buy' }],
    ['a numeric string coerced for an integer', { symbol: 'MSFT', side: 'sell', quantity: '3' }],
    ['a wrong enum value', { symbol: 'AAPL', side: 'hold' }],
    ['a pattern mismatch and a missing argument', { symbol: 'apple' }],
    ['an unknown argument', { symbol: 'AAPL', side: 'buy', price: 10 }],
    ['below the minimum', { symbol: 'AAPL', side: 'buy', quantity: 0 }],
  ])('%s: the same outcome as the JSON Schema version', async (_label, args) => {
    const registry = new ToolRegistry();
    registry.register(order('with_zod', orderZod));
    registry.register(order('with_json', orderJson));
    const zodResult = await registry.execute('with_zod', args);
    const jsonResult = await registry.execute('with_json', args);
    expect(zodResult.success).toBe(jsonResult.success);
    expect(zodResult.data).toEqual(jsonResult.data);
    expect(zodResult.error?.replace('with_zod', 'X')).toBe(jsonResult.error?.replace('with_json', 'X'));
  });

  it('a script gets the same checks', async () => {
    const registry = new ToolRegistry();
    registry.register(order('place_order', orderZod));
    const interpreter = new Interpreter(registry, { print: () => {} });
    expect((await interpreter.run('LET o = CALL place_order { symbol: "NVDA", side: "buy", quantity: "2" }')).variables.o).toEqual({ symbol: 'NVDA', side: 'buy', quantity: 2 });
    const error = await failure(interpreter.run('CALL place_order { symbol: "NVDA", side: "short" }'));
    expect(error.kind).toBe('ToolArgumentError');
    expect(error.message).toMatch(/`side`: expected one of "buy", "sell", received string "short"/);
  });

  it('as returns: the result is checked against the output schema', async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: 'quote',
      description: 'A price quote',
      parameters: z.object({ symbol: z.string() }),
      returns: z.object({ symbol: z.string(), price: z.number().positive() }),
      execute: (args) => (args.symbol === 'BAD' ? { symbol: 'BAD', price: -1 } : { symbol: args.symbol!, price: 10 }),
    });
    expect(await registry.execute('quote', { symbol: 'OK' })).toMatchObject({ success: true, data: { symbol: 'OK', price: 10 } });
    expect(await registry.execute('quote', { symbol: 'BAD' })).toMatchObject({ success: false, code: 'ToolResultError' });
  });

  it('works in every registration form: Nuwa, Plaited and defineTool', async () => {
    const { defineTool } = await import('../../../src/tools/forms.js');
    const registry = new ToolRegistry();
    registry.register('nuwa_form', { description: 'd', parameters: orderZod, returns: 'object' }, (args) => args);
    registry.register('plaited_form', async (args) => ({ success: true, data: args }), { description: 'd', parameters: orderZod });
    registry.register(defineTool({ id: 'sdk-form', name: 'Sdk Form', description: 'd', input: orderZod, execute: async (input) => ({ success: true, data: input }) }));
    for (const name of ['nuwa_form', 'plaited_form', 'sdk_form']) {
      expect(await registry.execute(name, { symbol: 'AAPL', side: 'buy' })).toMatchObject({ success: true, data: { quantity: 1 } });
    }
  });

  it('a recursive schema (z.lazy-style getter) checks nested levels', async () => {
    const node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(node).optional();
      },
    });
    const registry = new ToolRegistry();
    registry.register(order('tree', z.object({ root: node })));
    expect((await registry.execute('tree', { root: { name: 'a', children: [{ name: 'b' }] } })).success).toBe(true);
    const deep = await registry.execute('tree', { root: { name: 'a', children: [{ name: 'b', children: [{ nom: 'c' }] }] } });
    expect(deep.error).toMatch(/`root\.children\[0\]\.children\[0\]` is missing the required key `name`/);
  });

  it('looser and stricter objects keep their meaning', async () => {
    const registry = new ToolRegistry();
    registry.register(order('loose', z.looseObject({ id: z.number() })));
    registry.register(order('strict', z.strictObject({ id: z.number() })));
    expect((await registry.execute('loose', { id: 1, more: true })).success).toBe(true);
    expect((await registry.execute('strict', { id: 1, more: true })).code).toBe('ToolArgumentError');
  });

  it('refuses a schema that cannot be JSON Schema, or is not an object, at registration', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(order('dated', z.object({ when: z.date() })))).toThrow(/tool "dated": its parameters schema \(zod\) cannot be expressed as JSON Schema: .*Date/);
    expect(() => registry.register(order('listy', z.array(z.string()) as never))).toThrow(/must have type "object", not "array"/);
    expect(registry.names()).toEqual([]);
  });
});

describe('any Standard Schema', () => {
  function standard(vendor: string, jsonSchema?: StandardSchemaLike['~standard']['jsonSchema']): StandardSchemaLike {
    return { '~standard': { vendor, version: 1, ...(jsonSchema ? { jsonSchema } : {}) } };
  }

  it('uses Standard JSON Schema (~standard.jsonSchema), asking for draft-07, input for parameters and output for returns', async () => {
    const asked: string[] = [];
    const schema = standard('acme', {
      input: ({ target }) => (asked.push(`input ${target}`), { $schema: 'x', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
      output: ({ target }) => (asked.push(`output ${target}`), { type: 'number' }),
    });
    const registry = new ToolRegistry();
    registry.register({ name: 'double', description: 'doubles', parameters: schema, returns: schema, execute: (args) => (args.n as number) * 2 });
    expect(asked).toEqual(['input draft-07', 'output draft-07']);
    expect(await registry.execute('double', { n: '21' })).toMatchObject({ success: true, data: 42 });
    expect(registry.lookup('double')!.parametersSchema).not.toHaveProperty('$schema');
  });

  it('falls back to draft-2020-12 when the library cannot target draft-07', () => {
    const schema = standard('modern', {
      input: ({ target }) => {
        if (target !== 'draft-2020-12') throw new Error(`unsupported target ${target}`);
        return { type: 'object', properties: {} };
      },
      output: () => ({}),
    });
    expect(librarySchemaToJsonSchema('t', 'parameters', schema)).toEqual({ type: 'object', properties: {} });
  });

  it('refuses a Standard Schema that cannot produce JSON Schema, with a clear message', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(order('valid_only', standard('valibot')))).toThrow(
      /tool "valid_only": its parameters are a Standard Schema from valibot that cannot produce JSON Schema \(it has no ~standard\.jsonSchema\); pass a JSON Schema/,
    );
  });

  it('refuses a converter that fails or returns something else', () => {
    const failing = standard('acme', {
      input: () => {
        throw new Error('recursive types are not supported');
      },
      output: () => ({}),
    });
    expect(() => librarySchemaToJsonSchema('t', 'parameters', failing)).toThrow(/cannot be expressed as JSON Schema: recursive types are not supported/);
    const odd = standard('acme', { input: () => 'object', output: () => ({}) });
    expect(() => librarySchemaToJsonSchema('t', 'parameters', odd)).toThrow(/converted to something that is not a JSON Schema/);
  });

  it('refuses a schema object of a library that is not a Standard Schema (e.g. Zod 3)', () => {
    const zod3Like = { _def: { typeName: 'ZodObject' }, parse: () => ({}), safeParse: () => ({ success: true }) };
    expect(() => new ToolRegistry().register(order('old', zod3Like as never))).toThrow(/its parameters are a schema object that cannot produce JSON Schema/);
  });

  it('leaves Nuwa parameter lists and JSON Schemas alone', () => {
    expect(librarySchemaToJsonSchema('t', 'parameters', [{ name: 'a', description: 'a', type: 'string' }])).toBeUndefined();
    expect(librarySchemaToJsonSchema('t', 'parameters', orderJson)).toBeUndefined();
    expect(librarySchemaToJsonSchema('t', 'returns', 'number')).toBeUndefined();
  });
});
