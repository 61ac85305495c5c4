// Flat argument schemas checked without Ajv. Most tools take a few named arguments of plain types (a
// Nuwa parameter list is always such a schema); for them a call's arguments are checked here, and a
// call that fails gets the same errors, in the same order, as Ajv (compiled by validate.ts with
// allErrors) would report, so that coercion and the wording of problems are those of any schema. A
// host whose tools are all flat never loads Ajv, nor carries it in a bundle made for Node (package
// json "imports": `#ajv`). test/unit/tools/flat-schema.test.ts holds this module to Ajv's verdicts.
import type { ErrorObject } from 'ajv';
import type { JsonValue } from '../values/json.js';
import type { JsonSchema, JsonSchemaObject } from './types.js';

/** A check with Ajv's shape: true when the data fits; otherwise false, and `errors` says why. */
export type SchemaValidate = ((data: JsonValue) => boolean) & { errors?: ErrorObject[] | null };

const JSON_TYPES = ['any', 'string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;
const ANNOTATIONS = new Set(['description', 'title']);

/** The type of a flat schema's property, as an index into JSON_TYPES (0: any). */
export function typeCode(property: JsonSchema): number {
  return typeof property === 'object' && typeof property.type === 'string' ? JSON_TYPES.indexOf(property.type as (typeof JSON_TYPES)[number]) : 0;
}

/** Whether a JSON value is of a type of JSON_TYPES, as Ajv decides it. */
export function hasType(code: number, value: JsonValue): boolean {
  switch (code) {
    case 1:
      return typeof value === 'string';
    case 2:
      return typeof value === 'number';
    case 3:
      return Number.isInteger(value);
    case 4:
      return typeof value === 'boolean';
    case 5:
      return value === null;
    case 6:
      return Array.isArray(value);
    case 7:
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/**
 * Whether a schema is flat: an object of named properties, each of one JSON type or of any, with
 * `required` (of those names) and `additionalProperties` (true or false) at most. For such a schema,
 * arguments whose own keys are declared (if it is closed), each of its type, with every required one
 * there, are what Ajv accepts as they are (no coercion, no default). Names that objects inherit
 * (`constructor`...) are left to Ajv, which reads them through the prototype.
 */
export function isFlat(schema: JsonSchemaObject): boolean {
  for (const key of Object.keys(schema)) {
    if (!ANNOTATIONS.has(key) && key !== 'type' && key !== 'properties' && key !== 'required' && key !== 'additionalProperties') return false;
  }
  if (schema.type !== 'object' || (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean')) return false;
  const properties = schema.properties ?? {};
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return false;
  for (const [name, property] of Object.entries(properties as Record<string, JsonSchema>)) {
    if (name in Object.prototype || property === null || typeof property !== 'object' || Array.isArray(property)) return false;
    for (const key of Object.keys(property)) if (key !== 'type' && !ANNOTATIONS.has(key)) return false;
    if (property.type !== undefined && (typeof property.type !== 'string' || JSON_TYPES.indexOf(property.type as (typeof JSON_TYPES)[number]) <= 0)) return false;
  }
  const required = schema.required ?? [];
  return Array.isArray(required) && required.every((name) => typeof name === 'string' && Object.hasOwn(properties, name));
}

/** A JSON Pointer segment for a property name. */
const pointer = (name: string): string => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The check of a flat schema (isFlat), reporting as Ajv does: first each missing required argument
 * (in `required`'s order), then each undeclared one if the schema is closed (in the arguments'
 * order), then each argument of the wrong type (in the schema's order).
 */
export function flatValidate(schema: JsonSchemaObject): SchemaValidate {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const types = names.map((name) => typeCode(properties[name]!));
  const required = (schema.required ?? []) as string[];
  const closed = schema.additionalProperties === false;
  const validate: SchemaValidate = (data) => {
    const errors: ErrorObject[] = [];
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      errors.push({ instancePath: '', schemaPath: '#/type', keyword: 'type', params: { type: 'object' }, message: 'must be object' });
    } else {
      for (const name of required) {
        if (!Object.hasOwn(data, name)) errors.push({ instancePath: '', schemaPath: '#/required', keyword: 'required', params: { missingProperty: name }, message: `must have required property '${name}'` });
      }
      if (closed) {
        for (const key of Object.keys(data)) {
          if (!Object.hasOwn(properties, key)) errors.push({ instancePath: '', schemaPath: '#/additionalProperties', keyword: 'additionalProperties', params: { additionalProperty: key }, message: 'must NOT have additional properties' });
        }
      }
      names.forEach((name, i) => {
        if (types[i] === 0 || !Object.hasOwn(data, name) || hasType(types[i]!, data[name]!)) return;
        const type = JSON_TYPES[types[i]!];
        errors.push({ instancePath: pointer(name), schemaPath: `#/properties${pointer(name)}/type`, keyword: 'type', params: { type }, message: `must be ${type}` });
      });
    }
    validate.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return validate;
}
