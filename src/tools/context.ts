// The ToolContext a tool function receives (TOOLS.md §4): the session's state, facts about this
// call, and the run's services. One small object per call; everything heavy lives on the host.
//
// A tool is foreign code, so the context exposes exactly the documented surface: the host, the call
// site and the way calls are made live in true private fields, out of a tool's reach (a tool that
// could reach the host could, say, turn approval off for every later run). Once the run is over, the
// context refuses what would act on it: callTool, print, setVar, ask and llm raise AbortedError. So
// do getVar, setVar, callTool, ask and llm once the FOR iteration or comprehension element of the
// script's CALL is over (its variables are gone, and the place that gives nested calls their ids).
import { NuwaError } from '../errors.js';
import type { JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { describeThrown, textOf } from '../util/foreign.js';
import type { CallerContext, CallHost, CallSite, Invoke } from './call-host.js';
import { readAskRequest, readLlmRequest, requestFromHost, type RequestingCall } from './host-requests.js';
import type { AskOptions, LlmRequest, Logger, StateMetadata, ToolContext } from './types.js';

/**
 * A call's executionId: the run's id and the call's number. Made only when someone reads it (an
 * event, a tool's context.executionId): a string per call was a fifth of the cost of a CALL.
 */
export function executionIdOf(runId: string, callNumber: number): string {
  return `${runId}:${callNumber}`;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ignore = () => {};

/** The registry behind a call's context (set in CallContext's static block, where #host is in reach). */
let registryOf: (context: unknown) => CallHost['registry'] | undefined;
let hostOf: (context: unknown) => CallHost | undefined;

/** What the caller of the function call `context` belongs to said of itself (CallHost.caller). */
export function callerOf(context: unknown): CallerContext | undefined {
  return hostOf(context)?.caller;
}

/**
 * The parameter names of the tool `name`, in the order its schema declares them, as the registry
 * behind `context` has it; undefined when there is no such tool or `context` is not a call's own.
 * For views whose tools call tools with positional arguments (NeuroScript's `rt.callTool`): what it
 * reveals, a tool's parameter names, every tool can read from the prompt anyway.
 */
export function parameterNamesOf(context: unknown, name: string): string[] | undefined {
  const tool = registryOf(context)?.lookup(name);
  return tool && Object.keys(tool.parametersSchema.properties ?? {});
}

/** The parts of a context few tools use. */
interface ContextMore {
  /** The tool's own signal (a timeout or a concurrent element of its own), when it has one. */
  readonly signal: AbortSignal | undefined;
  executionId: string | undefined;
  logger: Logger | undefined;
  /** How many calls the tool has started through this context: the `>n` of their callIds. */
  nestedCalls: number;
}

function moreWith(signal: AbortSignal | undefined): ContextMore {
  return { signal, executionId: undefined, logger: undefined, nestedCalls: 0 };
}

export class CallContext implements ToolContext {
  static {
    hostOf = (context) => (context !== null && typeof context === 'object' && #host in context ? context.#host : undefined);
    registryOf = (context) => hostOf(context)?.registry;
  }

  /** How contexts make their calls: invokeTool, installed by invoke.ts (which imports this module). */
  static invoke: Invoke;

  readonly toolName: string;
  readonly #host: CallHost;
  readonly #site: CallSite;
  readonly #callNumber: number;
  /**
   * What few tools have or use (a signal of their own, their executionId, logger, nested calls),
   * made on first use or with the signal; without a signal of its own, the call has the run's.
   */
  #more: ContextMore | undefined;

  /**
   * `callNumber` numbers the call in its run (the executionId is made from it when read). Without a
   * `signal` of its own, the call has the run's, read only if the tool asks: the run then makes its
   * AbortController only for the tools that look at it (tools/run.ts).
   */
  constructor(host: CallHost, site: CallSite, toolName: string, callNumber: number, signal: AbortSignal | undefined) {
    this.#host = host;
    this.#site = site;
    this.#callNumber = callNumber;
    this.toolName = toolName;
    this.#more = signal === undefined ? undefined : moreWith(signal);
  }

  get #others(): ContextMore {
    return (this.#more ??= moreWith(undefined));
  }

  get signal(): AbortSignal {
    return this.#more?.signal ?? this.#host.signal;
  }

  get executionId(): string {
    const more = this.#others;
    return (more.executionId ??= executionIdOf(this.#host.runId, this.#callNumber));
  }

  get sessionId(): string {
    return this.#host.session.id;
  }

  // --- state ----------------------------------------------------------------------------------
  setState(key: string, value: JsonValue, metadata?: StateMetadata): void {
    this.#host.session.setState(key, value, metadata);
  }
  getStateValue(key: string): JsonValue | undefined {
    return this.#host.session.getStateValue(key);
  }
  hasState(key: string): boolean {
    return this.#host.session.hasState(key);
  }
  getAllState(): Map<string, JsonValue> {
    return this.#host.session.getAllState();
  }
  clearState(): void {
    this.#host.session.clearState();
  }
  getStateMetadata(key: string): StateMetadata | undefined {
    return this.#host.session.getStateMetadata(key);
  }
  getAllStateMetadata(): Map<string, StateMetadata> {
    return this.#host.session.getAllStateMetadata();
  }
  registerStateMetadata(key: string, metadata: StateMetadata): void {
    this.#host.session.registerStateMetadata(key, metadata);
  }

  // --- services -------------------------------------------------------------------------------
  get logger(): Logger {
    const more = this.#others;
    if (more.logger === undefined) {
      const { logger } = this.#host;
      const tag = (message: unknown) => `[${this.toolName}] ${textOf(message)}`;
      more.logger = Object.freeze({
        debug: (message: string, meta?: unknown) => logger.debug(tag(message), meta),
        info: (message: string, meta?: unknown) => logger.info(tag(message), meta),
        warn: (message: string, meta?: unknown) => logger.warn(tag(message), meta),
        error: (message: string, meta?: unknown) => logger.error(tag(message), meta),
      });
    }
    return more.logger;
  }

  print(text: string): void {
    this.#refuseAfterRun('print');
    this.#host.print(textOf(text));
  }

  /**
   * Calls another tool through the same path as a script's CALL, one level deeper. The promise is
   * marked as handled: a tool that fires a call off without awaiting it must not crash the host
   * when that call fails; a tool that awaits it still sees the failure.
   */
  callTool(name: string, args: Record<string, JsonValue> = {}): Promise<JsonValue> {
    const call = this.#callTool(name, args);
    call.then(undefined, ignore);
    return call;
  }

  async #callTool(name: unknown, args: unknown): Promise<JsonValue> {
    this.#refuseAfterIteration('callTool');
    if (typeof name !== 'string') throw new TypeError(`callTool(name, args): the name must be a string, not ${textOf(name)}`);
    let copy: JsonValue;
    try {
      copy = copyJson(args, this.#host.valueLimits);
    } catch (error) {
      throw new TypeError(`callTool("${name}"): the arguments are not JSON: ${describeThrown(error)}`);
    }
    if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) throw new TypeError(`callTool("${name}"): the arguments must be an object`);
    const site = this.#site;
    const callId = this.#nestedCallId();
    const nested: CallSite = {
      line: site.line,
      column: site.column,
      fileName: site.fileName,
      vars: site.vars,
      depth: (site.depth ?? 1) + 1,
      callId,
      // The nested call is in the iteration of the script's CALL, and over with it.
      get ended() {
        return site.ended;
      },
    };
    return CallContext.invoke(this.#host, name, copy, nested, 'json') as Promise<JsonValue>;
  }

  getVar(name: string): JsonValue | undefined {
    return this.#site.vars?.get(name);
  }

  setVar(name: string, value: JsonValue): void {
    this.#refuseAfterRun('setVar');
    if (typeof name !== 'string' || !VARIABLE_NAME.test(name)) throw new TypeError(`setVar: "${textOf(name)}" is not a valid variable name`);
    const { vars } = this.#site;
    if (!vars) throw new Error('setVar: this context is not attached to a running script');
    vars.set(name, value);
  }

  /**
   * A question for the person behind the host, through the host's ask hook (host-requests.ts). Like
   * callTool, the promise is marked as handled, and a run that has ended refuses.
   */
  ask(question: string, options?: AskOptions): Promise<string> {
    const asked = (async () => {
      this.#refuseAfterIteration('ask');
      return requestFromHost(this.#host, readAskRequest(question, options), this.#requestingCall());
    })();
    asked.then(undefined, ignore);
    return asked;
  }

  /** A completion from the host's model, through the host's llm hook (host-requests.ts). */
  llm(request: LlmRequest): Promise<string> {
    const completed = (async () => {
      this.#refuseAfterIteration('llm');
      return requestFromHost(this.#host, readLlmRequest(request), this.#requestingCall());
    })();
    completed.then(undefined, ignore);
    return completed;
  }

  #requestingCall(): RequestingCall {
    const site = this.#site;
    return { toolName: this.toolName, callId: this.#nestedCallId(), signal: this.signal, line: site.line ?? 0, column: site.column ?? 0 };
  }

  /**
   * The callId of a call this tool makes (callTool, ask, llm): its own call's callId, `>`, and the
   * order in which the tool started its nested calls (DURABLE.md §1).
   */
  #nestedCallId(): string {
    return `${this.#site.callId ?? 'call'}>${this.#others.nestedCalls++}`;
  }

  get sandboxDir(): string {
    return this.#host.sandbox.dir;
  }

  resolvePath(relative: string): string {
    return this.#host.sandbox.resolvePath(relative);
  }

  #refuseAfterRun(what: string): void {
    if (this.#host.ended) throw new NuwaError('AbortedError', `context.${what}: the run that called \`${this.toolName}\` has ended`, { toolName: this.toolName });
  }

  /** callTool, ask and llm: refused after the run, and once the iteration of the script's CALL is over (CallSite.ended). */
  #refuseAfterIteration(what: string): void {
    this.#refuseAfterRun(what);
    if (this.#site.ended === true) {
      throw new NuwaError('AbortedError', `context.${what}: the FOR iteration or comprehension element of the CALL to \`${this.toolName}\` is over`, { toolName: this.toolName });
    }
  }
}
