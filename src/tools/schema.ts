// Normalises the two ways a tool can describe its inputs and output (Nuwa parameter lists and JSON
// Schema) into JSON Schema, the one form validation and the function-calling export work from.
import type { JsonSchema, JsonSchemaObject, NuwaType, ToolParameter, ToolSchema } from './types.js';

export const NUWA_TYPES: readonly NuwaType[] = ['string', 'number', 'boolean', 'null', 'array', 'object', 'any'];

export function nuwaTypeToSchema(type: NuwaType): JsonSchema {
  return type === 'any' ? {} : { type };
}

function isNuwaType(value: unknown): value is NuwaType {
  return typeof value === 'string' && (NUWA_TYPES as readonly string[]).includes(value);
}

/** The parameters as a JSON Schema object; unknown arguments are refused unless the schema says otherwise. */
export function parametersToSchema(toolName: string, parameters: ToolSchema['parameters']): JsonSchemaObject {
  if (Array.isArray(parameters)) return parameterListToSchema(toolName, parameters);
  if (parameters === null || typeof parameters !== 'object') {
    throw new TypeError(`tool "${toolName}": parameters must be a list of { name, description, type } or a JSON Schema object`);
  }
  if (parameters.type !== undefined && parameters.type !== 'object') {
    throw new TypeError(`tool "${toolName}": a JSON Schema for parameters must have type "object", not ${JSON.stringify(parameters.type)}`);
  }
  const schema: JsonSchemaObject = { ...parameters, type: 'object' };
  // Unknown arguments are refused by default (TOOLS.md §2.3). A schema that builds its properties
  // from allOf/anyOf/oneOf/$ref (or patterns) would refuse its own properties that way, so those
  // keep JSON Schema's own default and say for themselves what they accept.
  const composed = ['allOf', 'anyOf', 'oneOf', '$ref', 'patternProperties', 'if', 'dependentSchemas'].some((k) => k in schema);
  if (schema.additionalProperties === undefined && !composed) schema.additionalProperties = false;
  return schema;
}

function parameterListToSchema(toolName: string, parameters: ToolParameter[]): JsonSchemaObject {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    if (!parameter || typeof parameter.name !== 'string' || parameter.name === '') {
      throw new TypeError(`tool "${toolName}": every parameter needs a name`);
    }
    if (!isNuwaType(parameter.type)) {
      throw new TypeError(`tool "${toolName}": parameter "${parameter.name}" has type ${JSON.stringify(parameter.type)}; use one of ${NUWA_TYPES.join(', ')}`);
    }
    if (Object.hasOwn(properties, parameter.name)) throw new TypeError(`tool "${toolName}": parameter "${parameter.name}" is declared twice`);
    const property = nuwaTypeToSchema(parameter.type) as Record<string, unknown>;
    if (parameter.description) property.description = parameter.description;
    // A name is data: `__proto__` is a parameter like any other, not the prototype of `properties`.
    Object.defineProperty(properties, parameter.name, { value: property, enumerable: true, writable: true, configurable: true });
    if (parameter.required !== false) required.push(parameter.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

export function returnsToSchema(toolName: string, returns: ToolSchema['returns'] | undefined): JsonSchema {
  if (returns === undefined) return {};
  if (typeof returns === 'string') {
    if (!isNuwaType(returns)) throw new TypeError(`tool "${toolName}": returns ${JSON.stringify(returns)} is not a type; use one of ${NUWA_TYPES.join(', ')} or a JSON Schema`);
    return nuwaTypeToSchema(returns);
  }
  if (typeof returns === 'boolean' || (returns !== null && typeof returns === 'object')) return returns;
  throw new TypeError(`tool "${toolName}": returns must be a type name or a JSON Schema`);
}

/** A short human form of a schema's type, for messages: "number", "string or null", "one of ...". */
export function describeSchemaType(schema: JsonSchema): string {
  if (schema === true || (typeof schema === 'object' && Object.keys(schema).filter((k) => k !== 'description').length === 0)) return 'any value';
  if (schema === false) return 'nothing';
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String).join(' or ');
  if (typeof type === 'string') return type === 'array' ? 'list' : type;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  return 'a value matching the schema';
}
