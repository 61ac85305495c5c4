// What the checker knows about a value without running the script: the types it can have, and,
// when it is the same on every path, the value itself (from literals) or the JSON Schema it
// matches (a tool's declared result, which the runtime enforces before a script sees it).
//
// Knowledge only ever shrinks to something safe: where two paths meet, shapes join into one that
// allows both; where nothing is known, the shape is ANY. An error is reported only when a shape
// rules out every value that would succeed.
import type { JsonSchema } from '../tools/types.js';
import { equals, NuwaList, NuwaObject, typeName, type Value } from '../values/values.js';

export const NULL = 1;
export const BOOLEAN = 2;
export const NUMBER = 4;
export const STRING = 8;
export const LIST = 16;
export const OBJECT = 32;
export const ALL_TYPES = 63;

const TYPE_BITS: Record<string, number> = { null: NULL, boolean: BOOLEAN, number: NUMBER, integer: NUMBER, string: STRING, list: LIST, array: LIST, object: OBJECT };

export interface Shape {
  /** The types the value can have (a set of the bits above). */
  readonly types: number;
  /** The value itself, when it is the same on every path. */
  readonly value?: Value;
  /** A JSON Schema object the value certainly matches. */
  readonly schema?: { readonly [keyword: string]: unknown };
  /** When the value is a list: at most this many items. */
  readonly maxItems?: number;
  /** When the value is a list: what its items are. */
  readonly items?: Shape;
  /** Where the knowledge comes from, for messages: "the declared result of `get_price`". */
  readonly source?: string;
}

export const ANY: Shape = { types: ALL_TYPES };

export function ofTypes(types: number): Shape {
  return types === ALL_TYPES ? ANY : { types };
}

export function constant(value: Value): Shape {
  const types = TYPE_BITS[typeName(value)]!;
  return value instanceof NuwaList ? { types, value, maxItems: value.length } : { types, value };
}

export function isConstant(shape: Shape): boolean {
  return shape.value !== undefined;
}

/** True when the value is certainly of one of the types in `mask`. */
export function only(shape: Shape, mask: number): boolean {
  return (shape.types & ~mask) === 0;
}

/** True when the value can never be of a type in `mask`. */
export function never(shape: Shape, mask: number): boolean {
  return (shape.types & mask) === 0;
}

function sameValue(a: Value, b: Value): boolean {
  try {
    return equals(a, b);
  } catch {
    return false; // too deep to compare: not known to be equal
  }
}

/** A shape that allows everything either shape allows (where two paths meet). */
export function join(a: Shape, b: Shape): Shape {
  if (a === b) return a;
  if (a.value !== undefined && b.value !== undefined && sameValue(a.value, b.value)) return a;
  const out: { -readonly [K in keyof Shape]: Shape[K] } = { types: a.types | b.types };
  if (a.schema !== undefined && a.schema === b.schema) out.schema = a.schema;
  if (a.source !== undefined && a.source === b.source) out.source = a.source;
  if (out.types & LIST) {
    const bound = joinBound(a, b);
    if (bound !== undefined) out.maxItems = bound;
    const aItems = (a.types & LIST) === 0 ? null : elementShape(a);
    const bItems = (b.types & LIST) === 0 ? null : elementShape(b);
    const items = aItems === null ? bItems! : bItems === null ? aItems : join(aItems, bItems);
    if (items !== ANY) out.items = items;
  }
  return out.schema === undefined && out.maxItems === undefined && out.items === undefined && out.source === undefined ? ofTypes(out.types) : out;
}

function joinBound(a: Shape, b: Shape): number | undefined {
  if ((a.types & LIST) === 0) return listBound(b);
  if ((b.types & LIST) === 0) return listBound(a);
  const x = listBound(a);
  const y = listBound(b);
  return x === undefined || y === undefined ? undefined : Math.max(x, y);
}

/** When the value is a list: an upper bound on its length, if one is known. */
export function listBound(shape: Shape): number | undefined {
  return shape.value instanceof NuwaList ? shape.value.length : shape.maxItems;
}

/** What the items of a list value are. */
export function elementShape(shape: Shape): Shape {
  if (shape.value instanceof NuwaList) {
    let out: Shape | undefined;
    for (const item of shape.value.toArray()) {
      out = out === undefined ? constant(item) : join(out, constant(item));
      if (out === ANY) break;
    }
    return out ?? ANY;
  }
  return shape.items ?? ANY;
}

// ---------------------------------------------------------------------------------------------
// From a JSON Schema (a tool's `returns`)

const MAX_SCHEMA_DEPTH = 32;

/** The shape of a value known to match `schema`; `source` says where it comes from, for messages. */
export function fromSchema(schema: JsonSchema | undefined, source?: string, depth = 0): Shape {
  if (schema === undefined || typeof schema !== 'object' || schema === null || depth > MAX_SCHEMA_DEPTH) return ANY;
  const types = schemaTypes(schema, depth);
  const out: { -readonly [K in keyof Shape]: Shape[K] } = { types };
  if (source !== undefined && types !== ALL_TYPES) out.source = source;
  if ('$ref' in schema) return out.source === undefined ? ofTypes(types) : out;
  if (types & OBJECT && typeof schema.properties === 'object' && schema.properties !== null) out.schema = schema;
  if (types & LIST) {
    if (typeof schema.maxItems === 'number' && schema.maxItems >= 0) out.maxItems = Math.floor(schema.maxItems);
    if (schema.items !== null && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
      const items = fromSchema(schema.items as JsonSchema, undefined, depth + 1);
      if (items !== ANY) out.items = items;
    }
  }
  return out.schema === undefined && out.maxItems === undefined && out.items === undefined && out.source === undefined ? ofTypes(types) : out;
}

function typesOfValues(values: unknown[]): number {
  let types = 0;
  for (const value of values) {
    if (value === null) types |= NULL;
    else if (Array.isArray(value)) types |= LIST;
    else types |= TYPE_BITS[typeof value] ?? 0;
  }
  return types;
}

function schemaTypes(schema: { [keyword: string]: unknown }, depth: number): number {
  let types = ALL_TYPES;
  const declared = schema.type;
  if (typeof declared === 'string' || Array.isArray(declared)) {
    const names = Array.isArray(declared) ? declared : [declared];
    // A type name we do not know tells us nothing: keep every type.
    if (names.every((n) => typeof n === 'string' && n in TYPE_BITS)) types = names.reduce<number>((mask, n) => mask | TYPE_BITS[n as string]!, 0);
  }
  if (Array.isArray(schema.enum)) types &= typesOfValues(schema.enum);
  if ('const' in schema) types &= typesOfValues([schema.const]);
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      types &= branches.reduce<number>((mask, b) => mask | (b !== null && typeof b === 'object' ? schemaTypes(b as Record<string, unknown>, depth + 1) : ALL_TYPES), 0);
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) if (branch !== null && typeof branch === 'object') types &= schemaTypes(branch as Record<string, unknown>, depth + 1);
  }
  if (schema.nullable === true) types |= NULL;
  // A schema nothing can match would make every use of the result an error; the call itself fails
  // first (ToolResultError), so claim nothing about the value.
  return types === 0 ? ALL_TYPES : types;
}

/** The shape of `value.name`, when `value` has the given shape and is an object. */
export function memberShape(shape: Shape, name: string): Shape {
  if (shape.value instanceof NuwaObject) {
    const value = shape.value.get(name);
    return value === undefined ? ANY : constant(value);
  }
  const properties = shape.schema?.properties as Record<string, JsonSchema> | undefined;
  if (properties && Object.hasOwn(properties, name)) return fromSchema(properties[name], shape.source && `${shape.source}, key \`${name}\``);
  return ANY;
}

/**
 * True when the schema says an object value cannot have the key `name`: it lists its properties
 * and allows no others.
 */
export function schemaForbidsKey(shape: Shape, name: string): boolean {
  const schema = shape.schema;
  if (schema === undefined || schema.additionalProperties !== false) return false;
  if (['patternProperties', 'anyOf', 'oneOf', 'allOf', 'if', 'dependentSchemas', '$ref', 'unevaluatedProperties'].some((k) => k in schema)) return false;
  const properties = schema.properties as Record<string, unknown>;
  return !Object.hasOwn(properties, name);
}

/** "a number", "a string or a number"... for messages. */
export function describeTypes(types: number): string {
  const names: string[] = [];
  if (types & NUMBER) names.push('a number');
  if (types & STRING) names.push('a string');
  if (types & BOOLEAN) names.push('a boolean');
  if (types & NULL) names.push('null');
  if (types & LIST) names.push('a list');
  if (types & OBJECT) names.push('an object');
  if (names.length <= 1) return names[0] ?? 'nothing';
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
