// The server of `nuwa playground` (CLI.md "playground"): serves the page and its assets, and runs
// the tool calls of the scripts the page runs, through the registry the command loaded
// (`registry.execute`: the same checks, approval policy, limits and events as a script's CALL).
//
// It runs tools for whoever drives it, so it lets no one else drive it: it listens on 127.0.0.1
// only, and refuses with 403 every request that does not carry its random token, whose Host is not
// its own address (DNS rebinding: another name that resolves to 127.0.0.1), or whose Origin is
// another site's (a page elsewhere posting to 127.0.0.1; for the requests that carry no Origin, the
// browser's Sec-Fetch-Site says whether another page made them). The page sends the token in a header of
// its own, which no other origin can send without a CORS preflight, and preflights are refused; the
// JSON API also takes only `application/json` bodies, which no plain HTML form can send.
//
// A call that needs approval is asked in the page: the answer to POST /api/call is a stream of
// JSON lines, in which the server asks (`approval`) and the page answers on POST /api/approval;
// what the tool prints or logs comes in the same stream (the registry's print and logger are
// routed to the call in progress, see toolOutput). The JSON API is described in protocol.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { NuwaEvent } from '../events.js';
import type { Limits } from '../tools/limits.js';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import type { Session } from '../tools/session.js';
import type { ApprovalRequest, Logger } from '../tools/types.js';
import { describeThrown } from '../util/foreign.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { ASSETS, CONTENT_SECURITY_POLICY, pageHtml } from './html.js';
import { API, TOKEN_HEADER, type ApprovalReply, type CallMessage, type SessionInfo, type ToolDescription } from './protocol.js';

export const DEFAULT_PORT = 4747;
/** How many ports from the first one are tried before giving up. */
const PORT_TRIES = 50;
/** The largest request body taken (a script's call arguments are far smaller). */
const MAX_BODY_BYTES = 1 << 20;

export interface PlaygroundServerOptions {
  registry: ToolRegistry;
  /** The folder of the built page (assets/playground.js and .css). */
  pageDir: string;
  /** The first port tried (the next free one is taken if it is busy); 0: any free port. Default 4747. */
  port?: number;
  /** Approve every call that needs approval without asking (each is still shown in the page). */
  yes?: boolean;
  /** Run limits: timeoutMs bounds each call here, all of them apply to runs in the page. */
  limits?: Limits;
  /** Initial variables of every run in the page. */
  variables?: Record<string, JsonValue>;
  /** Tools that failed to load, shown in the page. */
  failures?: Array<{ source: string; reason: string }>;
  /** Receives the events of every call the server runs (for --trace). */
  onEvent?: (event: NuwaEvent) => void;
}

export interface PlaygroundServer {
  /** The page's address, with the token: the one URL that opens it. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** The call a tool's print or log line belongs to (see toolOutput). */
const currentCall = new AsyncLocalStorage<{ send(message: CallMessage): void }>();

/**
 * The registry options that send what tools print and log to the page whose call is running
 * (`new ToolRegistry(toolOutput(...))`); outside any call (a tool's stray timer), to `fallback`.
 */
export function toolOutput(fallback: { print(line: string): void; log(level: string, message: string): void }): { print(line: string): void; logger: Logger } {
  const log = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string) => {
    const call = currentCall.getStore();
    if (call) call.send({ type: 'log', level, message: String(message) });
    else fallback.log(level, String(message));
  };
  return {
    print: (line) => {
      const call = currentCall.getStore();
      if (call) call.send({ type: 'print', line: String(line) });
      else fallback.print(String(line));
    },
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
  };
}

/** Headers of every answer: nothing is cached, framed, sniffed or sent on as a referrer. */
const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const ASSET_TYPES: Record<string, string> = {
  [ASSETS.script]: 'text/javascript; charset=utf-8',
  [ASSETS.style]: 'text/css; charset=utf-8',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startPlaygroundServer(options: PlaygroundServerOptions): Promise<PlaygroundServer> {
  const { registry, pageDir } = options;
  const token = randomBytes(24).toString('base64url');
  const limits = options.limits ?? {};
  const initialState = registry.defaultSession.toJSON();
  let session = freshSession(registry, initialState);
  /** Approvals asked and not answered yet: id → how to answer. */
  const approvals = new Map<string, (approved: boolean) => void>();
  let port = 0;
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof HttpError ? error.message : `internal error: ${describeThrown(error)}`;
      if (!response.headersSent) {
        // A request refused before its body was read (too large, say) ends its connection.
        const close = request.complete ? {} : { connection: 'close' };
        response.writeHead(status, { ...COMMON_HEADERS, ...close, 'content-type': 'text/plain; charset=utf-8' });
        response.end(`${status} ${http.STATUS_CODES[status] ?? ''}: ${message}\n`);
      } else response.destroy();
    });
  });
  // A client that goes away mid-request is no fault of the server's.
  server.on('clientError', (_error, socket) => socket.destroy());

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refusal = refuse(request, url);
    if (refusal !== undefined) throw new HttpError(403, refusal);
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case 'GET /':
        return send(response, 200, 'text/html; charset=utf-8', pageHtml({ mode: 'server', token }, `?token=${encodeURIComponent(token)}`), { 'content-security-policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'` });
      case `GET /${ASSETS.script}`:
      case `GET /${ASSETS.style}`:
        return sendAsset(response, url.pathname.slice(1));
      case `GET ${API.session}`:
        return sendJson(response, sessionInfo());
      case `GET ${API.state}`:
        return sendJson(response, { state: session.toJSON() });
      case `POST ${API.reset}`:
        await readJson(request);
        session = freshSession(registry, initialState);
        return sendJson(response, { state: session.toJSON() });
      case `POST ${API.approval}`:
        return answerApproval(response, (await readJson(request)) as Partial<ApprovalReply>);
      case `POST ${API.call}`:
        return call(request, response, await readJson(request));
      default:
        throw new HttpError(request.method === 'GET' || request.method === 'POST' ? 404 : 405, `no ${request.method} ${url.pathname} here`);
    }
  }

  /** Why a request is refused, or undefined when it carries the token and comes from this server's own page. */
  function refuse(request: http.IncomingMessage, url: URL): string | undefined {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined || !allowedHosts.has(host)) return `this server answers only requests for ${[...allowedHosts][0]}, not for ${host ?? 'no host'}`;
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) return `requests from ${origin} are not accepted: only the playground's own page may use this server`;
    // Browsers send no Origin with a GET for an image or a script, but say where it comes from here.
    // Opening the page itself from a link elsewhere (a chat, a web terminal) is fine: it still
    // needs the token, and no other page can frame it (frame-ancestors) or read it.
    const site = headerValue(request.headers['sec-fetch-site']);
    const openingThePage = request.method === 'GET' && url.pathname === '/' && headerValue(request.headers['sec-fetch-mode']) === 'navigate' && headerValue(request.headers['sec-fetch-dest']) === 'document';
    if (site !== undefined && site !== 'same-origin' && site !== 'none' && !openingThePage) return `requests from other pages (${site}) are not accepted: only the playground's own page may use this server`;
    const given = headerValue(request.headers[TOKEN_HEADER]) ?? url.searchParams.get('token') ?? undefined;
    if (!sameToken(given, token)) return 'open the playground with the URL nuwa playground printed (it carries the token)';
    return undefined;
  }

  function sessionInfo(): SessionInfo {
    return {
      tools: registry.list().map(describeTool),
      failures: options.failures ?? [],
      yes: options.yes === true,
      limits,
      variables: options.variables ?? {},
      state: session.toJSON(),
    };
  }

  async function sendAsset(response: http.ServerResponse, name: string): Promise<void> {
    let body: Buffer;
    try {
      body = await readFile(path.join(pageDir, name));
    } catch {
      throw new HttpError(500, `${name} is missing from ${pageDir}: build the page with npm run build`);
    }
    send(response, 200, ASSET_TYPES[name]!, body);
  }

  function answerApproval(response: http.ServerResponse, answer: Partial<ApprovalReply>): void {
    if (typeof answer?.id !== 'string' || typeof answer.approved !== 'boolean') throw new HttpError(400, 'an approval is { "id": string, "approved": boolean }');
    const resolve = approvals.get(answer.id);
    if (resolve === undefined) throw new HttpError(404, 'no call is waiting for that approval (it may have ended)');
    resolve(answer.approved);
    response.writeHead(204, COMMON_HEADERS).end();
  }

  /** POST /api/call: runs one call through the registry, streaming what happens as JSON lines. */
  async function call(request: http.IncomingMessage, response: http.ServerResponse, body: unknown): Promise<void> {
    const { tool, args } = (body ?? {}) as { tool?: unknown; args?: unknown };
    if (typeof tool !== 'string') throw new HttpError(400, 'a call is { "tool": string, "args": object }');
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new HttpError(400, 'a call\'s "args" must be an object');
    response.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'application/x-ndjson; charset=utf-8' });
    const message = (line: CallMessage) => {
      if (!response.writableEnded && !response.destroyed) response.write(`${JSON.stringify(line)}\n`);
    };
    // The page went away (closed, reloaded, stopped the run): the call is cancelled, and its
    // approvals still open are denied.
    const cancel = new AbortController();
    const open = new Set<string>();
    response.on('close', () => {
      if (response.writableFinished) return;
      cancel.abort();
      for (const id of open) approvals.get(id)?.(false);
    });
    const approve = async (asked: ApprovalRequest): Promise<boolean> => {
      if (options.yes) {
        message({ type: 'approved', toolName: asked.toolName, by: 'yes' });
        return true;
      }
      const id = randomUUID();
      open.add(id);
      try {
        const answer = new Promise<boolean>((resolve) => approvals.set(id, resolve));
        message({ type: 'approval', id, request: asked });
        return await answer;
      } finally {
        approvals.delete(id);
        open.delete(id);
      }
    };
    const result = await currentCall.run({ send: message }, () =>
      registry.execute(
        { name: tool, arguments: args as JsonObject },
        { session, approve, signal: cancel.signal, ...(limits.timeoutMs !== undefined && { timeoutMs: limits.timeoutMs }), ...(options.onEvent && { onEvent: options.onEvent }) },
      ),
    );
    message({ type: 'result', result });
    response.end();
  }

  port = await listen(server, options.port ?? DEFAULT_PORT);
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const resolveApproval of approvals.values()) resolveApproval(false);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Listens on 127.0.0.1, from `first` on to the next free port (or any free port for 0). */
async function listen(server: http.Server, first: number): Promise<number> {
  const last = first === 0 ? 0 : Math.min(first + PORT_TRIES - 1, 65535);
  for (let port = first; port <= last; port++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      return (server.address() as { port: number }).port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === last) {
        throw new Error(
          (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `no free port from ${first} to ${last}: pass another with --port` : `cannot listen on 127.0.0.1:${port}: ${describeThrown(error)}`,
        );
      }
    }
  }
  throw new Error(`no port to listen on from ${first}`);
}

function freshSession(registry: ToolRegistry, state: Record<string, JsonValue>): Session {
  const session = registry.createSession();
  for (const [key, value] of Object.entries(state)) session.setState(key, value);
  return session;
}

function describeTool(tool: RegisteredTool): ToolDescription {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    returns: tool.returns,
    confirm: tool.confirm,
    category: tool.category,
    keywords: [...tool.keywords],
    source: tool.source,
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Compares in constant time, so that the answer's timing tells nothing about the token. */
function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(response: http.ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...COMMON_HEADERS, ...headers, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function sendJson(response: http.ServerResponse, value: unknown): void {
  send(response, 200, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** A request's JSON body: only `application/json` (which a plain form cannot send), at most 1 MB. */
async function readJson(request: http.IncomingMessage): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(type)) throw new HttpError(415, 'send JSON, with Content-Type: application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `the request is not JSON: ${describeThrown(error)}`);
  }
}
