// From a tool definition (any form of TOOLS.md §1) to a registered tool: every field checked with a
// message that says what to write instead, schemas normalised to JSON Schema (schema libraries
// converted once, here) and compiled into validators, and the result frozen.
import { KEYWORDS } from '../syntax/tokens.js';
import type { JsonObject } from '../values/json.js';
import { copyJson } from '../values/values.js';
import type { ToolSpec } from './forms.js';
import { parametersToSchema, returnsToSchema } from './schema.js';
import { librarySchemaToJsonSchema } from './standard-schema.js';
import { compileArgumentValidator, compileResultCheck, type ArgumentValidator, type ResultCheck } from './validate.js';
import type { ConfirmLevel, JsonSchema, JsonSchemaObject, ToolCategory, ToolForm, ToolFunction, ToolSchema, ToolSource } from './types.js';

export const CATEGORIES: readonly ToolCategory[] = ['file', 'network', 'system', 'data', 'llm', 'custom'];
export const CONFIRM_LEVELS: readonly ConfirmLevel[] = ['none', 'read', 'write', 'destructive'];
export const SOURCES: readonly ToolSource[] = ['local', 'module', 'executable', 'mcp', 'a2a'];
const RESERVED = new Set<string>([...KEYWORDS, 'true', 'false', 'null']);
const NAME_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A registered tool: its definition, normalised, with validators compiled at registration. */
export interface RegisteredTool {
  readonly name: string;
  readonly description: string;
  /** As registered (a parameter list or a JSON Schema; a schema library's schema as converted). */
  readonly parameters: ToolSchema['parameters'];
  /** The parameters as a JSON Schema object (what validation and function calling use). */
  readonly parametersSchema: JsonSchemaObject;
  readonly returns: ToolSchema['returns'];
  readonly returnsSchema: JsonSchema;
  readonly category: ToolCategory;
  readonly confirm: ConfirmLevel;
  /** The level of one call when it depends on the arguments (read it through confirmOf). */
  readonly confirmFor: ((args: JsonObject) => ConfirmLevel) | undefined;
  readonly keywords: readonly string[];
  readonly timeoutMs: number | undefined;
  /** Calling it twice with the same arguments does what calling it once does (DURABLE.md §3). */
  readonly idempotent: boolean;
  readonly source: ToolSource;
  /** The tool system whose form it was registered in (decides how its result is read). */
  readonly form: ToolForm;
  /** A `defineTool` tool's id (`file-read`), which `get` and `execute` accept too. */
  readonly id: string | undefined;
  /** A `defineTool` tool's human name (`File Read`), when CALL uses another. */
  readonly title: string | undefined;
  /** A `defineTool` tool's metadata, as given. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** A `defineTool` tool's version (`1.2.0`), as given. */
  readonly version: string | undefined;
  readonly execute: ToolFunction;
  readonly validateArguments: ArgumentValidator;
  readonly checkResult: ResultCheck;
}

export function checkName(name: unknown, what: string): asserts name is string {
  if (typeof name !== 'string' || name === '') throw new TypeError(`a ${what} needs a name`);
  for (const segment of name.split('.')) {
    if (!NAME_SEGMENT.test(segment)) {
      throw new TypeError(`"${name}" is not a valid ${what} name: use letters, digits and _ (dots separate a toolset from its tools), so that CALL can name it`);
    }
    if (RESERVED.has(segment)) throw new TypeError(`"${name}" is not a valid ${what} name: ${segment} is a keyword of the language`);
  }
}

export function buildTool(spec: ToolSpec): RegisteredTool {
  if (spec === null || typeof spec !== 'object') throw new TypeError('register: a tool definition must be an object');
  const { name } = spec;
  if (spec.form === 'nuwa' && spec.parameters === undefined && 'input' in spec && 'id' in spec) {
    throw new TypeError(`tool "${String(name ?? (spec as { id?: unknown }).id)}" has id and input like an sdkwork tool: register it as registry.register(defineTool({ ... }))`);
  }
  if (spec.form === 'nuwa' && spec.parameters === undefined) {
    // MCP and Anthropic name the arguments' schema differently; taken for "no arguments" it would
    // refuse every argument the tool was meant to take.
    const other = ['inputSchema', 'input_schema'].find((key) => key in spec);
    if (other) throw new TypeError(`tool "${String(name)}": the arguments' schema goes in \`parameters\`, not \`${other}\``);
  }
  checkName(name, 'tool');
  if (typeof spec.execute !== 'function') throw new TypeError(`tool "${name}": execute must be a function`);
  if (typeof spec.description !== 'string') throw new TypeError(`tool "${name}": a description (string) is required; models choose tools by it`);
  const category = spec.category ?? 'custom';
  if (!CATEGORIES.includes(category)) throw new TypeError(`tool "${name}": category must be one of ${CATEGORIES.join(', ')}`);
  const confirm = spec.confirm ?? 'none';
  if (!CONFIRM_LEVELS.includes(confirm)) throw new TypeError(`tool "${name}": confirm must be one of ${CONFIRM_LEVELS.join(', ')}`);
  const { confirmFor } = spec;
  if (confirmFor !== undefined && typeof confirmFor !== 'function') throw new TypeError(`tool "${name}": confirmFor must be a function (args) => confirm level`);
  const { timeoutMs } = spec;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0))) throw new TypeError(`tool "${name}": timeoutMs must be a positive number`);
  const idempotent = spec.idempotent ?? false;
  if (typeof idempotent !== 'boolean') throw new TypeError(`tool "${name}": idempotent must be true or false`);
  const source = spec.source ?? 'local';
  if (!SOURCES.includes(source)) throw new TypeError(`tool "${name}": source must be one of ${SOURCES.join(', ')}`);
  if (spec.version !== undefined && typeof spec.version !== 'string') throw new TypeError(`tool "${name}": version must be a string`);
  const keywords = spec.keywords ?? [];
  if (!Array.isArray(keywords) || keywords.some((k) => typeof k !== 'string')) throw new TypeError(`tool "${name}": keywords must be a list of strings`);

  // Frozen copies: changing the objects it registered with must not change a tool behind the
  // host's back (its validators are compiled from them now). A schema library's schema is converted
  // first: it is code, not data, and validation works from its JSON Schema.
  const parametersInput = spec.parameters ?? [];
  const parameters = frozenCopy(
    (librarySchemaToJsonSchema(name, 'parameters', parametersInput) as ToolSchema['parameters'] | undefined) ?? (parametersInput as ToolSchema['parameters']),
  );
  const parametersSchema = frozenCopy(parametersToSchema(name, parameters));
  const returnsInput = spec.returns ?? 'any';
  const returns = frozenCopy((librarySchemaToJsonSchema(name, 'returns', returnsInput) as ToolSchema['returns'] | undefined) ?? (returnsInput as ToolSchema['returns']));
  const returnsSchema = frozenCopy(returnsToSchema(name, returns));
  return Object.freeze({
    name,
    description: spec.description,
    parameters,
    parametersSchema,
    returns,
    returnsSchema,
    category,
    confirm,
    confirmFor,
    keywords: Object.freeze([...keywords]),
    timeoutMs,
    idempotent,
    source,
    form: spec.form,
    id: spec.id,
    title: spec.title,
    meta: spec.meta,
    version: spec.version,
    execute: spec.execute,
    validateArguments: compileArgumentValidator(name, parametersSchema),
    checkResult: compileResultCheck(name, returns, returnsSchema),
  });
}

/**
 * The risk level of one call with these (checked) arguments: the tool's `confirm`, unless its
 * `confirmFor` answers a level for them. confirmFor is the host's code: it gets its own copy, and a
 * throw or an answer that is not a level counts as `confirm` (the level the tool is listed with).
 */
export function confirmOf(tool: { readonly confirm: ConfirmLevel; readonly confirmFor?: ((args: JsonObject) => ConfirmLevel) | undefined }, args: JsonObject): ConfirmLevel {
  const { confirmFor } = tool;
  if (confirmFor === undefined) return tool.confirm;
  try {
    const level: unknown = confirmFor(copyJson(args) as JsonObject);
    return typeof level === 'string' && (CONFIRM_LEVELS as readonly string[]).includes(level) ? (level as ConfirmLevel) : tool.confirm;
  } catch {
    return tool.confirm;
  }
}

function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  let copy: T;
  try {
    copy = structuredClone(value);
  } catch {
    throw new TypeError('a tool schema must be plain data (no functions or class instances)');
  }
  const freeze = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || Object.isFrozen(node)) return;
    Object.freeze(node);
    for (const child of Object.values(node)) freeze(child);
  };
  freeze(copy);
  return copy;
}
