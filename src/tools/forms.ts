// The registration forms of the other tool systems Nuwa merges (TOOLS.md §1), turned into the one
// tool definition the registry builds from. Their tools register unchanged:
// - Plaited: `register(name, handler, schema)`, the handler answering with a result envelope;
// - sdkwork-agent: `register(defineTool({ id, name, description, category, confirm, input, output,
//   execute, meta }))`, execute(input, context) answering with a result envelope.
// The form is known from the call (a function as the second argument; an object made by defineTool),
// and decides that the tool's return value is read as an envelope (envelope.ts).
import { openEnvelope } from './envelope.js';
import { callerOf } from './context.js';
import type { ToolSpec } from './build.js';
import type { CallerContext } from './call-host.js';
import type {
  ConfirmLevel,
  ParametersSchema,
  StandardSchemaLike,
  ToolArgs,
  ToolCategory,
  ToolContext,
  ToolEnvelope,
  ToolParameters,
  ToolReturns,
  ToolSource,
} from './types.js';
import type { JsonObject } from '../values/json.js';

/** A tool definition with what the registry keeps about the form it came in. */

// ---------------------------------------------------------------------------------------------
// Plaited

/** A Plaited handler; `A`, its arguments, typed from the schema's parameters where it is registered. */
export type PlaitedHandler<A = JsonObject> = (args: A, context: ToolContext) => ToolEnvelope | PromiseLike<ToolEnvelope>;

/** Plaited's schema: `{ name, description, parameters }`, with Nuwa's options allowed too. */
export interface PlaitedSchema<P extends ToolParameters = ToolParameters> {
  name?: string;
  description: string;
  parameters?: P;
  returns?: ToolReturns;
  category?: ToolCategory;
  confirm?: ConfirmLevel;
  confirmFor?(args: ToolArgs<P>): ConfirmLevel;
  keywords?: readonly string[];
  timeoutMs?: number;
  source?: ToolSource;
}

export function fromPlaited(name: string, handler: PlaitedHandler, schema: PlaitedSchema | undefined): ToolSpec {
  if (schema === null || typeof schema !== 'object') throw new TypeError(`register("${name}", handler, schema): the schema is missing`);
  if (schema.name !== undefined && schema.name !== name) throw new TypeError(`register("${name}", handler, schema): the schema is named "${schema.name}"`);
  return {
    ...schema,
    name,
    parameters: schema.parameters ?? { type: 'object', properties: {} },
    returns: schema.returns ?? 'any',
    form: 'plaited',
    execute: async (args, context) => openEnvelope(await handler(args, context), 'Plaited-style'),
  };
}

// ---------------------------------------------------------------------------------------------
// sdkwork-agent

/**
 * What an sdkwork tool's execute receives: the ToolContext, plus its id as sdkwork names it, and the
 * agent the call is made for when its caller said (sdkwork's `execute(name, input, context)`).
 */
export type DefinedToolContext = ToolContext & { readonly toolId: string; readonly agentId?: string };

/** sdkwork's tool definition; `I`, the type of its `input` schema, types `execute`'s input. */
export interface DefineToolSpec<I extends ParametersSchema | StandardSchemaLike = ParametersSchema | StandardSchemaLike> {
  /** Stable id, e.g. `file-read`; the tool is called as `file_read` when `name` is not an identifier. */
  id: string;
  /**
   * A human name (`File Read`) or an identifier CALL can use (`read_file`, `fs.read`); without one,
   * the tool is called by its id.
   */
  name?: string;
  description: string;
  category?: ToolCategory;
  confirm?: ConfirmLevel;
  /** Nuwa's addition: the level of one call, from its arguments (ToolDefinition.confirmFor). */
  confirmFor?(input: ToolArgs<I>): ConfirmLevel;
  /** JSON Schema of the input (or a Zod / Standard Schema object). */
  input?: I;
  /** JSON Schema of `data` in a successful result. */
  output?: ToolReturns;
  execute(input: ToolArgs<I>, context: DefinedToolContext): ToolEnvelope | PromiseLike<ToolEnvelope>;
  meta?: Record<string, unknown>;
  version?: string;
  keywords?: readonly string[];
  timeoutMs?: number;
  source?: ToolSource;
}

// Symbol.for, so that a tool defined with one copy of the package (a tools module importing the
// published build) is recognised by another (a host running from source).
const DEFINED = Symbol.for('nuwa-script.definedTool');

/**
 * A tool made by defineTool. Without a type argument, any of them, whatever its input schema (a
 * list of tools holds tools typed from different schemas).
 */
export interface DefinedTool<I extends ParametersSchema | StandardSchemaLike = any> extends DefineToolSpec<I>, DefinedToolMark {}

/**
 * What marks a tool made by defineTool, all `registry.register` needs to know it from a one-object
 * definition. (register's parameter names this rather than DefinedTool: a definition with a mistake
 * is then compared with the one-object form only, not with sdkwork's too.)
 */
export interface DefinedToolMark {
  readonly [DEFINED]: true;
}

/**
 * Marks an sdkwork-style tool definition for `registry.register` (TOOLS.md §1). Its `input` schema
 * types `execute`'s input.
 */
export function defineTool<const I extends ParametersSchema | StandardSchemaLike = ParametersSchema | StandardSchemaLike>(spec: DefineToolSpec<I>): DefinedTool<I> {
  if (spec === null || typeof spec !== 'object') throw new TypeError('defineTool(spec): spec must be an object');
  if (typeof spec.id !== 'string' || spec.id === '') throw new TypeError('defineTool: a tool needs an id (e.g. "file-read")');
  if (typeof spec.execute !== 'function') throw new TypeError(`defineTool("${spec.id}"): execute must be a function`);
  return Object.freeze({ ...spec, [DEFINED]: true as const });
}

export function isDefinedTool(value: unknown): value is DefinedTool {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[DEFINED] === true;
}

const CALLABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** The name CALL uses for a defined tool: its `name` if that is an identifier, else its id with `-` → `_`. */
export function callableName(tool: Pick<DefineToolSpec, 'id' | 'name'>): string {
  if (typeof tool.name === 'string' && CALLABLE_NAME.test(tool.name)) return tool.name;
  return tool.id.replaceAll('-', '_');
}

export function fromDefinedTool(tool: DefinedTool): ToolSpec {
  const name = callableName(tool);
  const { id } = tool;
  const run = tool.execute;
  const spec: ToolSpec = {
    name,
    description: tool.description,
    parameters: tool.input ?? { type: 'object', properties: {} },
    returns: tool.output ?? 'any',
    form: 'sdkwork',
    id,
    execute: async (args, context) => openEnvelope(await run(args, withToolId(context, id, callerOf(context))), 'sdkwork-style'),
  };
  if (typeof tool.name === 'string' && tool.name !== name) spec.title = tool.name;
  if (tool.meta !== undefined) spec.meta = tool.meta;
  for (const key of ['category', 'confirm', 'confirmFor', 'keywords', 'timeoutMs', 'source', 'version'] as const) {
    if (tool[key] !== undefined) (spec as unknown as Record<string, unknown>)[key] = tool[key];
  }
  return spec;
}

/**
 * The context with `toolId` added, and what an sdkwork caller said in place of the call's own. A
 * proxy rather than a copy: the context's methods and getters run on the real context (bound to it),
 * so they keep working however the context keeps its state.
 */
function withToolId(context: ToolContext, toolId: string, caller: CallerContext | undefined): DefinedToolContext {
  const given: Record<PropertyKey, unknown> = { toolId };
  for (const key of ['executionId', 'agentId', 'sessionId', 'logger'] as const) {
    if (caller?.[key] !== undefined) given[key] = caller[key];
  }
  return new Proxy(context, {
    get(target, property) {
      if (Object.hasOwn(given, property)) return given[property];
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has: (target, property) => Object.hasOwn(given, property) || Reflect.has(target, property),
  }) as DefinedToolContext;
}
