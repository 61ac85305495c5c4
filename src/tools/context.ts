// The ToolContext a tool function receives (TOOLS.md §4): the session's state, facts about this
// call, and the run's services. One small object per call; everything heavy lives on the host.
import type { JsonValue } from '../values/json.js';
import { copyJson, NotJsonError } from '../values/values.js';
import type { CallHost, CallSite } from './invoke.js';
import { invokeTool } from './invoke.js';
import type { Logger, StateMetadata, ToolContext } from './types.js';

export class CallContext implements ToolContext {
  private scopedLogger: Logger | undefined;

  constructor(
    private readonly host: CallHost,
    private readonly site: CallSite,
    readonly toolName: string,
    readonly executionId: string,
    readonly signal: AbortSignal,
  ) {}

  get sessionId(): string {
    return this.host.session.id;
  }

  // --- state ----------------------------------------------------------------------------------
  setState(key: string, value: JsonValue, metadata?: StateMetadata): void {
    this.host.session.setState(key, value, metadata);
  }
  getStateValue(key: string): JsonValue | undefined {
    return this.host.session.getStateValue(key);
  }
  hasState(key: string): boolean {
    return this.host.session.hasState(key);
  }
  getAllState(): Map<string, JsonValue> {
    return this.host.session.getAllState();
  }
  clearState(): void {
    this.host.session.clearState();
  }
  getStateMetadata(key: string): StateMetadata | undefined {
    return this.host.session.getStateMetadata(key);
  }
  getAllStateMetadata(): Map<string, StateMetadata> {
    return this.host.session.getAllStateMetadata();
  }
  registerStateMetadata(key: string, metadata: StateMetadata): void {
    this.host.session.registerStateMetadata(key, metadata);
  }

  // --- services -------------------------------------------------------------------------------
  get logger(): Logger {
    if (this.scopedLogger === undefined) {
      const { logger } = this.host;
      const tag = (message: string) => `[${this.toolName}] ${message}`;
      this.scopedLogger = {
        debug: (message, meta) => logger.debug(tag(message), meta),
        info: (message, meta) => logger.info(tag(message), meta),
        warn: (message, meta) => logger.warn(tag(message), meta),
        error: (message, meta) => logger.error(tag(message), meta),
      };
    }
    return this.scopedLogger;
  }

  print(text: string): void {
    this.host.print(typeof text === 'string' ? text : String(text));
  }

  async callTool(name: string, args: Record<string, JsonValue> = {}): Promise<JsonValue> {
    let copy: JsonValue;
    try {
      copy = copyJson(args, this.host.valueLimits);
    } catch (error) {
      if (error instanceof NotJsonError) throw new TypeError(`callTool("${name}"): the arguments are not JSON: ${error.message}`);
      throw error;
    }
    if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) throw new TypeError(`callTool("${name}"): the arguments must be an object`);
    return invokeTool(this.host, name, copy, this.site, 'json') as Promise<JsonValue>;
  }

  getVar(name: string): JsonValue | undefined {
    return this.site.vars?.get(name);
  }

  setVar(name: string, value: JsonValue): void {
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`setVar: "${String(name)}" is not a valid variable name`);
    if (!this.site.vars) throw new Error('setVar: this context is not attached to a running script');
    this.site.vars.set(name, value);
  }

  get sandboxDir(): string {
    return this.host.sandbox.dir;
  }

  resolvePath(relative: string): string {
    return this.host.sandbox.resolvePath(relative);
  }
}
