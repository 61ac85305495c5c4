// What a tool call needs from the run around it (CallHost) and where it comes from (CallSite): the
// interfaces between the one call path (invoke.ts), the contexts it hands to tools (context.ts) and
// the runs that host calls (run.ts for scripts and function calling, detached.ts for host code).
import type { JsonObject, JsonValue } from '../values/json.js';
import type { Value, ValueLimits } from '../values/values.js';
import type { NuwaEvent } from '../events.js';
import type { NuwaError } from '../errors.js';
import type { RegisteredTool } from './build.js';
import type { ToolCatalog } from './catalog.js';
import type { Waits } from './guard.js';
import type { CallJournal } from './journal.js';
import type { Sandbox } from './sandbox.js';
import type { Session } from './session.js';
import type { ApprovalHook, AskHook, ConfirmLevel, LlmHook, Logger } from './types.js';
import type { ApprovalTrace } from './tracing.js';

/** How deep tools may call tools through context.callTool when the host sets no maxCallDepth. */
export const DEFAULT_MAX_CALL_DEPTH = 32;

/** What the run around a call provides: limits, output, approval, events, cancellation. */
export interface CallHost {
  readonly registry: ToolCatalog;
  readonly session: Session;
  /** Aborted when the run stops, with the NuwaError that stopped it as its reason. */
  readonly signal: AbortSignal;
  /** True once `signal` is aborted (read on every call: cheaper than the signal's own getter). */
  readonly stopped: boolean;
  readonly logger: Logger;
  readonly sandbox: Sandbox;
  /** The executionId of the run (script) the call belongs to. */
  readonly runId: string;
  readonly approve: ApprovalHook | undefined;
  /** The host's hooks for context.ask and context.llm (host-requests.ts); undefined when it gave none. */
  readonly ask: AskHook | undefined;
  readonly llm: LlmHook | undefined;
  readonly needsApproval: ReadonlySet<ConfirmLevel>;
  readonly emit: ((event: NuwaEvent) => void) | undefined;
  /** True once the run is over: the contexts it handed out refuse callTool, print and setVar. */
  readonly ended: boolean;
  print(text: string): void;
  /**
   * Counts a call against the run's limits; throws LimitExceededError or AbortedError. `depth` is
   * how deeply the call is nested: 1 for a script's CALL, one more for each context.callTool.
   */
  beginCall(tool: RegisteredTool | undefined, depth: number): void;
  /** The waits for tools (and approvals) in flight, which a stopping run ends. */
  readonly waits: Waits;
  /** Numbers the calls of the run; a call's executionId is executionIdOf(runId, its number). */
  nextCallNumber(): number;
  /** True when a plan the host approved as a whole covers this call (it then asks no one). */
  coveredByPlan?(tool: RegisteredTool, site: CallSite): boolean;
  /** maxValueSize and maxStringLength for what tools return (the defaults when absent). */
  readonly valueLimits?: ValueLimits;
  /**
   * A finished call's object (invoke.ts), for the run's next call to use again: one a run rather
   * than one a call, for the calls of thousands of waiting runs.
   */
  spareCall?: object;
  /** A durable run's record of its calls (journal.ts); absent for other runs. */
  readonly journal?: CallJournal;
  /**
   * What to do when the approval hook answers 'pause' (or, with `onApproval: 'pause'`, when there
   * is no hook): pause a durable run; a run that cannot pause denies the call.
   */
  readonly pauseForApproval?: boolean;
  /** A durable run stops at its next step with `error`, without cancelling calls in flight. */
  pause?(error: NuwaError): void;
  /**
   * What the caller of a function call said of itself (sdkwork's `execute(name, input, context)`):
   * the tools of the call see these in their context in place of the call's own.
   */
  readonly caller?: CallerContext;
  /** The run's trace, when the host traces it (tracing.ts): told when a wait for approval begins. */
  readonly trace?: ApprovalTrace;
}

/** A caller's own ids and logger, for the tools of its call (see CallHost.caller). */
export interface CallerContext {
  executionId?: string;
  agentId?: string;
  sessionId?: string;
  logger?: Logger;
}

/** The script's variables as a tool sees them (getVar / setVar). */
export interface VariableAccess {
  get(name: string): JsonValue | undefined;
  set(name: string, value: JsonValue): void;
}

/** Where the call comes from: the CALL's position, its scope, and how deeply it is nested. */
export interface CallSite {
  line?: number;
  column?: number;
  fileName?: string;
  vars?: VariableAccess;
  /** 1 (the default) for a call made by a script or a host; one more for each context.callTool. */
  depth?: number;
  /**
   * The call's identity from where it stands (DURABLE.md §1): `line:column` of a script's CALL,
   * then `/i` for each enclosing loop iteration; a nested call adds `>n` to its parent's.
   */
  readonly callId?: string;
  /**
   * True once the FOR iteration or comprehension element of a script's CALL is over: the variables
   * the call saw, and the place that gave it its callId, are gone, so its context refuses getVar,
   * setVar, callTool, ask and llm (print and the state go on until the run ends).
   */
  readonly ended?: boolean;
  /**
   * Aborted when the call must stop though its run goes on (a comprehension whose element failed
   * before this one's, DURABLE.md §4); it follows the run's own signal. The tool's signal follows it.
   */
  readonly signal?: AbortSignal;
}

/** A call through the one call path, as a context's callTool makes it (invoke.ts invokeTool). */
export type Invoke = (host: CallHost, name: string, args: JsonObject, site: CallSite, form: 'value' | 'json') => Promise<Value | JsonValue>;
