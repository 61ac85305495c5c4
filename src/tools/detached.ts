// The host of a context made outside any script run (registry.createToolContext): host code and
// tests can call tools with the same checks, but there is no script, no limits beyond cancellation,
// and printed lines go to stdout.
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import type { CallHost, VariableAccess } from './invoke.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { Waits } from './guard.js';
import { Sandbox } from './sandbox.js';
import type { Session } from './session.js';
import type { ConfirmLevel, Logger } from './types.js';

const consoleLogger: Logger = {
  debug: () => {},
  info: (message) => console.error(message),
  warn: (message) => console.error(message),
  error: (message) => console.error(message),
};

export class DetachedHost implements CallHost {
  readonly runId = randomUUID();
  readonly signal: AbortSignal = new AbortController().signal;
  readonly logger = consoleLogger;
  readonly sandbox = new Sandbox();
  readonly approve = undefined;
  readonly needsApproval: ReadonlySet<ConfirmLevel> = new Set(['write', 'destructive']);
  readonly emit = undefined;
  private calls = 0;
  private readonly vars = new Map<string, JsonValue>();

  constructor(
    readonly registry: ToolRegistry,
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

  print(text: string): void {
    process.stdout.write(`${text}\n`);
  }

  beginCall(_tool: RegisteredTool): void {
    this.calls++;
  }

  readonly waits = new Waits();

  nextExecutionId(): string {
    return `${this.runId}:${this.calls + 1}`;
  }
}
