// The tool model of TOOLS.md §1 and §4, as public types. The schemas a tool is written with, and
// the types its function gets from them, are inference.ts.
import type { JsonObject, JsonValue } from '../values/json.js';
import type { JsonSchema, JsonSchemaObject, NuwaType, ToolArgs, ToolParameter, ToolParameters, ToolReturn, ToolReturns } from './inference.js';

export type { JsonSchema, JsonSchemaObject, NuwaType, ParametersSchema, StandardSchemaLike, ToolArgs, ToolParameter, ToolParameters, ToolReturn, ToolReturns, TypedToolFunction } from './inference.js';

export interface ToolSchema {
  /** Unique and case-sensitive: what CALL uses. */
  name: string;
  description: string;
  parameters: ToolParameter[] | JsonSchemaObject;
  returns: NuwaType | JsonSchema;
}

/** The checked, coerced arguments a tool function receives (its own copy). */
export type EvaluatedToolArguments = JsonObject;

/**
 * What a tool does. It should return a JSON value (or a promise of one); `undefined` becomes null,
 * and anything that is not JSON is refused with ToolResultError.
 */
export type ToolFunction = (args: EvaluatedToolArguments, context: ToolContext) => unknown;

export type ToolCategory = 'file' | 'network' | 'system' | 'data' | 'llm' | 'custom';
/**
 * Where a tool came from (TOOLS.md §5, `search({ source })`): set by the provider that made it.
 * `a2a` is a tool of another agent (Agent2Agent), as Plaited's tool discovery names it.
 */
export type ToolSource = 'local' | 'module' | 'executable' | 'mcp' | 'a2a';
export type ConfirmLevel = 'none' | 'read' | 'write' | 'destructive';

/** The options of a tool besides its schema and function (TOOLS.md §1), in every form that takes them. */
export interface ToolOptions {
  category?: ToolCategory;
  /** Risk level; `write` and `destructive` need the host's approval by default. */
  confirm?: ConfirmLevel;
  /** Extra words for search. */
  keywords?: readonly string[];
  /** Per-call time limit; exceeding it raises LimitExceededError and aborts the tool's signal. */
  timeoutMs?: number;
  /** Where the tool came from; providers set it, and it defaults to 'local'. */
  source?: ToolSource;
  /**
   * Calling it again with the same arguments does no more than calling it once: after a crash, a
   * durable run calls it again without asking anyone (DURABLE.md §3). Default false.
   */
  idempotent?: boolean;
}

/**
 * A tool's schema and function, typed from each other: `P` and `R` are the types of `parameters`
 * and `returns`, inferred where the tool is registered, and they type `execute`'s arguments and
 * result (inference.ts). Both registration forms share it.
 */
export interface TypedTool<P extends ToolParameters = ToolParameters, R extends ToolReturns = ToolReturns> extends ToolOptions {
  description: string;
  /**
   * A parameter list, a JSON Schema object, or a schema library's object schema (Zod, Standard
   * Schema). Without it the tool takes no arguments.
   */
  parameters?: P;
  /** A type name, a JSON Schema, or a schema library's schema; without it, any JSON value. */
  returns?: R;
  /**
   * The risk level of one call, when it depends on the call's arguments (`http.request`: read for
   * GET, write otherwise). It gets a copy of the checked arguments, defaults filled in. `confirm`
   * stays the level that listings show and that plans use for calls whose arguments are computed at
   * run time: make it the highest level this can answer. An answer that is not a level, or a throw,
   * counts as `confirm`.
   */
  confirmFor?(args: ToolArgs<P>): ConfirmLevel;
}

/**
 * The one-object registration form. (`execute` is a method, so that a definition typed from its
 * schemas is still a ToolDefinition where a list of them is expected.)
 */
export interface ToolDefinition<P extends ToolParameters = ToolParameters, R extends ToolReturns = ToolReturns> extends TypedTool<P, R> {
  /** Unique and case-sensitive: what CALL uses. */
  name: string;
  execute(args: ToolArgs<P>, context: ToolContext): ToolReturn<R> | PromiseLike<ToolReturn<R>>;
}

/** The Nuwa form's schema, `register(name, schema, fn)`: the one-object form without its name and function. */
export interface NuwaSchema<P extends ToolParameters = ToolParameters, R extends ToolReturns = ToolReturns> extends TypedTool<P, R> {
  /** When given, the name the tool is registered under. */
  name?: string;
  /** The function, when it is not the third argument. */
  execute?(args: ToolArgs<P>, context: ToolContext): ToolReturn<R> | PromiseLike<ToolReturn<R>>;
}

export interface StateMetadata {
  description: string;
  formatter?: (value: JsonValue) => string;
}

/** A state value with its metadata (the original Nuwa tools specification's helper type). */
export interface StateValueWithMetadata {
  value: JsonValue;
  metadata?: StateMetadata;
}

export interface Logger {
  debug(message: string, meta?: unknown): void;
  info(message: string, meta?: unknown): void;
  warn(message: string, meta?: unknown): void;
  error(message: string, meta?: unknown): void;
}

/** The state part of a context: shared by every tool of one session. */
export interface StateAccess {
  setState(key: string, value: JsonValue, metadata?: StateMetadata): void;
  getStateValue(key: string): JsonValue | undefined;
  hasState(key: string): boolean;
  getAllState(): Map<string, JsonValue>;
  clearState(): void;
  getStateMetadata(key: string): StateMetadata | undefined;
  getAllStateMetadata(): Map<string, StateMetadata>;
  registerStateMetadata(key: string, metadata: StateMetadata): void;
}

export interface ToolContext extends StateAccess {
  readonly toolName: string;
  readonly executionId: string;
  readonly sessionId: string;
  /** Aborted when the host cancels the run or a limit is hit. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Writes a line to the same output as PRINT. */
  print(text: string): void;
  /** Calls another tool with the same checks, limits and approval policy. */
  callTool(name: string, args: Record<string, JsonValue>): Promise<JsonValue>;
  /** The script's variable as seen from the CALL (a copy), or undefined. */
  getVar(name: string): JsonValue | undefined;
  /** LET semantics at the CALL's scope. */
  setVar(name: string, value: JsonValue): void;
  /** A directory the tool may write in. */
  readonly sandboxDir: string;
  /** A path inside sandboxDir; throws if `relative` would escape it (.., absolute, symlinks). */
  resolvePath(relative: string): string;
  /**
   * Asks the person behind the host a question (the host's `ask` hook: a terminal, an MCP client's
   * form, a chat window) and resolves to the answer; with `choices`, the answer is one of them. Fails
   * with ToolExecutionError when the host has no way to ask, or answers badly.
   */
  ask(question: string, options?: AskOptions): Promise<string>;
  /** Has the host's model complete a prompt (the host's `llm` hook) and resolves to its text. */
  llm(request: LlmRequest): Promise<string>;
}

export interface AskOptions {
  /** The answers allowed: the answer is then exactly one of them. */
  choices?: string[];
}

/** What the host's ask hook is asked (TOOLS.md §11). */
export interface AskRequest {
  question: string;
  /** Present when the tool gave choices: the answer must be one of them. */
  choices?: string[];
  /** The tool that asks. */
  toolName: string;
  /** The identity of this request among the run's calls (DURABLE.md §1). */
  callId: string;
  /** Aborted when the run stops or the tool's time is up: nobody waits for the answer any more. */
  signal: AbortSignal;
}
/** Resolves to the answer. */
/** The answer; or, in a durable run (DURABLE.md §2), `{ pause: true }`: the run waits for a host to answer later. */
export type AskAnswer = string | { pause: true };
export type AskHook = (request: AskRequest) => AskAnswer | Promise<AskAnswer>;

/** One turn of a conversation sent to the host's model; a system prompt goes in `system`. */
export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}
/** A prompt, or a conversation with an optional system prompt and a cap on the reply's length. */
export type LlmRequest = string | { messages: LlmMessage[]; system?: string; maxTokens?: number };
/** Who makes an llm request: what the host's llm hook receives besides the request. */
export interface LlmCallInfo {
  toolName: string;
  callId: string;
  /** Aborted when the run stops or the tool's time is up. */
  signal: AbortSignal;
}
/** Resolves to the model's text. */
export type LlmHook = (request: LlmRequest, call: LlmCallInfo) => string | Promise<string>;

/** What the host's approval hook is asked before a tool that needs approval runs. */
export interface ApprovalRequest {
  toolName: string;
  confirm: ConfirmLevel;
  category: ToolCategory;
  args: JsonObject;
  /** The call's identity (DURABLE.md §1): the key of a decision given on resume. */
  callId: string;
}
/** true: go ahead; false: deny; 'pause': a durable run stops here until a host decides (DURABLE.md §2). */
export type ApprovalAnswer = boolean | 'pause';
export type ApprovalHook = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

/**
 * The result envelope of the tool systems Nuwa merges (Plaited handlers, sdkwork tools,
 * executables): `{ success: true, data }` or `{ success: false, error }`.
 */
export interface ToolEnvelope {
  success: boolean;
  data?: unknown;
  error?: string | { message: string; code?: string; details?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/** Which system's form a tool was registered in (TOOLS.md §1): decides how its result is read. */
export type ToolForm = 'nuwa' | 'plaited' | 'sdkwork';

/** A search embedder (TOOLS.md §5): text in, a vector out. */
export type Embedder = (text: string) => Promise<Float32Array | readonly number[]>;
