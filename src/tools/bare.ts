// Property names are data: a parameter may be called `constructor`, `toString` or `__proto__` like
// any other name JSON allows. Ajv's generated code does not see it that way: it reads
// `data.constructor` (found on Object.prototype when absent), assigns a default as
// `data.__proto__ = value` (a prototype change), and skips a property named `__proto__` altogether
// (its subschema is never applied, and the key counts as an unknown one).
//
// So a schema that names such a property is checked in a bare form: the data is copied into objects
// without a prototype (where no name is inherited and `__proto__` has no setter), and every key
// `__proto__` — in the data, and where the schema names properties or holds data (`default`,
// `const`, `enum`) — is spelled `__proto__\0` instead, so that Ajv treats it as the plain key it is.
// The spelling is a bijection (`__proto__\0` in turn becomes `__proto__\0\0`, and so on), so no key
// a caller sends can pass for another. The one thing that sees the stand-in is a check of the key
// itself (`propertyNames`, `patternProperties`), for a key named `__proto__` only.
import type { JsonObject, JsonValue } from '../values/json.js';
import { setJsonKey } from '../values/convert.js';
import type { JsonSchema } from './types.js';

const PROTO_FAMILY = /^__proto__\0*$/;

/** A key as the bare form spells it. */
export function bareKey(key: string): string {
  return PROTO_FAMILY.test(key) ? `${key}\0` : key;
}

/** A key of the bare form as the caller spelled it. */
export function originalKey(key: string): string {
  return PROTO_FAMILY.test(key) && key.endsWith('\0') ? key.slice(0, -1) : key;
}

/**
 * Whether a schema must be checked in the bare form: it names, as a property (in `properties`,
 * `required`, `dependentRequired`, `dependencies`, `dependentSchemas`), a name plain objects inherit
 * (`constructor`, `toString`, `hasOwnProperty`, `__proto__`...), or holds data with a `__proto__` key.
 */
export function needsBareForm(schema: JsonSchema): boolean {
  const seen = new Set<object>();
  const inherited = (name: unknown) => typeof name === 'string' && name in Object.prototype;
  const walk = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return false;
    seen.add(node);
    if (Array.isArray(node)) return node.some(walk);
    if (Object.hasOwn(node, '__proto__')) return true;
    const record = node as Record<string, unknown>;
    for (const keyword of NAME_MAPS) {
      const members = own(record, keyword);
      if (isRecord(members) && Object.keys(members).some(inherited)) return true;
    }
    for (const keyword of NAME_LISTS) {
      const names = own(record, keyword);
      if (Array.isArray(names) && names.some(inherited)) return true;
    }
    return Object.values(record).some(walk);
  };
  return walk(schema);
}

/** Keywords whose keys are property names (and whose values are schemas or lists of names). */
const NAME_MAPS = ['properties', 'dependentRequired', 'dependencies', 'dependentSchemas'];
/** Keywords whose values are lists of property names. */
const NAME_LISTS = ['required'];
/** Keywords whose values are data, compared with or put into the data. */
const DATA = new Set(['default', 'const', 'enum', 'examples']);

/** The schema with its property names and its data spelled as the bare form spells them. */
export function bareSchema(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(walk);
    const out: Record<string, unknown> = {};
    for (const [keyword, value] of Object.entries(node as Record<string, unknown>)) {
      let renamed: unknown;
      if (DATA.has(keyword)) renamed = bareData(value as JsonValue);
      else if (NAME_LISTS.includes(keyword) && Array.isArray(value)) renamed = value.map((name) => (typeof name === 'string' ? bareKey(name) : name));
      else if (NAME_MAPS.includes(keyword) && isRecord(value)) {
        const map: Record<string, unknown> = {};
        for (const [name, member] of Object.entries(value)) {
          const renamedMember = Array.isArray(member) ? member.map((item) => (typeof item === 'string' ? bareKey(item) : item)) : walk(member);
          setJsonKey(map as JsonObject, bareKey(name), renamedMember as JsonValue);
        }
        renamed = map;
      } else renamed = walk(value);
      setJsonKey(out as JsonObject, keyword, renamed as JsonValue);
    }
    return out;
  };
  return walk(schema) as JsonSchema;
}

/** Data in the bare form: objects without a prototype, `__proto__` keys spelled as stand-ins. */
export function bareData(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(bareData);
  const copy = Object.create(null) as JsonObject;
  for (const key of Object.keys(value)) copy[bareKey(key)] = bareData(value[key]!);
  return copy;
}

/** Data of the bare form back as plain objects, with the keys as the caller spelled them. */
export function plainData(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainData);
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) setJsonKey(copy, originalKey(key), plainData(value[key]!));
  return copy;
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
