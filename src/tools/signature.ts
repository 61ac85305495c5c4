// How a tool reads to a person or a model: its parameters with types, required marks, defaults and
// descriptions, and short type names ("list of string", "\"c\" | \"f\""), all taken from the JSON
// Schema the registry validates with. Shared by `nuwa tools` and buildPrompt.
import { KEYWORDS } from '../syntax/tokens.js';
import type { JsonValue } from '../values/json.js';
import type { RegisteredTool } from './build.js';
import type { JsonSchema } from './types.js';

export interface ParameterSummary {
  name: string;
  /** A short type: `string`, `integer`, `list of number`, `"buy" | "sell"`, `any`. */
  type: string;
  required: boolean;
  /** Present when the schema declares a default. */
  default?: JsonValue;
  description?: string;
  /** Bounds and formats in a few words: `≥ 1`, `pattern ^[A-Z]+$`, `date-time`. */
  constraints?: string;
}

export function parameterSummaries(tool: RegisteredTool): ParameterSummary[] {
  const properties = (tool.parametersSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(tool.parametersSchema.required ?? []);
  return Object.entries(properties).map(([name, schema]) => {
    const summary: ParameterSummary = { name, type: typeText(schema), required: required.has(name) };
    if (typeof schema === 'object') {
      if (Object.hasOwn(schema, 'default')) summary.default = schema.default as JsonValue;
      if (typeof schema.description === 'string' && schema.description.trim() !== '') summary.description = oneLine(schema.description);
      const constraints = constraintText(schema);
      if (constraints !== '') summary.constraints = constraints;
    }
    return summary;
  });
}

const NOT_BARE = new Set<string>([...KEYWORDS, 'true', 'false', 'null']);

/**
 * A parameter's name as a script writes it in a CALL: bare when it is a name (`city`), JSON-quoted
 * otherwise (`"first name"`, `""`, `"IF"`), so that a model copying it writes a key that parses.
 */
export function argumentKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !NOT_BARE.has(name) ? name : JSON.stringify(name);
}

/** Whether a tool accepts arguments beyond its declared ones (`additionalProperties` not false). */
export function acceptsMore(tool: RegisteredTool): boolean {
  return tool.parametersSchema.additionalProperties !== false && tool.parametersSchema.additionalProperties !== undefined;
}

const TYPE_NAMES: Record<string, string> = { array: 'list' };

/** A short name for the values a schema accepts, in the script's terms (`list`, not `array`). */
export function typeText(schema: JsonSchema | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return 'nothing';
  if (Object.hasOwn(schema, 'const')) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map((value) => JSON.stringify(value));
    return values.length <= 8 ? values.join(' | ') : `one of ${values.slice(0, 6).join(', ')}, ...`;
  }
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as JsonSchema[] | undefined;
  if (branches !== undefined && schema.type === undefined) return unique(branches.map((branch) => typeText(branch, depth))).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return schema.properties !== undefined ? objectText(schema, depth) : 'any';
  return unique(types.map((type) => singleType(type, schema, depth))).join(' | ');
}

function singleType(type: string, schema: Record<string, unknown>, depth: number): string {
  if (type === 'array') {
    const items = schema.items as JsonSchema | undefined;
    return items === undefined || Array.isArray(items) ? 'list' : `list of ${typeText(items, depth + 1)}`;
  }
  if (type === 'object') return objectText(schema, depth);
  return TYPE_NAMES[type] ?? type;
}

/** `object`, or one level of its shape: `{ id: string, qty?: number }`. */
function objectText(schema: Record<string, unknown>, depth: number): string {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined || depth > 0) return 'object';
  const names = Object.keys(properties);
  if (names.length === 0 || names.length > 6) return 'object';
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return `{ ${names.map((name) => `${argumentKey(name)}${required.has(name) ? '' : '?'}: ${typeText(properties[name], depth + 1)}`).join(', ')} }`;
}

function constraintText(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (keyword: string, text: (value: unknown) => string) => {
    if (schema[keyword] !== undefined) parts.push(text(schema[keyword]));
  };
  add('minimum', (v) => `≥ ${String(v)}`);
  add('exclusiveMinimum', (v) => `> ${String(v)}`);
  add('maximum', (v) => `≤ ${String(v)}`);
  add('exclusiveMaximum', (v) => `< ${String(v)}`);
  add('minLength', (v) => `at least ${String(v)} characters`);
  add('maxLength', (v) => `at most ${String(v)} characters`);
  add('minItems', (v) => `at least ${String(v)} items`);
  add('maxItems', (v) => `at most ${String(v)} items`);
  add('pattern', (v) => `pattern ${String(v)}`);
  add('format', (v) => String(v));
  // Zod writes the integer range into every integer; it says nothing a reader needs.
  return parts.filter((part) => !/^[≥≤] -?9007199254740991$/.test(part)).join(', ');
}

/** Text on one line, runs of white space as one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first sentence of a description (for one-line listings), at most `max` characters. */
export function firstSentence(text: string, max = 100): string {
  const flat = oneLine(text);
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
