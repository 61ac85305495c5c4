// $ref cycles that never go down into the value (src/tools/ref-cycles.ts): found and named before
// Ajv would recurse until the stack overflows; recursion through properties or items is fine.
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { findRefCycle } from '../../../src/tools/ref-cycles.js';
import type { JsonSchema } from '../../../src/tools/types.js';

describe('findRefCycle', () => {
  it.each<[string, JsonSchema, string]>([
    ['a property referring to itself', { type: 'object', properties: { a: { $ref: '#/properties/a' } } }, '#/properties/a'],
    ['the root through allOf', { type: 'object', allOf: [{ $ref: '#' }] }, '#'],
    ['a definition through not', { $defs: { n: { not: { $ref: '#/$defs/n' } } }, type: 'object', properties: { x: { $ref: '#/$defs/n' } } }, '#/$defs/n'],
    ['a definition through anyOf and if', { $defs: { n: { anyOf: [{ if: { $ref: '#/$defs/n' } }] } }, type: 'object' }, '#/$defs/n'],
    ['a key with a slash and a tilde', { type: 'object', properties: { 'a/b~': { $ref: '#/properties/a~1b~0' } } }, '#/properties/a~1b~0'],
  ])('finds %s', (_what, schema, where) => {
    expect(findRefCycle(schema)).toBe(where);
  });

  it('finds a cycle of two definitions, at one of them', () => {
    expect(findRefCycle({ type: 'object', properties: { a: { $ref: '#/$defs/b' } }, $defs: { b: { $ref: '#/$defs/c' }, c: { $ref: '#/$defs/b' } } })).toMatch(/^#\/\$defs\/[bc]$/);
  });

  it.each<[string, JsonSchema]>([
    ['a tree through items', { type: 'object', properties: { root: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } } }],
    ['a list through additionalProperties', { type: 'object', additionalProperties: { $ref: '#' } }],
    ['shared definitions', { type: 'object', properties: { a: { $ref: '#/$defs/s' }, b: { allOf: [{ $ref: '#/$defs/s' }, { $ref: '#/$defs/s' }] } }, $defs: { s: { type: 'string' } } }],
    ['a reference to another document', { type: 'object', properties: { a: { $ref: 'other.json#/x' } } }],
    ['no references', { type: 'object', properties: { a: { type: 'string' } } }],
  ])('accepts %s', (_what, schema) => {
    expect(findRefCycle(schema)).toBeUndefined();
  });

  it('walks deep schemas without recursion', () => {
    let deep: JsonSchema = { type: 'string' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } };
    expect(findRefCycle(deep)).toBeUndefined();
  });

  it('registering such a tool, for parameters or returns, fails with that message', () => {
    const registry = new ToolRegistry();
    const cyclic: JsonSchema = { type: 'object', properties: { a: { $ref: '#/properties/a' } } };
    expect(() => registry.register({ name: 't', description: 'd', parameters: cyclic, returns: 'any', execute: () => null })).toThrow('tool "t": its parameters schema has a $ref cycle at #/properties/a');
    expect(() => registry.register({ name: 'r', description: 'd', parameters: [], returns: cyclic, execute: () => null })).toThrow('tool "r": its returns schema has a $ref cycle at #/properties/a');
  });
});
