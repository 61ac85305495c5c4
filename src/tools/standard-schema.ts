// Schemas written with a schema library (TOOLS.md §1, "Schema libraries"): a Zod 4 schema or any
// Standard Schema that can produce JSON Schema becomes plain JSON Schema once, at registration, so the
// one central validator checks it like every other tool's schema. The library stays the host's
// dependency: a schema is recognised by its shape, never by importing the library.
//
// Two shapes are understood, in this order:
// - Standard JSON Schema (`schema['~standard'].jsonSchema.input/output({ target })`), which Zod 4.2+,
//   and other libraries implement;
// - Zod 4's own conversion reachable from the schema object (`schema.toJSONSchema({ io, target })`).
// A Standard Schema offering neither can validate but cannot describe itself, which the registry needs
// (for validation, function calling and prompts), so it is refused with a message saying what to pass.
import type { JsonSchema, StandardSchemaLike } from './types.js';

type Io = 'input' | 'output';

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const standard = (value as { '~standard'?: unknown })['~standard'];
  return standard !== null && typeof standard === 'object';
}

/** A schema object from a library that is not a Standard Schema at all (e.g. Zod 3 before 3.24). */
function looksLikeLibrarySchema(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { safeParse?: unknown; parse?: unknown; _def?: unknown };
  return typeof candidate.safeParse === 'function' || (typeof candidate.parse === 'function' && candidate._def !== undefined);
}

/**
 * The JSON Schema of `value` when it is a schema library's schema (undefined when it is not one, so
 * the caller treats it as a Nuwa parameter list or JSON Schema). `io` is 'input' for parameters (what a
 * caller may send: fields with defaults are optional) and 'output' for results.
 */
export function librarySchemaToJsonSchema(toolName: string, what: 'parameters' | 'returns', value: unknown): JsonSchema | undefined {
  const io: Io = what === 'parameters' ? 'input' : 'output';
  if (!isStandardSchema(value)) {
    if (looksLikeLibrarySchema(value)) {
      throw new TypeError(`tool "${toolName}": its ${what} are a schema object that cannot produce JSON Schema; pass a JSON Schema, or a Zod 4 / Standard Schema object`);
    }
    return undefined;
  }
  const standard = value['~standard'];
  const vendor = typeof standard.vendor === 'string' ? standard.vendor : 'an unknown library';
  let converted: unknown;
  try {
    converted = convert(value, io);
  } catch (error) {
    throw new TypeError(`tool "${toolName}": its ${what} schema (${vendor}) cannot be expressed as JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (converted === undefined) {
    throw new TypeError(
      `tool "${toolName}": its ${what} are a Standard Schema from ${vendor} that cannot produce JSON Schema (it has no ~standard.jsonSchema); ` +
        'pass a JSON Schema, or use a version of the library that implements Standard JSON Schema (Zod 4.2 or later does)',
    );
  }
  if (typeof converted !== 'boolean' && (converted === null || typeof converted !== 'object' || Array.isArray(converted))) {
    throw new TypeError(`tool "${toolName}": its ${what} schema (${vendor}) converted to something that is not a JSON Schema`);
  }
  return withoutSchemaKeyword(converted as JsonSchema);
}

function convert(value: StandardSchemaLike, io: Io): unknown {
  const jsonSchema = value['~standard'].jsonSchema;
  if (jsonSchema !== undefined && typeof jsonSchema[io] === 'function') {
    // Draft-07 is what the central validator speaks; a library that cannot target it gets 2020-12,
    // whose keywords for object parameters are the same.
    try {
      return jsonSchema[io]({ target: 'draft-07' });
    } catch (draft07Error) {
      try {
        return jsonSchema[io]({ target: 'draft-2020-12' });
      } catch {
        throw draft07Error;
      }
    }
  }
  const zodOwn = (value as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof zodOwn === 'function') return (zodOwn as (params: object) => unknown).call(value, { io, target: 'draft-7' });
  return undefined;
}

/** `$schema` names a meta-schema; the registry's schemas are all validated as draft-07. */
function withoutSchemaKeyword(schema: JsonSchema): JsonSchema {
  if (typeof schema === 'boolean' || !('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
