// A context made outside any script run (registry.createToolContext): host code and tests can call
// tools with the same checks, but there is no script, no limits beyond the call depth, and printed
// lines go to stdout.
import { randomId } from '../util/platform.js';
import { NuwaError } from '../errors.js';
import type { JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { CallContext } from './context.js';
import { Waits } from './guard.js';
import { DEFAULT_MAX_CALL_DEPTH, type CallHost, type VariableAccess } from './call-host.js';
import './invoke.js'; // installs CallContext.invoke, which the contexts made here call through
import type { RegisteredTool } from './build.js';
import type { ToolCatalog } from './catalog.js';
import { Sandbox } from './sandbox.js';
import type { Session } from './session.js';
import type { ConfirmLevel, Logger, ToolContext } from './types.js';

// Host code that makes a context itself reads what its tools print and log from nowhere: a library
// writes nothing to the process's stdout or stderr (API.md v1.1).
const quietLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A context bound to `session`, whose calls go through invokeTool like a script's. */
export function createDetachedContext(registry: ToolCatalog, session: Session, toolName: string): ToolContext {
  const host = new DetachedHost(registry, session);
  return new CallContext(host, { vars: host.variables, callId: 'host' }, toolName, host.nextCallNumber(), host.signal);
}

class DetachedHost implements CallHost {
  readonly runId = randomId();
  readonly signal: AbortSignal = new AbortController().signal;
  /** Nothing stops a detached context. */
  readonly stopped = false;
  readonly logger = quietLogger;
  readonly sandbox = new Sandbox();
  readonly approve = undefined;
  /** Nobody to ask and no model: context.ask and context.llm fail with ToolExecutionError. */
  readonly ask = undefined;
  readonly llm = undefined;
  readonly needsApproval: ReadonlySet<ConfirmLevel> = new Set(['write', 'destructive']);
  readonly emit = undefined;
  /** A detached context belongs to no run, so it never ends. */
  readonly ended = false;
  readonly waits = new Waits();
  private calls = 0;
  private readonly vars = new Map<string, JsonValue>();

  constructor(
    readonly registry: ToolCatalog,
    readonly session: Session,
  ) {}

  readonly variables: VariableAccess = {
    get: (name) => {
      const value = this.vars.get(name);
      return value === undefined ? undefined : copyJson(value);
    },
    set: (name, value) => {
      this.vars.set(name, copyJson(value));
    },
  };

  print(): void {
    // printed nowhere: see quietLogger
  }

  beginCall(_tool: RegisteredTool | undefined, depth: number): void {
    if (depth > DEFAULT_MAX_CALL_DEPTH) {
      throw new NuwaError('LimitExceededError', `tools called tools more than maxCallDepth (${DEFAULT_MAX_CALL_DEPTH}) levels deep`);
    }
    this.calls++;
  }

  nextCallNumber(): number {
    return this.calls + 1;
  }
}
