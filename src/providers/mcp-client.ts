// The tools of a Model Context Protocol server as Nuwa tools (TOOLS.md §9), with the official MCP
// SDK over stdio. This module only makes tool definitions whose `execute` sends `tools/call`; the
// registry validates the arguments against the server's own input schemas, applies the approval
// policy and limits, and emits events, as for every tool. A call's signal (the run's cancellation or
// the tool's timeoutMs) reaches the server as MCP cancellation through the SDK's request signal.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ListToolsResultSchema, McpError, ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext, ToolDefinition } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import type { LoadFailure, McpConnectOptions, McpConnection } from '../tools/outside.js';
import { confirmFromHints, errorText, resultValue, toIdentifier, type McpToolResult } from './mcp-mapping.js';
import { NuwaError } from '../errors.js';
import { CATEGORIES, CONFIRM_LEVELS } from '../tools/build.js';
import { Options } from '../util/options.js';
import { ToolLoadError } from './load-error.js';
import { StdioClient, TOO_LARGE_CODE } from './mcp-transport.js';
import { lastLines } from './subprocess.js';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_START_TIMEOUT_MS = 60_000;
const STDERR_TAIL_BYTES = 8 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The SDK's result schema without its check of `structuredContent`, which rebuilds the object key by
 * key and so loses a key named `__proto__` (assigning it sets the copy's prototype instead). The
 * result schema is loose, so `structuredContent` passes through as the JSON parser made it, every
 * key an own key; that it is an object is checked below, and its shape by the registry (`returns`).
 */
const RESULT_KEEPING_KEYS = CallToolResultSchema.omit({ structuredContent: true });

/**
 * The SDK's list schema without its check of the tools, which refuses the whole list (and so the
 * whole server) for one tool it does not like. Each tool is checked on its own (toolsOf): a bad one
 * is reported and the others load. Its schemas are used as the server sent them, every key kept.
 */
const LIST_KEEPING_EACH_TOOL = ListToolsResultSchema.omit({ tools: true });

// Servers still open when the host exits are ended: no server outlives the program that started it.
const openServers = new Set<() => void>();
let exitHookInstalled = false;
function onHostExit(kill: () => void): () => void {
  openServers.add(kill);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const end of openServers) end();
    });
  }
  return () => openServers.delete(kill);
}

export async function connectMcp(registry: ToolRegistry, given: McpConnectOptions): Promise<McpConnection> {
  const options = readOptions(given);
  const shown = [options.command, ...(options.args ?? [])].join(' ');
  const transport = new StdioClient({
    command: options.command,
    args: options.args ?? [],
    env: { ...hostEnvironment(), ...options.env },
    cwd: options.cwd,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  });
  let stderr = '';
  // Kept, not shown: a server's log lines would mix with the script's output. Their last lines
  // explain a server that fails to start or dies.
  transport.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.slice(-STDERR_TAIL_BYTES);
  });
  const stderrNote = () => {
    const tail = lastLines(stderr);
    return tail === '' ? '' : `; its stderr: ${tail.split('\n').join(' | ')}`;
  };

  // The pid is kept until the process has ended (also while it is being closed).
  let pid: number | null = null;
  const kill = (signal: NodeJS.Signals) => {
    const target = pid ?? transport.pid;
    if (target === null) return;
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  };
  // Calls in flight, to be failed when an answer over the size limit cannot be told apart.
  const inFlight = new Set<AbortController>();
  transport.onUnattributed = (message) => {
    for (const controller of inFlight) controller.abort(new Error(message));
  };

  const client = new Client({ name: 'nuwa', version: '1' }, { capabilities: {} });
  let connected = true;
  client.onclose = () => {
    connected = false;
  };
  client.onerror = () => {}; // a bad message from the server fails its request; nothing else to do

  const startTimeoutMs = Math.min(options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, MAX_TIMER_MS);
  let serverTools: Tool[];
  const failures: LoadFailure[] = [];
  try {
    await client.connect(transport, { timeout: startTimeoutMs, signal: options.signal });
    pid = transport.pid;
    serverTools = await listAllTools(client, startTimeoutMs, options.signal, (tool, reason) => failures.push({ source: `${shown} (tool ${tool})`, reason }));
  } catch (error) {
    // A server that failed to start gets no polite close (stdin closed, SIGTERM after 2 s): it is
    // killed at once, or the host could exit before it ends.
    kill('SIGKILL');
    await client.close().catch(() => {});
    if (options.signal?.aborted) throw options.signal.reason;
    throw new ToolLoadError(`cannot use the MCP server \`${shown}\`: ${startFailure(error, options.command)}${stderrNote()}`, { cause: error });
  }
  const forget = onHostExit(() => kill('SIGTERM'));

  const reported = client.getServerVersion() ?? { name: path.basename(options.command), version: '' };
  const group = uniqueGroup(registry, options.name ?? toIdentifier(reported.name || path.basename(options.command)));
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;

  const call = async (toolName: string, args: JsonObject, context: ToolContext): Promise<JsonValue> => {
    if (!connected) throw new Error(`the MCP server "${group}" is not running${stderrNote()}`);
    // The call gets a signal of its own, unlinked once it is over: the SDK never removes its abort
    // listener, so handing it the run's long-lived signal would pile up listeners and, when the
    // run ends, send the server a cancellation for every call already answered.
    const controller = new AbortController();
    const onAbort = () => controller.abort(context.signal.reason);
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener('abort', onAbort, { once: true });
    inFlight.add(controller);
    let result: McpToolResult & { toolResult?: unknown };
    try {
      // client.request rather than client.callTool: the latter accepts only the SDK's own schemas,
      // and checks structuredContent against the tool's outputSchema, which the registry does too
      // (the outputSchema is the tool's `returns`).
      result = await client.request({ method: 'tools/call', params: { name: toolName, arguments: args } }, RESULT_KEEPING_KEYS, {
        signal: controller.signal,
        // The registry's timeoutMs ends the call first (and cancels it at the server); this only
        // keeps the SDK's own default from cutting a longer limit short.
        timeout: Math.min(timeoutMs + 1_000, MAX_TIMER_MS),
      });
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      // An answer over the size limit: the transport's own words, without the SDK's "MCP error -32001:".
      if (error instanceof McpError && error.code === TOO_LARGE_CODE) throw new Error(error.message.replace(/^MCP error -?\d+: /, ''));
      if (!connected) throw new Error(`the MCP server "${group}" stopped during the call${stderrNote()}`);
      throw error instanceof Error ? error : new Error(String(error));
    } finally {
      context.signal.removeEventListener('abort', onAbort);
      inFlight.delete(controller);
    }
    if (result.isError === true) throw new Error(errorText(result));
    const structured = result.structuredContent;
    if (structured !== undefined && (structured === null || typeof structured !== 'object' || Array.isArray(structured))) {
      throw new Error('the MCP server answered with a structuredContent that is not an object');
    }
    // Servers of the protocol's first version answer with `toolResult` instead of content.
    if (result.content === undefined && result.toolResult !== undefined) return result.toolResult as JsonValue;
    return resultValue(result);
  };

  const tools: string[] = [];
  const taken = new Set<string>();
  for (const tool of serverTools) {
    let name = toIdentifier(tool.name);
    for (let n = 2; taken.has(name); n++) name = `${toIdentifier(tool.name)}_${n}`;
    taken.add(name);
    const fullName = `${group}.${name}`;
    const definition: ToolDefinition = {
      name: fullName,
      description: tool.description ?? tool.annotations?.title ?? tool.title ?? '',
      parameters: tool.inputSchema as ToolDefinition['parameters'],
      returns: (tool.outputSchema ?? 'any') as ToolDefinition['returns'],
      confirm: confirmFromHints(tool.annotations, options.confirm ?? 'write'),
      category: options.category ?? 'custom',
      timeoutMs,
      source: 'mcp',
      execute: (args, context) => call(tool.name, args, context),
    };
    try {
      tools.push(registry.register(definition).name);
    } catch (error) {
      failures.push({ source: `${shown} (tool ${tool.name})`, reason: error instanceof Error ? error.message : String(error) });
    }
  }

  let closing: Promise<void> | undefined;
  return {
    name: group,
    server: { name: reported.name, version: reported.version },
    tools,
    failures,
    get pid() {
      return connected ? pid : null;
    },
    close() {
      closing ??= (async () => {
        for (const name of tools) registry.unregister(name);
        await client.close().catch(() => {});
        forget();
      })();
      return closing;
    },
  };
}

/** The options, each read once and checked: a bad one is a NuwaError (TypeError) naming it. */
function readOptions(options: unknown): McpConnectOptions {
  const where = 'connectMcp(options)';
  if (options === undefined) throw new NuwaError('TypeError', `${where}: options { command, args?, env?, name? } are required`);
  const given = Options.of(where, options);
  const command = given.nonEmptyString('command');
  if (command === undefined) throw given.bad('command', 'a non-empty string (the program that starts the server)');
  return {
    command,
    args: given.strings('args'),
    env: given.stringRecord('env'),
    name: given.nonEmptyString('name'),
    cwd: given.nonEmptyString('cwd'),
    timeoutMs: given.positive('timeoutMs'),
    confirm: given.oneOf('confirm', CONFIRM_LEVELS),
    category: given.oneOf('category', CATEGORIES),
    startTimeoutMs: given.positive('startTimeoutMs'),
    signal: given.signal(),
    maxMessageBytes: given.positive('maxMessageBytes'),
  };
}

/** The host's environment as the SDK wants it (strings only). */
function hostEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (typeof value === 'string') env[key] = value;
  return env;
}

async function listAllTools(client: Client, timeout: number, signal: AbortSignal | undefined, refuse: (tool: string, reason: string) => void): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  // A server that keeps handing out cursors must not keep us here forever.
  for (let page = 0; page < 100; page++) {
    const result = (await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LIST_KEEPING_EACH_TOOL, { timeout, signal })) as { tools?: unknown; nextCursor?: string };
    if (!Array.isArray(result.tools)) throw new Error('the server answered tools/list without a list of tools');
    for (const tool of result.tools) {
      const checked = checkTool(tool);
      if (typeof checked === 'string') refuse(toolLabel(tool), checked);
      else tools.push(checked);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** A tool of the list as the server sent it (its schemas untouched), or what is wrong with it, in one line. */
function checkTool(tool: unknown): Tool | string {
  if (tool === null || typeof tool !== 'object' || Array.isArray(tool)) return 'it is not an object';
  const { name, inputSchema } = tool as { name?: unknown; inputSchema?: unknown };
  if (typeof name !== 'string' || name === '') return 'it has no name';
  if (inputSchema === null || typeof inputSchema !== 'object' || Array.isArray(inputSchema)) {
    return `its inputSchema is not a JSON Schema object (it is ${inputSchema === undefined ? 'missing' : describeKind(inputSchema)})`;
  }
  const { type } = inputSchema as { type?: unknown };
  if (type !== 'object') return `its inputSchema has type ${JSON.stringify(type) ?? 'undefined'}; the arguments of an MCP tool are an object (type "object")`;
  const parsed = ToolSchema.safeParse(tool);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
    return `it does not match the MCP tool schema: ${where}${issue?.message ?? 'invalid'}`;
  }
  // The parsed copy rebuilt the schemas key by key (dropping a property named __proto__): keep the server's own.
  const raw = tool as Tool;
  return { ...parsed.data, inputSchema: raw.inputSchema, ...(raw.outputSchema === undefined ? {} : { outputSchema: raw.outputSchema }) };
}

function toolLabel(tool: unknown): string {
  const name = tool !== null && typeof tool === 'object' ? (tool as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name : '(without a name)';
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** A toolset name not used yet: a second server reporting the same name gets `_2`. */
function uniqueGroup(registry: ToolRegistry, base: string): string {
  const used = (group: string) => registry.names().some((name) => name === group || name.startsWith(`${group}.`));
  let group = base;
  for (let n = 2; used(group); n++) group = `${base}_${n}`;
  return group;
}

function startFailure(error: unknown, command: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return `no such command: ${command}`;
  if (code === 'EACCES') return `${command} is not executable`;
  const message = error instanceof Error ? error.message : String(error);
  if (/Connection closed/i.test(message)) return 'the server exited before it answered';
  if (/timed out/i.test(message)) return 'the server did not answer in time';
  return message;
}
