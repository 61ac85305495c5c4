// Nuwa as an MCP server (TOOLS.md §9): `run_script` runs a whole plan and answers with the
// `run --json` object; `describe_tools` tells a model what it can call; and each loaded tool is
// served under its exported name (`math.add` → `math__add`). Every call, from a script or direct,
// goes through the registry's one call path (validation, approval, limits, events). One server
// object serves one connection and keeps one session, so state persists across its calls. A tool's
// questions, its model requests and approvals go to the client when it supports them (mcp-hooks.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { isNuwaError, NuwaError } from '../errors.js';
import type { NuwaEvent, RunStats } from '../events.js';
import { Interpreter } from '../api/interpreter.js';
import { resolveLimits, type Limits } from '../tools/limits.js';
import { Run } from '../tools/run.js';
import { invokeTool } from '../tools/invoke.js';
import { exportedName } from '../tools/names.js';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import { Sandbox } from '../tools/sandbox.js';
import type { Session } from '../tools/session.js';
import type { ConfirmLevel, Logger } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { hintsFromConfirm } from '../providers/mcp-mapping.js';
import { buildPrompt } from '../prompt/prompt.js';
import { clientHooks, type ClientHooks } from './mcp-hooks.js';
import { errorToJson } from './report.js';
import { report, type RunReport } from './run.js';

export interface NuwaMcpServerOptions {
  /** The session of this connection (default: the registry's own). */
  session?: Session;
  /**
   * Approve every call that needs approval; otherwise the client is asked (MCP elicitation) when it
   * supports that, and such calls are denied when it does not.
   */
  yes?: boolean;
  /** Limits of each run_script run and each direct call. */
  limits?: Limits;
  /** The directory tools may write in. */
  sandboxDir: string;
  /** Where tools' log lines (and lines a directly called tool prints) go. */
  logger: Logger;
  version: string;
}

const NEEDS_APPROVAL: ReadonlySet<ConfirmLevel> = new Set(['write', 'destructive']);

const RUN_SCRIPT: Tool = {
  name: 'run_script',
  title: 'Run a Nuwa Script',
  description:
    'Runs a Nuwa Script plan (LET, CALL, IF, FOR, PRINT and the built-ins) against the tools listed by describe_tools, ' +
    'and returns { ok, output, variables, state, error?, stats }. State persists across calls of this connection.',
  inputSchema: {
    type: 'object',
    properties: {
      script: { type: 'string', description: 'the Nuwa Script source' },
      variables: { type: 'object', description: 'initial top-level variables (name → JSON value)', additionalProperties: true },
    },
    required: ['script'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      ok: { type: 'boolean' },
      output: { type: 'array', items: { type: 'string' } },
      variables: { type: 'object' },
      state: { type: 'object' },
      error: { type: 'object' },
      stats: { type: 'object' },
    },
    required: ['ok', 'output', 'variables', 'state', 'stats'],
  },
};

const DESCRIBE_TOOLS: Tool = {
  name: 'describe_tools',
  title: 'Describe the tools',
  description: 'How to write Nuwa Script for run_script, and the tools a script can CALL, with their parameters',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true },
};

export function createNuwaMcpServer(registry: ToolRegistry, options: NuwaMcpServerOptions): Server {
  const session = options.session ?? registry.defaultSession;
  const sandbox = new Sandbox(options.sandboxDir);
  const { timeoutMs } = resolveLimits(options.limits);

  const server = new Server({ name: 'nuwa', version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [runScriptTool(registry), DESCRIBE_TOOLS, ...registry.list().map(servedTool)] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    // The client's person and model, reached on behalf of this call.
    const hooks = clientHooks(server, { yes: options.yes === true, requestId: extra.requestId, signal: extra.signal, timeoutMs });
    // A fresh interpreter per run_script call, for its own output and stats; the session is shared.
    const interpreter: InterpreterFor = (print, onEvent) =>
      new Interpreter(registry, { session, limits: options.limits, ...hooks, sandboxDir: options.sandboxDir, logger: options.logger, print, onEvent });
    if (name === RUN_SCRIPT.name) return runScript(interpreter, session, args, extra.signal);
    if (name === DESCRIBE_TOOLS.name) return { content: [{ type: 'text', text: buildPrompt(registry, { session, state: true }) }] };
    const tool = servedByName(registry, name);
    if (tool === undefined) return failure(`Unknown tool: ${name}`);
    try {
      const value = await callOnce(registry, tool.name, args as JsonObject, { session, hooks, sandbox, limits: options.limits, logger: options.logger, signal: extra.signal });
      return success(value);
    } catch (error) {
      return failure(isNuwaError(error) ? `${error.kind}: ${error.message}` : String(error));
    }
  });
  return server;
}

/** run_script's risk follows the tools a script could call: read-only only if every tool is. */
function runScriptTool(registry: ToolRegistry): Tool {
  const levels = registry.list().map((tool) => tool.confirm);
  return {
    ...RUN_SCRIPT,
    annotations: { readOnlyHint: levels.every((level) => level === 'none' || level === 'read'), destructiveHint: levels.includes('destructive') },
  };
}

function servedTool(tool: RegisteredTool): Tool {
  return {
    name: exportedName(tool.name),
    title: tool.name,
    description: tool.description,
    inputSchema: tool.parametersSchema as Tool['inputSchema'],
    annotations: hintsFromConfirm(tool.confirm),
  };
}

function servedByName(registry: ToolRegistry, name: string): RegisteredTool | undefined {
  return registry.list().find((tool) => exportedName(tool.name) === name);
}

type InterpreterFor = (print: (line: string) => void, onEvent: (event: NuwaEvent) => void) => Interpreter;

async function runScript(interpreter: InterpreterFor, session: Session, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  const { script, variables } = args;
  if (typeof script !== 'string') return failure('run_script needs { script: "<Nuwa Script source>" }');
  if (variables !== undefined && (variables === null || typeof variables !== 'object' || Array.isArray(variables))) {
    return failure('run_script: variables must be an object of name → JSON value');
  }
  const printed: string[] = [];
  let stats: RunStats = { steps: 0, toolCalls: 0, durationMs: 0 };
  const onEvent = (event: NuwaEvent) => {
    if (event.type === 'script:completed' || event.type === 'script:failed') stats = event.stats;
  };
  const runner = interpreter((line) => void printed.push(line), onEvent);
  let result: RunReport;
  try {
    const run = await runner.run(script, { variables: variables as Record<string, unknown> | undefined, signal, fileName: 'script' });
    result = report(true, printed, run.variables, session.toJSON(), run.stats);
  } catch (error) {
    if (!(error instanceof NuwaError)) throw error;
    result = report(false, printed, error.variables ?? {}, session.toJSON(), stats, errorToJson(error));
  }
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as unknown as Record<string, unknown>, isError: !result.ok };
}

interface DirectCall {
  session: Session;
  hooks: ClientHooks;
  sandbox: Sandbox;
  limits: Limits | undefined;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * One direct call through the registry's call path (invokeTool), with the connection's session and
 * policy. `registry.execute` does the same for function-calling hosts; this uses the runtime's Run
 * as its call host so that limits, cancellation and approval behave exactly as in a script.
 */
async function callOnce(registry: ToolRegistry, name: string, args: JsonObject, call: DirectCall): Promise<JsonValue> {
  const run = new Run({
    registry,
    session: call.session,
    limits: resolveLimits(call.limits),
    // Lines a tool prints have no script output to join; they go to the log instead of stdout,
    // which is the protocol's channel.
    print: (line) => call.logger.info(line),
    ...call.hooks,
    needsApproval: NEEDS_APPROVAL,
    onEvent: undefined,
    logger: call.logger,
    sandbox: call.sandbox,
    fileName: undefined,
    signal: call.signal,
  });
  try {
    return (await invokeTool(run, name, args, {}, 'json')) as JsonValue;
  } finally {
    run.finish();
  }
}

function success(value: JsonValue): CallToolResult {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  // structuredContent is an object in MCP; other values travel as their JSON text only. So does an
  // object with a key named `__proto__`: the SDK's server rebuilds structuredContent key by key
  // (checking it), which would drop that key; the text keeps every key, and a client reads the text
  // when structuredContent is absent.
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !Object.hasOwn(value, '__proto__')) result.structuredContent = value;
  return result;
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
