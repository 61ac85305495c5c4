// Unit tests for src/tools/schema.ts: parameter lists and JSON Schemas → one JSON Schema form
// (TOOLS.md §1, §5 `schemas`).
import { describe, expect, it } from 'vitest';
import { NUWA_TYPES, describeSchemaType, nuwaTypeToSchema, parametersToSchema, returnsToSchema } from '../../../src/tools/schema.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { JsonSchemaObject, NuwaType, ToolParameter } from '../../../src/tools/types.js';

describe('NUWA_TYPES / nuwaTypeToSchema', () => {
  it('lists exactly the seven Nuwa types', () => {
    expect([...NUWA_TYPES].sort()).toEqual(['any', 'array', 'boolean', 'null', 'number', 'object', 'string']);
  });

  it.each(['string', 'number', 'boolean', 'null', 'array', 'object'] as NuwaType[])('maps %s to { type: %s }', (type) => {
    expect(nuwaTypeToSchema(type)).toEqual({ type });
  });

  it('maps any to the empty schema (accepts every value)', () => {
    expect(nuwaTypeToSchema('any')).toEqual({});
  });
});

describe('parametersToSchema: Nuwa parameter lists', () => {
  it('makes every parameter required by default and honours required: false', () => {
    const schema = parametersToSchema('t', [
      { name: 'a', description: 'first', type: 'string' },
      { name: 'b', description: 'second', type: 'number', required: false },
      { name: 'c', description: 'third', type: 'boolean', required: true },
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', description: 'first' },
        b: { type: 'number', description: 'second' },
        c: { type: 'boolean', description: 'third' },
      },
      required: ['a', 'c'],
      additionalProperties: false,
    });
  });

  it('converts every NuwaType, and `any` has no type keyword', () => {
    const parameters: ToolParameter[] = NUWA_TYPES.map((type) => ({ name: `p_${type}`, description: `a ${type}`, type }));
    const schema = parametersToSchema('t', parameters);
    expect(schema.required).toEqual(NUWA_TYPES.map((type) => `p_${type}`));
    for (const type of NUWA_TYPES) {
      const property = schema.properties![`p_${type}`] as Record<string, unknown>;
      if (type === 'any') expect(property).toEqual({ description: 'a any' });
      else expect(property).toEqual({ type, description: `a ${type}` });
    }
  });

  it('gives an empty parameter list an object schema that accepts no arguments', () => {
    expect(parametersToSchema('t', [])).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('refuses an unknown type with a message naming the parameter and the valid types', () => {
    const bad = [{ name: 'when', description: 'd', type: 'date' }] as unknown as ToolParameter[];
    expect(() => parametersToSchema('t', bad)).toThrow(TypeError);
    expect(() => parametersToSchema('t', bad)).toThrow(/tool "t": parameter "when" has type "date"; use one of string, number, boolean, null, array, object, any/);
  });

  it('refuses a parameter declared twice', () => {
    const twice: ToolParameter[] = [
      { name: 'x', description: 'd', type: 'string' },
      { name: 'x', description: 'd', type: 'number' },
    ];
    expect(() => parametersToSchema('t', twice)).toThrow(TypeError);
    expect(() => parametersToSchema('t', twice)).toThrow(/parameter "x" is declared twice/);
  });

  it('refuses a parameter without a name', () => {
    const nameless = [{ description: 'd', type: 'string' }] as unknown as ToolParameter[];
    expect(() => parametersToSchema('t', nameless)).toThrow(TypeError);
    expect(() => parametersToSchema('t', nameless)).toThrow(/every parameter needs a name/);
    expect(() => parametersToSchema('t', [{ name: '', description: 'd', type: 'string' }])).toThrow(/needs a name/);
  });
});

describe('parametersToSchema: JSON Schema parameters', () => {
  it('keeps every keyword and adds additionalProperties: false when not set', () => {
    const input: JsonSchemaObject = {
      type: 'object',
      description: 'the order',
      properties: {
        qty: { type: 'integer', minimum: 1, default: 1 },
        sku: { type: 'string', pattern: '^[A-Z]+$' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
      required: ['sku'],
    };
    const schema = parametersToSchema('t', input);
    expect(schema).toEqual({ ...input, additionalProperties: false });
  });

  it('does not change the schema object it was given', () => {
    const input: JsonSchemaObject = { type: 'object', properties: { a: { type: 'string' } } };
    parametersToSchema('t', input);
    expect(input).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(Object.hasOwn(input, 'additionalProperties')).toBe(false);
  });

  it('keeps additionalProperties when the schema sets it (true, false or a schema)', () => {
    expect(parametersToSchema('t', { type: 'object', properties: {}, additionalProperties: true }).additionalProperties).toBe(true);
    expect(parametersToSchema('t', { type: 'object', properties: {}, additionalProperties: false }).additionalProperties).toBe(false);
    expect(parametersToSchema('t', { type: 'object', additionalProperties: { type: 'number' } }).additionalProperties).toEqual({ type: 'number' });
  });

  it('accepts a schema without `type` and gives it type object', () => {
    const schema = parametersToSchema('t', { properties: { a: { type: 'string' } } } as unknown as JsonSchemaObject);
    expect(schema.type).toBe('object');
    expect(schema.properties).toEqual({ a: { type: 'string' } });
  });

  it.each([
    ['a string', 'abc'],
    ['a number', 42],
    ['null', null],
    ['a boolean', true],
  ])('refuses %s as parameters with a TypeError', (_label, value) => {
    expect(() => parametersToSchema('t', value as unknown as JsonSchemaObject)).toThrow(TypeError);
    expect(() => parametersToSchema('t', value as unknown as JsonSchemaObject)).toThrow(/tool "t": parameters must be a list of \{ name, description, type \} or a JSON Schema object/);
  });

  it('refuses a JSON Schema whose type is not object', () => {
    const arraySchema = { type: 'array', items: {} } as unknown as JsonSchemaObject;
    expect(() => parametersToSchema('t', arraySchema)).toThrow(TypeError);
    expect(() => parametersToSchema('t', arraySchema)).toThrow(/must have type "object", not "array"/);
  });
});

describe('returnsToSchema', () => {
  it.each(['string', 'number', 'boolean', 'null', 'array', 'object'] as NuwaType[])('maps returns %s to { type }', (type) => {
    expect(returnsToSchema('t', type)).toEqual({ type });
  });

  it('maps any and a missing returns to the empty schema', () => {
    expect(returnsToSchema('t', 'any')).toEqual({});
    expect(returnsToSchema('t', undefined)).toEqual({});
  });

  it('passes a JSON Schema (object or boolean) through unchanged', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
    expect(returnsToSchema('t', schema)).toBe(schema);
    expect(returnsToSchema('t', true)).toBe(true);
  });

  it('refuses a type name that is not a NuwaType', () => {
    expect(() => returnsToSchema('t', 'text' as NuwaType)).toThrow(TypeError);
    expect(() => returnsToSchema('t', 'text' as NuwaType)).toThrow(/tool "t": returns "text" is not a type; use one of string, number, boolean, null, array, object, any or a JSON Schema/);
  });

  it('refuses a returns that is neither a type name nor a schema', () => {
    expect(() => returnsToSchema('t', 42 as unknown as NuwaType)).toThrow(/returns must be a type name or a JSON Schema/);
    expect(() => returnsToSchema('t', null as unknown as NuwaType)).toThrow(TypeError);
  });
});

describe('describeSchemaType', () => {
  it('describes schemas briefly for messages', () => {
    expect(describeSchemaType({})).toBe('any value');
    expect(describeSchemaType({ description: 'x' })).toBe('any value');
    expect(describeSchemaType(true)).toBe('any value');
    expect(describeSchemaType({ type: 'number' })).toBe('number');
    expect(describeSchemaType({ type: 'array' })).toBe('list');
    expect(describeSchemaType({ type: ['string', 'null'] })).toBe('string or null');
    expect(describeSchemaType({ enum: ['a', 1] })).toBe('one of "a", 1');
  });
});

describe('registration applies the same schema rules', () => {
  const noop = () => null;

  it('throws the schema TypeError when a tool is registered with an unknown parameter type', () => {
    const registry = new ToolRegistry();
    expect(() =>
      registry.register('t', { description: 'd', parameters: [{ name: 'x', description: 'd', type: 'int' as NuwaType }], returns: 'any' }, noop),
    ).toThrow(/parameter "x" has type "int"/);
    expect(registry.has('t')).toBe(false);
  });

  it('throws a TypeError for a JSON Schema Ajv cannot compile', () => {
    const registry = new ToolRegistry();
    const broken = { type: 'object', properties: { a: { type: 'nonsense' } } } as unknown as JsonSchemaObject;
    expect(() => registry.register('t', { description: 'd', parameters: broken, returns: 'any' }, noop)).toThrow(TypeError);
    expect(() => registry.register('t', { description: 'd', parameters: broken, returns: 'any' }, noop)).toThrow(/not a valid JSON Schema/);
  });

  it('registers two tools whose schemas share $id and $schema', () => {
    const registry = new ToolRegistry();
    const schema: JsonSchemaObject = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:shared',
      type: 'object',
      properties: { a: { type: 'string' } },
    };
    registry.register('one', { description: 'd', parameters: schema, returns: 'any' }, noop);
    registry.register('two', { description: 'd', parameters: { ...schema }, returns: 'any' }, noop);
    expect(registry.names()).toEqual(['one', 'two']);
  });
});
