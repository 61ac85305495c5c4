// Argument and result checks (TOOLS.md §2, §3). Validators are compiled once, at registration, by
// Ajv; a call then costs one generated function. Only lossless scalar coercions are applied, and only
// where a value fails its declared type: the failing paths come from Ajv's own errors, so the
// coercion follows the schema wherever it nests.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { JsonObject, JsonValue } from '../values/json.js';
import { parseNumeric } from '../values/numeric.js';
import { didYouMean } from '../util/suggest.js';
import { describeSchemaType } from './schema.js';
import type { JsonSchema, JsonSchemaObject, NuwaType } from './types.js';

// ajv-formats is CommonJS; depending on the loader its plugin is the default export or inside it.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((ajvFormats.default as unknown as { default?: FormatsPlugin }).default ?? ajvFormats.default) as unknown as FormatsPlugin;

function makeAjv(useDefaults: boolean): Ajv {
  // strict: false because tool schemas come from everywhere (MCP servers, other SDKs) and carry
  // keywords Ajv does not know; those are annotations, not reasons to refuse a tool.
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults, coerceTypes: false });
  addFormats(ajv);
  return ajv;
}
const argumentsAjv = makeAjv(true);
const resultsAjv = makeAjv(false);

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

function compile(ajv: Ajv, toolName: string, schema: JsonSchema, what: string): ValidateFunction {
  const cleaned = typeof schema === 'object' ? withoutMetaKeywords(schema as JsonSchemaObject) : schema;
  const key = `${ajv === argumentsAjv ? 'a' : 'r'}${JSON.stringify(cleaned)}`;
  const cached = validators.get(key);
  if (cached) return cached;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(cleaned);
  } catch (error) {
    throw new TypeError(`tool "${toolName}": its ${what} schema is not a valid JSON Schema: ${(error as Error).message}`);
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
  const validate = compile(argumentsAjv, toolName, schema, 'parameters');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(schema.required ?? []);
  const accepted = Object.keys(properties);

  return (args) => {
    // Rule 2: a required parameter given as null is missing. An optional one given as null counts
    // as not given (so its default applies), unless its schema accepts null.
    let nullProblems: ArgumentProblem[] | null = null;
    for (const key in args) {
      if (args[key] === null && !allowsNull(properties[key])) {
        if (required.has(key)) (nullProblems ??= []).push({ path: key, message: `missing required argument \`${key}\` (null was given)` });
        delete args[key];
      }
    }
    if (validate(args)) return nullProblems;
    for (let round = 0; round < 8 && coerce(validate.errors ?? [], args); round++) {
      if (validate(args)) return nullProblems;
    }
    const problems = nullProblems ?? [];
    const reported = new Set(problems.map((p) => p.path));
    for (const error of validate.errors ?? []) {
      const problem = describeError(error, args, properties, accepted);
      if (problem && !reported.has(problem.path)) {
        reported.add(problem.path);
        problems.push(problem);
      }
    }
    return problems.length > 0 ? problems : [{ path: '', message: 'the arguments do not match the schema' }];
  };
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
    const value = container[key];
    if (value === undefined || value === null || typeof value === 'object') continue;
    const expected = String((error.params as { type: string | string[] }).type).split(',');
    for (const type of expected) {
      const coerced = coerceScalar(value, type);
      if (coerced !== undefined) {
        container[key] = coerced;
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
        const property = properties[missing];
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
  const validate = compile(resultsAjv, toolName, schema, 'returns');
  return (value) => {
    if (validate(value)) return null;
    const details = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath ? `${displayPath(pointerSegments(e.instancePath))} ` : ''}${e.message ?? 'is invalid'}`)
      .join('; ');
    return `expected ${describeSchemaType(schema)}, received ${describeJson(value)} (${details})`;
  };
}
