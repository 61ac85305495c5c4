// http.request (TOOLS.md §12): one HTTP exchange through Node's fetch, to allowed hosts only.
// Redirects are followed here, not by fetch, so that every hop is checked against the allowed
// hosts before it is requested. The request and the response body are capped by maxBodyBytes
// (the body is read chunk by chunk and refused past the cap, never cut short); the exchange is
// time-limited by timeoutMs and aborted with the run (context.signal).
import type { DefinedTool, DefinedToolContext } from '../tools/forms.js';
import type { ConfirmLevel } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { overCap, stdTool, StdToolError, type StdSettings } from './common.js';
import { onAbort, type NetPolicy } from './net.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const SCHEMES = ['http:', 'https:'];
const MAX_REDIRECTS = 10;
/** Headers that carry credentials: not sent on to another origin by a redirect. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

/** GET and HEAD only read (an HTTP server must not change anything for them); every other method may. */
export function httpConfirm(args: JsonObject): ConfirmLevel {
  return args.method === 'GET' || args.method === 'HEAD' || args.method === undefined ? 'read' : 'write';
}

interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function outgoing(args: JsonObject, settings: StdSettings): Outgoing {
  const method = args.method as string;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries((args.headers ?? {}) as Record<string, string>)) headers[name.toLowerCase()] = value;
  let body: string | undefined;
  if (args.body !== undefined && args.body !== null) {
    if (method === 'GET' || method === 'HEAD') throw new StdToolError(`a ${method} request has no body: use POST or PUT to send one`, 'BAD_REQUEST');
    if (typeof args.body === 'string') {
      body = args.body;
    } else {
      body = JSON.stringify(args.body);
      headers['content-type'] ??= 'application/json';
    }
    const size = Buffer.byteLength(body);
    if (size > settings.maxBodyBytes) throw overCap(`the request body (${size} bytes)`, settings.maxBodyBytes);
  }
  return { method, headers, body };
}

/** The response headers as one object; repeated headers joined with ", " as HTTP allows. */
function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  });
  return out;
}

async function readBody(response: Response, url: string, cap: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > cap) {
    await response.body?.cancel().catch(() => {});
    throw overCap(`the response body of ${url} (${declared} bytes)`, cap);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > cap) {
      await reader.cancel().catch(() => {});
      throw overCap(`the response body of ${url}`, cap);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length);
}

const JSON_TYPE = /^(application\/([\w.+-]*\+)?json|text\/json)\s*(;|$)/i;

/** The body as the script gets it: JSON parsed when the response says it is JSON and it parses; else text. */
function bodyValue(bytes: Uint8Array, contentType: string | null): JsonValue {
  const text = new TextDecoder().decode(bytes);
  if (contentType !== null && JSON_TYPE.test(contentType) && text.trim() !== '') {
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      // Says JSON but is not (an error page, say): the text, so that the script still sees it.
    }
  }
  return text;
}

async function request(args: JsonObject, context: DefinedToolContext, settings: StdSettings, policy: NetPolicy): Promise<JsonValue> {
  let url = policy.check(args.url as string, SCHEMES);
  let { method, headers, body } = outgoing(args, settings);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  const unfollow = onAbort(context.signal, () => controller.abort());
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: controller.signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (hop === MAX_REDIRECTS) throw new StdToolError(`${args.url as string}: more than ${MAX_REDIRECTS} redirects`, 'TOO_MANY_REDIRECTS');
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new StdToolError(`${url.href} redirected to "${location}", which is not a URL`, 'BAD_REDIRECT');
        }
        let checked: URL;
        try {
          checked = policy.check(next.href, SCHEMES);
        } catch (error) {
          throw new StdToolError(`${url.href} redirected to ${next.href}, which was not followed: ${(error as Error).message}`, (error as StdToolError).code);
        }
        if (checked.origin !== url.origin) for (const name of CREDENTIALS) delete headers[name];
        // 303, and 301/302 after a POST, go on as GET without a body (as browsers and fetch do).
        if (response.status === 303 ? method !== 'HEAD' : (response.status === 301 || response.status === 302) && method === 'POST') {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        url = checked;
        continue;
      }
      const bytes = await readBody(response, url.href, settings.maxBodyBytes);
      return { status: response.status, headers: headersOf(response), body: bodyValue(bytes, response.headers.get('content-type')) };
    }
  } catch (error) {
    if (error instanceof StdToolError) throw error;
    if (timedOut) throw new StdToolError(`${url.href} did not answer within ${settings.timeoutMs} ms (timeoutMs)`, 'TIMEOUT');
    if (context.signal.aborted) throw error; // the run stopped: its own error takes over
    throw new StdToolError(`could not reach ${url.href}: ${networkReason(error)}`, 'NETWORK_ERROR');
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, a TLS error...) is in its cause. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown; code?: unknown } } | null)?.cause;
  if (cause && typeof cause.message === 'string' && cause.message !== '') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export function httpTool(settings: StdSettings, policy: NetPolicy): DefinedTool {
  return stdTool({
    id: 'http-request',
    name: 'http.request',
    description:
      'Makes an HTTP request to an allowed host: { status, headers, body }, body parsed when the response is JSON, else text. Any status is a result (check status). GET and HEAD are read actions; other methods are write actions that ask for approval.',
    category: 'network',
    confirm: 'write',
    confirmFor: httpConfirm,
    keywords: ['http', 'https', 'fetch', 'request', 'api', 'rest', 'get', 'post', 'url', 'web'],
    input: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: METHODS, default: 'GET', description: 'the HTTP method, in capitals' },
        url: { type: 'string', description: 'the whole URL, e.g. http://127.0.0.1:8080/items' },
        headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'request headers, name → value' },
        body: { description: 'the request body: a string as it is, any other value sent as JSON' },
      },
      required: ['url'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: { status: { type: 'number' }, headers: { type: 'object' }, body: {} },
      required: ['status', 'headers', 'body'],
    },
    run: (args, context) => request(args, context, settings, policy),
  });
}
