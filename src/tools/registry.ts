// The ToolRegistry (TOOLS.md §5): the tools a host exposes, each registered once with its schema
// compiled into validators; plus the registry's default session, whose state its state methods use.
// It knows nothing of how a call is carried out: invoke.ts does that, and imports the registry only
// for its types; createToolContext hands over to detached.ts.
import type { JsonValue } from '../values/json.js';
import { KEYWORDS } from '../syntax/tokens.js';
import { parametersToSchema, returnsToSchema } from './schema.js';
import { Session } from './session.js';
import { compileArgumentValidator, compileResultCheck, type ArgumentValidator, type ResultCheck } from './validate.js';
import { createDetachedContext } from './detached.js';
import type {
  ConfirmLevel,
  JsonSchema,
  JsonSchemaObject,
  StateMetadata,
  ToolCategory,
  ToolContext,
  ToolDefinition,
  ToolFunction,
  ToolSchema,
  ToolSource,
} from './types.js';

const CATEGORIES: readonly ToolCategory[] = ['file', 'network', 'system', 'data', 'llm', 'custom'];
const CONFIRM_LEVELS: readonly ConfirmLevel[] = ['none', 'read', 'write', 'destructive'];
const SOURCES: readonly ToolSource[] = ['local', 'module', 'executable', 'mcp'];
const RESERVED = new Set<string>([...KEYWORDS, 'true', 'false', 'null']);
const NAME_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A registered tool: its definition, normalised, with validators compiled at registration. */
export interface RegisteredTool {
  readonly name: string;
  readonly description: string;
  /** As registered (a parameter list or a JSON Schema). */
  readonly parameters: ToolSchema['parameters'];
  /** The parameters as a JSON Schema object (what validation and function calling use). */
  readonly parametersSchema: JsonSchemaObject;
  readonly returns: ToolSchema['returns'];
  readonly returnsSchema: JsonSchema;
  readonly category: ToolCategory;
  readonly confirm: ConfirmLevel;
  readonly keywords: readonly string[];
  readonly timeoutMs: number | undefined;
  readonly source: ToolSource;
  readonly execute: ToolFunction;
  readonly validateArguments: ArgumentValidator;
  readonly checkResult: ResultCheck;
}

/** The function-calling form of a tool: what a model with native tool calling is given. */
export interface FunctionSchema {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  /** The registry's own session: its state methods act on it. */
  readonly defaultSession = new Session();

  /**
   * Registers a tool: `register(name, schema, fn)` (the Nuwa form) or `register({ ...schema,
   * execute, category, confirm, keywords, timeoutMs })`. Registering a taken name is an error.
   */
  register(nameOrDefinition: string | ToolDefinition, schema?: Omit<ToolSchema, 'name'> & Partial<ToolDefinition>, execute?: ToolFunction): RegisteredTool {
    let definition: ToolDefinition;
    if (typeof nameOrDefinition === 'string') {
      if (schema === null || typeof schema !== 'object') throw new TypeError(`register("${nameOrDefinition}", schema, fn): the schema is missing`);
      if (schema.name !== undefined && schema.name !== nameOrDefinition) {
        throw new TypeError(`register("${nameOrDefinition}", ...): the schema is named "${schema.name}"`);
      }
      definition = { ...schema, name: nameOrDefinition, execute: execute ?? (schema.execute as ToolFunction) } as ToolDefinition;
    } else {
      definition = nameOrDefinition;
    }
    const tool = buildTool(definition);
    if (this.tools.has(tool.name)) throw new Error(`a tool named "${tool.name}" is already registered: unregister it first`);
    this.tools.set(tool.name, tool);
    return tool;
  }

  /** Registers tools under a group: `registerToolset('math', [add])` makes `math.add`. */
  registerToolset(group: string, tools: ToolDefinition[]): RegisteredTool[] {
    checkName(group, 'toolset');
    if (!Array.isArray(tools)) throw new TypeError(`registerToolset("${group}", tools): tools must be a list of tool definitions`);
    const fullNames = tools.map((t) => `${group}.${t?.name}`);
    const taken = fullNames.find((n) => this.tools.has(n));
    if (taken) throw new Error(`a tool named "${taken}" is already registered: unregister it first`);
    return tools.map((tool) => this.register({ ...tool, name: `${group}.${tool.name}` }));
  }

  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  lookup(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  getSchema(name: string): ToolSchema | undefined {
    const tool = this.tools.get(name);
    return tool && { name: tool.name, description: tool.description, parameters: tool.parameters, returns: tool.returns };
  }

  /** Every registered tool, in registration order. */
  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  listByCategory(category: ToolCategory): RegisteredTool[] {
    return this.list().filter((tool) => tool.category === category);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The JSON-Schema function-calling form of every tool. */
  get schemas(): FunctionSchema[] {
    return this.list().map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parametersSchema }));
  }

  /** A new session with its own state, for running scripts side by side on one registry. */
  createSession(id?: string): Session {
    return new Session(id);
  }

  /** A context outside any script, bound to the default session (for tests and host code). */
  createToolContext(toolName = 'host'): ToolContext {
    return createDetachedContext(this, this.defaultSession, toolName);
  }

  // --- the default session's state ------------------------------------------------------------
  setState(key: string, value: JsonValue, metadata?: StateMetadata): void {
    this.defaultSession.setState(key, value, metadata);
  }
  getStateValue(key: string): JsonValue | undefined {
    return this.defaultSession.getStateValue(key);
  }
  hasState(key: string): boolean {
    return this.defaultSession.hasState(key);
  }
  getAllState(): Map<string, JsonValue> {
    return this.defaultSession.getAllState();
  }
  clearState(): void {
    this.defaultSession.clearState();
  }
  getStateMetadata(key: string): StateMetadata | undefined {
    return this.defaultSession.getStateMetadata(key);
  }
  getAllStateMetadata(): Map<string, StateMetadata> {
    return this.defaultSession.getAllStateMetadata();
  }
  registerStateMetadata(key: string, metadata: StateMetadata): void {
    this.defaultSession.registerStateMetadata(key, metadata);
  }
  formatStateForPrompt(): string {
    return this.defaultSession.formatStateForPrompt();
  }
}

export function createToolRegistry(): ToolRegistry {
  return new ToolRegistry();
}

function checkName(name: unknown, what: string): asserts name is string {
  if (typeof name !== 'string' || name === '') throw new TypeError(`a ${what} needs a name`);
  for (const segment of name.split('.')) {
    if (!NAME_SEGMENT.test(segment)) {
      throw new TypeError(`"${name}" is not a valid ${what} name: use letters, digits and _ (dots separate a toolset from its tools), so that CALL can name it`);
    }
    if (RESERVED.has(segment)) throw new TypeError(`"${name}" is not a valid ${what} name: ${segment} is a keyword of the language`);
  }
}

function buildTool(definition: ToolDefinition): RegisteredTool {
  if (definition === null || typeof definition !== 'object') throw new TypeError('register: a tool definition must be an object');
  const { name } = definition;
  checkName(name, 'tool');
  if (typeof definition.execute !== 'function') throw new TypeError(`tool "${name}": execute must be a function`);
  if (typeof definition.description !== 'string') throw new TypeError(`tool "${name}": a description (string) is required; models choose tools by it`);
  const category = definition.category ?? 'custom';
  if (!CATEGORIES.includes(category)) throw new TypeError(`tool "${name}": category must be one of ${CATEGORIES.join(', ')}`);
  const confirm = definition.confirm ?? 'none';
  if (!CONFIRM_LEVELS.includes(confirm)) throw new TypeError(`tool "${name}": confirm must be one of ${CONFIRM_LEVELS.join(', ')}`);
  const { timeoutMs } = definition;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0))) throw new TypeError(`tool "${name}": timeoutMs must be a positive number`);
  const source = definition.source ?? 'local';
  if (!SOURCES.includes(source)) throw new TypeError(`tool "${name}": source must be one of ${SOURCES.join(', ')}`);
  const keywords = definition.keywords ?? [];
  if (!Array.isArray(keywords) || keywords.some((k) => typeof k !== 'string')) throw new TypeError(`tool "${name}": keywords must be a list of strings`);

  // Frozen copies: changing the objects it registered with must not change a tool behind the
  // host's back (its validators are compiled from them now).
  const parameters = frozenCopy(definition.parameters ?? []);
  const parametersSchema = frozenCopy(parametersToSchema(name, parameters));
  const returns = frozenCopy(definition.returns ?? 'any');
  const returnsSchema = frozenCopy(returnsToSchema(name, returns));
  return Object.freeze({
    name,
    description: definition.description,
    parameters,
    parametersSchema,
    returns,
    returnsSchema,
    category,
    confirm,
    keywords: Object.freeze([...keywords]),
    timeoutMs,
    source,
    execute: definition.execute,
    validateArguments: compileArgumentValidator(name, parametersSchema),
    checkResult: compileResultCheck(name, returns, returnsSchema),
  });
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
