// Argument and result checks (TOOLS.md §2, §3). Validators are compiled once, at registration, by
// Ajv; a call then costs one generated function. Only lossless scalar coercions are applied, and only
// where a value fails its declared type: the failing paths come from Ajv's own errors, so the
// coercion follows the schema wherever it nests.
//
// Most tools take a few named arguments of plain types (a Nuwa parameter list is always such a flat
// schema): those are checked by a few typeof tests, and a call that fails them by flat-schema.ts,
// which reports exactly as Ajv would. So a host with such tools never loads Ajv (`#ajv`: required on
// first use under Node, see ajv-sync.ts), which is most of what `nuwa run` would otherwise spend
// starting up, and a bundle made for Node does not carry it.
import type { Ajv as AjvInstance, ErrorObject, ValidateFunction } from 'ajv';
import { flatValidate, hasType, isFlat, typeCode, type SchemaValidate } from './flat-schema.js';
import { Ajv } from '#ajv';
import * as ajvFormats from '#ajv-formats';
import type { JsonObject, JsonValue } from '../values/json.js';
import { parseNumeric } from '../values/numeric.js';
import { setJsonKey } from '../values/convert.js';
import { findRefCycle } from './ref-cycles.js';
import { bareData, bareSchema, needsBareForm, originalKey, plainData } from './bare.js';
import { didYouMean } from '../util/suggest.js';
import { describeSchemaType } from './schema.js';
import type { JsonSchema, JsonSchemaObject, NuwaType } from './types.js';

// ajv-formats is CommonJS; depending on the loader its plugin is the default export or inside it.
type FormatsPlugin = (ajv: AjvInstance) => AjvInstance;
const addFormats = ((ajvFormats.default as unknown as { default?: FormatsPlugin }).default ?? ajvFormats.default) as unknown as FormatsPlugin;

function makeAjv(useDefaults: boolean): AjvInstance {
  // strict: false because tool schemas come from everywhere (MCP servers, other SDKs) and carry
  // keywords Ajv does not know; those are annotations, not reasons to refuse a tool.
  // logger: false, because a library has no business writing to the host's console (Ajv prints the
  // code of a schema it fails to compile; the failure is reported as a TypeError below).
  // ownProperties: a property is there when the object has it as its own; otherwise Ajv reads
  // `data.constructor` (or `data.__proto__`) through the prototype, and an optional parameter named
  // `constructor` could never be left out.
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults, coerceTypes: false, logger: false, ownProperties: true });
  addFormats(ajv);
  return ajv;
}

type Purpose = 'arguments' | 'results';
const instances: Partial<Record<Purpose, AjvInstance>> = {};
/** The Ajv that compiles argument validators (filling defaults in), or result checks; made when first needed. */
const ajvFor = (purpose: Purpose): AjvInstance => (instances[purpose] ??= makeAjv(purpose === 'arguments'));

/**
 * The Ajv for `purpose`. Under Node Ajv is required from node_modules when first needed, also from a
 * host's bundle made for Node (which does not carry it): where it cannot be found, say what to do.
 */
function loadedAjv(purpose: Purpose, subject: string): AjvInstance {
  try {
    return ajvFor(purpose);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new TypeError(
      `${subject} cannot be checked in this host: validating a JSON Schema beyond named arguments of plain types needs the packages ajv and ajv-formats, which this host cannot load (${String((error as Error).message).split('\n')[0]}); install them where the host runs (npm install ajv ajv-formats), or describe the tool by a parameter list and a plain \`returns\` type`,
    );
  }
}

export interface ArgumentProblem {
  /** Where in the arguments: `qty`, `items[2].price`, or '' for the whole call. */
  path: string;
  message: string;
}

/** Checks (and coerces, and fills defaults into) a fresh arguments object; null when it is fine. */
export type ArgumentValidator = (args: JsonObject) => ArgumentProblem[] | null;

function withoutMetaKeywords(schema: JsonSchemaObject): JsonSchemaObject {
  // `$schema` would make Ajv look for a meta-schema it may not have (2020-12); `$id` would clash
  // when two tools share one. Neither changes what is valid.
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest as JsonSchemaObject;
}

// Compiled validators by schema text. Ajv's own cache is keyed by schema object and never shrinks,
// so a host that builds registries per request (with fresh schema objects each time) would leak;
// here equal schemas share one validator, the cache is bounded, and Ajv keeps nothing.
const MAX_CACHED_VALIDATORS = 2000;
const validators = new Map<string, ValidateFunction>();

/** Compiles `schema`; `subject` names it in errors (`tool "x": its parameters schema`). */
function compile(purpose: Purpose, subject: string, schema: JsonSchema): ValidateFunction {
  const cleaned = typeof schema === 'object' ? withoutMetaKeywords(schema as JsonSchemaObject) : schema;
  const key = `${purpose === 'arguments' ? 'a' : 'r'}${JSON.stringify(cleaned)}`;
  const cached = validators.get(key);
  if (cached) return cached;
  // A reference cycle that never goes down into the value would recurse in Ajv until the stack
  // overflows (while compiling, or on every call): say where it is instead.
  const cycle = findRefCycle(cleaned);
  if (cycle !== undefined) throw new TypeError(`${subject} has a $ref cycle at ${cycle}`);
  const ajv = loadedAjv(purpose, subject);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(cleaned);
  } catch (error) {
    // Ajv compiles a schema into a function made from text: a host run with
    // --disallow-code-generation-from-strings cannot check JSON Schemas at all.
    if (error instanceof EvalError) throw new TypeError(`${subject} cannot be checked in this host: validating a JSON Schema needs code generated from text (Ajv), which the host forbids`);
    if (error instanceof RangeError) throw new TypeError(`${subject} nests too deeply to be checked`);
    throw new TypeError(`${subject} is not a valid JSON Schema: ${(error as Error).message}`);
  } finally {
    if (typeof cleaned === 'object') ajv.removeSchema(cleaned);
  }
  if (validators.size >= MAX_CACHED_VALIDATORS) validators.delete(validators.keys().next().value!);
  validators.set(key, validate);
  return validate;
}

function allowsNull(schema: JsonSchema | undefined): boolean {
  if (schema === undefined || typeof schema === 'boolean') return schema !== false;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const branches = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat() as JsonSchema[];
  return branches.some((branch) => typeof branch === 'object' && allowsNull(branch) && Object.keys(branch).length > 0);
}

export function compileArgumentValidator(toolName: string, schema: JsonSchemaObject): ArgumentValidator {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(schema.required ?? []);
  const accepted = Object.keys(properties);
  const flat = isFlat(schema);
  // A schema naming `constructor`, `__proto__` and the like is checked in the bare form (bare.ts).
  const bare = needsBareForm(schema);
  const checked = bare ? (bareSchema(schema) as JsonSchemaObject) : schema;
  // A flat schema is checked by flat-schema.ts, which reports as Ajv would; any other by Ajv.
  const validate: SchemaValidate | ValidateFunction = flat ? flatValidate(checked) : compile('arguments', `tool "${toolName}": its parameters schema`, checked);

  /** The full verdict, coercing where that makes the arguments valid; the problems otherwise. */
  const validateFully = (args: JsonObject, nullProblems: ArgumentProblem[] | null): ArgumentProblem[] | null => {
    // In the bare form, Ajv works on a copy; its defaults and coercions are carried back.
    const target = bare ? (bareData(args) as JsonObject) : args;
    try {
      if (validate(target)) return nullProblems;
      for (let round = 0; round < 8 && coerce(validate.errors ?? [], target); round++) {
        if (validate(target)) return nullProblems;
      }
    } finally {
      if (bare) replaceContent(args, plainData(target) as JsonObject);
    }
    const problems = nullProblems ?? [];
    const reported = new Set(problems.map((p) => p.path));
    for (const error of validate.errors ?? []) {
      const problem = describeError(bare ? originalNames(error) : error, args, properties, accepted);
      if (problem && !reported.has(problem.path)) {
        reported.add(problem.path);
        problems.push(problem);
      }
    }
    return problems.length > 0 ? problems : [{ path: '', message: 'the arguments do not match the schema' }];
  };

  const nullGiven = (key: string): ArgumentProblem => ({ path: key, message: `missing required argument \`${key}\` (null was given)` });

  if (flat) {
    // One pass over the arguments does rule 2 and the checks; only a call that fails them is checked
    // fully (to coerce, and to word the problems).
    const names = accepted;
    const types = names.map((name) => typeCode(properties[name]!));
    const nullable = names.map((name) => allowsNull(properties[name]));
    const mandatory = names.map((name) => required.has(name));
    const mandatoryCount = mandatory.filter(Boolean).length;
    const closed = schema.additionalProperties === false;
    return (args) => {
      let nullProblems: ArgumentProblem[] | null = null;
      let fits = true;
      let present = 0;
      for (const key in args) {
        let i = 0;
        while (i < names.length && names[i] !== key) i++;
        const value = args[key]!;
        if (i === names.length) {
          // Not declared (null included: rule 2 is about declared parameters): the full check decides.
          if (closed) fits = false;
          continue;
        }
        if (value === null && !nullable[i]) {
          if (mandatory[i]) (nullProblems ??= []).push(nullGiven(key));
          delete args[key];
          continue;
        }
        if (!hasType(types[i]!, value)) fits = false;
        if (mandatory[i]) present++;
      }
      return fits && present === mandatoryCount ? nullProblems : validateFully(args, nullProblems);
    };
  }

  return (args) => {
    // Rule 2: a required parameter given as null is missing. An optional one given as null counts
    // as not given (so its default applies), unless its schema accepts null.
    let nullProblems: ArgumentProblem[] | null = null;
    for (const key in args) {
      if (args[key] === null && !allowsNull(ownValue(properties, key))) {
        if (required.has(key)) (nullProblems ??= []).push(nullGiven(key));
        delete args[key];
      }
    }
    return validateFully(args, nullProblems);
  };
}

/** A schema's own member `key` (never one objects inherit, such as `constructor`). */
function ownValue(object: Record<string, JsonSchema>, key: string): JsonSchema | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Makes `target` hold what `source` holds. */
function replaceContent(target: JsonObject, source: JsonObject): void {
  for (const key of Object.keys(target)) delete target[key];
  for (const key of Object.keys(source)) setJsonKey(target, key, source[key]!);
}

/** An error of a bare-form check, with the names as the caller spelled them. */
function originalNames(error: ErrorObject): ErrorObject {
  const instancePath = error.instancePath === '' ? '' : `/${pointerSegments(error.instancePath).map((segment) => originalKey(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  const params = { ...error.params } as Record<string, unknown>;
  for (const key of ['missingProperty', 'additionalProperty', 'property'] as const) {
    if (typeof params[key] === 'string') params[key] = originalKey(params[key] as string);
  }
  return { ...error, instancePath, params };
}

// ---------------------------------------------------------------------------------------------
// Lossless coercion

function coerceScalar(value: JsonValue, type: string): JsonValue | undefined {
  switch (type) {
    case 'number':
      return typeof value === 'string' ? parseNumeric(value) : undefined;
    case 'integer': {
      const n = typeof value === 'string' ? parseNumeric(value) : undefined;
      return n !== undefined && Number.isInteger(n) ? n : undefined;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    default:
      return undefined;
  }
}

/** Applies every lossless coercion the type errors allow; true when anything changed. */
function coerce(errors: ErrorObject[], root: JsonObject): boolean {
  let changed = false;
  for (const error of errors) {
    if (error.keyword !== 'type' || error.instancePath === '') continue;
    const segments = pointerSegments(error.instancePath);
    const key = segments.pop()!;
    const parent = resolve(root, segments);
    if (parent === undefined || parent === null || typeof parent !== 'object') continue;
    const container = parent as Record<string, JsonValue>;
    const value = Array.isArray(container) ? container[Number(key)] : Object.hasOwn(container, key) ? container[key] : undefined;
    if (value === undefined || value === null || typeof value === 'object') continue;
    const expected = String((error.params as { type: string | string[] }).type).split(',');
    for (const type of expected) {
      const coerced = coerceScalar(value, type);
      if (coerced !== undefined) {
        setJsonKey(container as JsonObject, key, coerced);
        changed = true;
        break;
      }
    }
  }
  return changed;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolve(root: JsonValue, segments: string[]): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(segment)] : Object.hasOwn(node, segment) ? node[segment] : undefined;
  }
  return node;
}

// ---------------------------------------------------------------------------------------------
// Messages

export function describeJson(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    default: {
      const keys = Object.keys(value);
      return keys.length === 0 ? 'empty object' : `object with keys ${keys.slice(0, 8).join(', ')}`;
    }
  }
}

function displayPath(segments: string[]): string {
  let out = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function describeError(
  error: ErrorObject,
  root: JsonObject,
  properties: Record<string, JsonSchema>,
  accepted: string[],
): ArgumentProblem | undefined {
  const segments = pointerSegments(error.instancePath);
  const path = displayPath(segments);
  const value = resolve(root, segments);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const fullPath = displayPath([...segments, missing]);
      if (segments.length === 0) {
        const property = ownValue(properties, missing);
        const type = property === undefined ? '' : ` (${describeSchemaType(property)}${describeParameter(property)})`;
        return { path: fullPath, message: `missing required argument \`${missing}\`${type}` };
      }
      return { path: fullPath, message: `\`${path}\` is missing the required key \`${missing}\`` };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const fullPath = displayPath([...segments, extra]);
      if (segments.length === 0) {
        const list = accepted.length > 0 ? `accepted arguments: ${accepted.join(', ')}` : 'this tool takes no arguments';
        return { path: fullPath, message: `unknown argument \`${extra}\`${didYouMean(extra, accepted)} (${list})` };
      }
      return { path: fullPath, message: `\`${path}\` has an unknown key \`${extra}\`` };
    }
    case 'type':
      return { path, message: `\`${path}\`: expected ${typeList(params.type)}, received ${describeJson(value)}` };
    case 'enum':
      return {
        path,
        message: `\`${path}\`: expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, received ${describeJson(value)}`,
      };
    default: {
      const where = path === '' ? 'the arguments' : `\`${path}\``;
      return { path, message: `${where}: ${error.message ?? 'is invalid'}, received ${describeJson(value)}` };
    }
  }
}

function describeParameter(schema: JsonSchema): string {
  return typeof schema === 'object' && typeof schema.description === 'string' && schema.description ? `: ${schema.description}` : '';
}

function typeList(type: unknown): string {
  return String(type)
    .split(',')
    .map((t) => (t === 'array' ? 'list' : t))
    .join(' or ');
}

// ---------------------------------------------------------------------------------------------
// Results

/** Checks a tool's (already JSON-checked) result against its declared `returns`; a message or null. */
export type ResultCheck = (value: JsonValue) => string | null;

const NUWA_RESULT_CHECKS: Record<NuwaType, ResultCheck> = {
  any: () => null,
  string: (v) => (typeof v === 'string' ? null : `expected string, received ${describeJson(v)}`),
  number: (v) => (typeof v === 'number' ? null : `expected number, received ${describeJson(v)}`),
  boolean: (v) => (typeof v === 'boolean' ? null : `expected boolean, received ${describeJson(v)}`),
  null: (v) => (v === null ? null : `expected null, received ${describeJson(v)}`),
  array: (v) => (Array.isArray(v) ? null : `expected list, received ${describeJson(v)}`),
  object: (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? null : `expected object, received ${describeJson(v)}`),
};

export function compileResultCheck(toolName: string, returns: NuwaType | JsonSchema, schema: JsonSchema): ResultCheck {
  if (typeof returns === 'string') return NUWA_RESULT_CHECKS[returns];
  if (schema === true || (typeof schema === 'object' && Object.keys(schema).length === 0)) return NUWA_RESULT_CHECKS.any;
  const bare = needsBareForm(schema);
  const validate = compile('results', `tool "${toolName}": its returns schema`, bare ? bareSchema(schema) : schema);
  return (value) => {
    if (validate(bare ? bareData(value) : value)) return null;
    const details = (validate.errors ?? [])
      .map((e) => (bare ? originalNames(e) : e))
      .slice(0, 3)
      .map((e) => `${e.instancePath ? `${displayPath(pointerSegments(e.instancePath))} ` : ''}${e.message ?? 'is invalid'}`)
      .join('; ');
    return `expected ${describeSchemaType(schema)}, received ${describeJson(value)} (${details})`;
  };
}

// ---------------------------------------------------------------------------------------------
// Data against a schema that comes with it

/** One way a value fails a schema: where (`items[2].price`, '' for the value itself) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** Checks a value against the schema it was compiled from: its issues, none when it is valid. */
export type SchemaCheck = (value: JsonValue) => SchemaIssue[];

/**
 * Compiles a schema given at run time (the standard tool data.validate) with the Ajv that checks
 * results (no defaults, no coercion). An invalid schema throws a TypeError that says why.
 */
export function compileSchemaCheck(schema: JsonSchema): SchemaCheck {
  const validate = compile('results', 'the schema', schema);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => {
      const segments = pointerSegments(error.instancePath);
      const params = error.params as Record<string, unknown>;
      if (error.keyword === 'required') segments.push(String(params.missingProperty));
      if (error.keyword === 'additionalProperties') segments.push(String(params.additionalProperty));
      return { path: displayPath(segments), message: error.message ?? 'is invalid' };
    });
  };
}
