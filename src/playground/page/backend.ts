// Where the page's tools run. The interpreter always runs in the page; its CALLs go to a registry
// that is either
// - a copy of the server's (`nuwa playground`): each tool registered here with the server's schema,
//   risk level and category, so that the checker, the plan and completion see the real tools, and
//   with a function that sends the call to the server, which runs it through its own registry and
//   asks in the page when it needs approval (the server decides; the page answers); or
// - the page's own (the static build): the example tools, run here, approvals asked here.
import type { InterpreterOptions } from '../../api/types.js';
import { NuwaError, type ErrorKind } from '../../errors.js';
import type { Limits } from '../../tools/limits.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Session } from '../../tools/session.js';
import type { ApprovalRequest, ToolContext, ToolDefinition } from '../../tools/types.js';
import type { JsonValue } from '../../values/json.js';
import { API, TOKEN_HEADER, type CallMessage, type SessionInfo, type ToolDescription } from '../protocol.js';
import { initialState, toolModules } from 'nuwa:static-tools';

/** What the page does for a backend: ask for approvals, show notes and tools' log lines. */
export interface PageHooks {
  /** Asks the person at the page whether a call may run; `signal` aborts when the run stops. */
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
  /** A line about the run that is not output (a call approved by --yes). */
  note(text: string): void;
  log(level: string, message: string): void;
}

export interface Backend {
  /** Where tools run, for the page's header. */
  readonly where: string;
  readonly registry: ToolRegistry;
  readonly limits: Limits;
  /** Initial variables of every run. */
  readonly variables: Record<string, JsonValue>;
  readonly failures: ReadonlyArray<{ source: string; reason: string }>;
  /** Options of the Interpreter for a run (`signal` aborts when it stops): whose state, who approves. */
  runOptions(signal: AbortSignal): Pick<InterpreterOptions, 'session' | 'approve' | 'needsApproval'>;
  state(): Promise<Record<string, JsonValue>>;
  /** Back to the initial state; resolves to it. */
  reset(): Promise<Record<string, JsonValue>>;
}

/** A call that failed on the server: its kind and message as the server's registry reported them. */
export class RemoteFailure extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The error to show for a failed run. A tool that failed on the server failed here as the copy's
 * function (ToolExecutionError wrapping a RemoteFailure): it is shown as the server reported it,
 * at the CALL's position, as `nuwa run` would have shown it.
 */
export function shownError(error: NuwaError): NuwaError {
  const cause = error.cause;
  if (error.kind !== 'ToolExecutionError' || !(cause instanceof RemoteFailure)) return error;
  const shown = new NuwaError(cause.kind, cause.message, { line: error.line, column: error.column });
  shown.variables = error.variables;
  return shown;
}

// --- the server's tools ---------------------------------------------------------------------------

export async function serverBackend(token: string, hooks: PageHooks): Promise<Backend> {
  const headers = { 'content-type': 'application/json', [TOKEN_HEADER]: token };
  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(path.slice(1), { ...init, headers }); // relative: the page may live below a prefix
    if (!response.ok) throw new Error(`${path}: ${response.status} ${(await response.text()).trim()}`);
    return response;
  };
  const info = (await (await request(API.session)).json()) as SessionInfo;

  const call = async (name: string, args: Record<string, JsonValue>, context: ToolContext): Promise<JsonValue> => {
    let response: Response;
    try {
      response = await fetch(API.call.slice(1), { method: 'POST', headers, body: JSON.stringify({ tool: name, args }), signal: context.signal });
    } catch (error) {
      if (context.signal.aborted) throw error;
      throw new RemoteFailure('ToolExecutionError', `tool \`${name}\` could not be called: the playground server did not answer (${(error as Error).message}); is nuwa playground still running?`);
    }
    if (!response.ok || response.body === null) throw new RemoteFailure('ToolExecutionError', `tool \`${name}\` could not be called: the server answered ${response.status} ${(await response.text()).trim()}`);
    for await (const message of jsonLines(response.body)) {
      switch (message.type) {
        case 'print':
          context.print(message.line);
          break;
        case 'log':
          hooks.log(message.level, message.message);
          break;
        case 'approved':
          hooks.note(`${message.toolName}: approved by --yes`);
          break;
        case 'approval': {
          const approved = await hooks.approve(message.request, context.signal);
          await request(API.approval, { method: 'POST', body: JSON.stringify({ id: message.id, approved }) });
          break;
        }
        case 'result': {
          const { result } = message;
          if (result.success) return result.data ?? null;
          throw new RemoteFailure(result.code ?? 'ToolExecutionError', result.error ?? `tool \`${name}\` failed`);
        }
      }
    }
    throw new RemoteFailure('ToolExecutionError', `tool \`${name}\` failed: the server ended the call without a result`);
  };

  const registry = new ToolRegistry();
  const failures = [...info.failures];
  for (const tool of info.tools) {
    try {
      registerCopy(registry, tool, (args, context) => call(tool.name, args, context));
    } catch (error) {
      failures.push({ source: tool.name, reason: `cannot be checked in the page: ${(error as Error).message}` });
    }
  }
  const session = registry.createSession(); // the copies keep no state: the server's session does
  const count = info.tools.length;
  return {
    where: `${count} tool${count === 1 ? '' : 's'} served by nuwa playground${info.yes ? ' (--yes: calls are approved without asking)' : ''}`,
    registry,
    limits: info.limits,
    variables: info.variables,
    failures,
    // The server asks for approvals (its registry's policy), through the call's stream.
    runOptions: () => ({ session, needsApproval: [] }),
    state: async () => ((await (await request(API.state)).json()) as { state: Record<string, JsonValue> }).state,
    reset: async () => ((await (await request(API.reset, { method: 'POST', body: '{}' })).json()) as { state: Record<string, JsonValue> }).state,
  };
}

function registerCopy(registry: ToolRegistry, tool: ToolDescription, execute: (args: Record<string, JsonValue>, context: ToolContext) => Promise<JsonValue>): void {
  registry.register({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    returns: tool.returns,
    confirm: tool.confirm,
    category: tool.category,
    keywords: tool.keywords,
    execute,
  });
}

/** The JSON objects of an NDJSON stream, one per line. */
async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<CallMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') yield JSON.parse(line) as CallMessage;
    }
  }
}

// --- the page's own tools (static build) ----------------------------------------------------------

export async function staticBackend(hooks: PageHooks): Promise<Backend> {
  const registry = new ToolRegistry();
  // As `--tools` loads a module: its default export is a list of tools or a function of the registry.
  for (const exported of toolModules) {
    if (typeof exported === 'function') await exported(registry);
    else for (const definition of exported) registry.register(definition as ToolDefinition);
  }
  const fresh = (): Session => {
    const session = registry.createSession();
    for (const [key, value] of Object.entries(initialState)) session.setState(key, value as JsonValue);
    return session;
  };
  let session = fresh();
  const count = registry.names().length;
  return {
    where: `${count} example tool${count === 1 ? '' : 's'}, running in this page`,
    registry,
    limits: {},
    variables: {},
    failures: [],
    runOptions: (signal) => ({ session, approve: (request) => hooks.approve(request, signal) }),
    state: async () => session.toJSON(),
    reset: async () => {
      session = fresh();
      return session.toJSON();
    },
  };
}
