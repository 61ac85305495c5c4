// The schemas a tool may be written with (TOOLS.md §1), and the types that flow from them (API.md
// v1.1): a tool's function gets its arguments typed from its `parameters`, and its return type
// checked against its `returns`, the way the AI SDK's `tool()` and the MCP SDK's `registerTool` do.
//
// - A schema library's schema (Zod 4, or any Standard Schema): its output type, read from
//   `~standard.types` as the Standard Schema specification defines it, so no library is imported.
// - A JSON Schema written as a literal (`as const`, or inline where a `const` type parameter reads
//   it so): json-schema-to-ts's FromSchema, with the top level closed as the runtime closes it
//   (schema.ts: unknown arguments are refused unless the schema says otherwise).
// - A Nuwa parameter list of literals: an object of the listed names, `required: false` optional.
// Anything else (a schema whose shape the compiler does not know) gives the general JSON object,
// as before. Types only: this module has no code, and what it imports is erased.
//
// The types accept exactly what the runtime does (build.ts, schema.ts): a parameter without a
// description, no `returns`, no `parameters`, readonly lists.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { JsonObject, JsonValue } from '../values/json.js';

export type NuwaType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'any';

export interface ToolParameter {
  name: string;
  /** What the argument is for: shown to models in prompts. Optional, but models choose by it. */
  description?: string;
  type: NuwaType;
  /** Defaults to true. */
  required?: boolean;
}

/** A JSON Schema (draft-07 / 2019-09 keywords as Ajv understands them). */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** The parameters of a tool as a JSON Schema: `{ type: 'object', properties, required }`. */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}

/**
 * A JSON Schema for a tool's parameters as a host may write it: `type` may be left out (an object
 * is what parameters are), and lists may be readonly (a schema written `as const`).
 */
export interface ParametersSchema {
  type?: 'object';
  properties?: { readonly [name: string]: JsonSchema };
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}

/**
 * A schema written with a schema library: a Zod 4 schema, or any Standard Schema (`~standard`) that
 * can produce JSON Schema (Standard JSON Schema). It is converted to JSON Schema once, at
 * registration; its `types`, when the library declares them, type the tool's function.
 */
export interface StandardSchemaLike {
  readonly '~standard': {
    readonly vendor: string;
    readonly version: number;
    readonly types?: { readonly input: unknown; readonly output: unknown } | undefined;
    readonly jsonSchema?: {
      input(options: { target: string }): unknown;
      output(options: { target: string }): unknown;
    };
  };
}

/** What `parameters` accepts: a Nuwa parameter list, a JSON Schema object, or a schema library's object schema. */
export type ToolParameters = readonly ToolParameter[] | ParametersSchema | StandardSchemaLike;
/** What `returns` accepts: a type name, a JSON Schema, or a schema library's schema. */
export type ToolReturns = NuwaType | JsonSchema | StandardSchemaLike;

/**
 * The arguments a tool's function receives, from its `parameters`: typed when the schema's shape is
 * known to the compiler (a Zod or Standard Schema, a literal JSON Schema, a literal parameter list),
 * else the general JSON object.
 *
 * NoInfer: `parameters` is where a registration's type parameter is inferred from, never the
 * function; and the compiler must not walk into FromSchema's types trying to (with a definition typed
 * as a general ToolDefinition, that walk alone exceeds its limits).
 */
export type ToolArgs<P> = NoInfer<ArgsOf<P>>;
/** What a tool's function may return, from its `returns` (see ToolArgs for NoInfer). */
export type ToolReturn<R> = NoInfer<ReturnOf<R>>;

type ArgsOf<P> = [P] extends [StandardSchemaLike]
  ? StandardOutput<P, JsonObject>
  : [P] extends [readonly ToolParameter[]]
    ? ListArgs<P>
    : [P] extends [ParametersSchema]
      ? SchemaArgs<P>
      : JsonObject;

/**
 * The type `returns` names, or `unknown` (any JSON value; the runtime refuses what is not JSON) when
 * there is none or its shape is not known.
 */
type ReturnOf<R> = [R] extends [StandardSchemaLike]
  ? StandardOutput<R, unknown>
  : [R] extends [NuwaType]
    ? NuwaTypeReturn<R>
    : [R] extends [JsonSchema]
      ? SchemaReturn<R>
      : unknown;

/** A tool function typed from its schemas: the checked arguments in, a result (or a promise of one) out. */
export type TypedToolFunction<P, R, C> = (args: ToolArgs<P>, context: C) => ToolReturn<R> | PromiseLike<ToolReturn<R>>;

/** The output type a Standard Schema declares, or `Otherwise` when it declares none (or `unknown`). */
type StandardOutput<S, Otherwise> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? unknown extends O
      ? Otherwise
      : O
    : Otherwise
  : Otherwise;

// --- Nuwa parameter lists ---------------------------------------------------------------------

/** The value of an argument of a Nuwa type, as the function receives it (its own JSON copy). */
type NuwaTypeValue<T> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? JsonValue[]
          : T extends 'object'
            ? JsonObject
            : JsonValue;

/** `required: false` (or a boolean the compiler cannot tell) leaves an argument out; the default is required. */
type IsOptional<E> = E extends { readonly required: infer R } ? (false extends R ? true : false) : false;

type ListArgs<L extends readonly ToolParameter[]> = string extends L[number]['name']
  ? JsonObject // names the compiler does not know: a list built at run time
  : // One object type (written out, not through an alias, so that messages show `{ n: number }`).
    { [K in keyof ListProperties<L>]: ListProperties<L>[K] };

type ListProperties<L extends readonly ToolParameter[]> = { [E in L[number] as IsOptional<E> extends true ? never : E['name']]: NuwaTypeValue<E['type']> } & {
  [E in L[number] as IsOptional<E> extends true ? E['name'] : never]?: NuwaTypeValue<E['type']>;
};

// --- JSON Schema ------------------------------------------------------------------------------

/** Keywords with which a schema builds its properties itself: the runtime then leaves it open. */
type ComposingKeyword = 'allOf' | 'anyOf' | 'oneOf' | '$ref' | 'patternProperties' | 'if' | 'dependentSchemas';

/**
 * The top level as the runtime reads it (schema.ts parametersToSchema): an object, closed to
 * unknown arguments unless the schema says otherwise or composes its properties.
 */
type AsParameters<S> = 'additionalProperties' extends keyof S
  ? S & { readonly type: 'object' }
  : Extract<keyof S, ComposingKeyword> extends never
    ? S & { readonly type: 'object'; readonly additionalProperties: false }
    : S & { readonly type: 'object' };

/**
 * True when `S`, or a member of it, is typed as a general object (a string index signature): a
 * schema whose shape is not known here, such as the general ParametersSchema or a union with it.
 */
type IsGeneral<S> = true extends (S extends unknown ? (string extends keyof S ? true : false) : never) ? true : false;

type SchemaArgs<S> = IsGeneral<S> extends true ? JsonObject : FromParameters<AsParameters<S>>;

// Not `infer A extends JSONSchema`: the compiler would take FromSchema<JSONSchema> (every JSON
// value a schema can describe, a union too large to represent) as the constraint of the type while
// it relates generic tool definitions.
type FromParameters<A> = A extends JSONSchema ? FromSchema<A> : JsonObject;

type SchemaReturn<S> = S extends boolean ? unknown : IsGeneral<S> extends true ? unknown : S extends JSONSchema ? FromSchema<S> : unknown;

/**
 * What a result of a Nuwa type may be. Looser than the argument types on purpose: a function may
 * return an interface or a class's plain data, which the runtime copies and checks.
 */
type NuwaTypeReturn<T> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null | undefined | void
        : T extends 'array'
          ? readonly unknown[]
          : T extends 'object'
            ? object
            : unknown;
