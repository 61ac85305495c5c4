// ws.exchange (TOOLS.md §12): connects to an allowed WebSocket server, sends the given messages,
// collects replies until `count` of them came, the server closed, or `timeoutMs` passed, and closes.
// The host is checked before anything connects; the `ws` package refuses redirects (its default) and
// any incoming message over maxBodyBytes (its maxPayload), and the replies together are capped too.
import WebSocket from 'ws';
import type { DefinedTool, DefinedToolContext } from '../tools/forms.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { overCap, stdTool, StdToolError, type StdSettings } from './common.js';
import { onAbort, type NetPolicy } from './net.js';

const SCHEMES = ['ws:', 'wss:'];
/** How long closing may wait for the server's answer before the socket is dropped. */
const CLOSE_GRACE_MS = 1_000;

function exchange(args: JsonObject, context: DefinedToolContext, settings: StdSettings, policy: NetPolicy): Promise<JsonValue> {
  const url = policy.check(args.url as string, SCHEMES);
  const cap = settings.maxBodyBytes;
  const outgoing = (args.messages as JsonValue[]).map((message, index) => {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    if (Buffer.byteLength(text) > cap) throw overCap(`message ${index + 1} to send`, cap);
    return text;
  });
  const count = args.count as number;
  const timeoutMs = args.timeoutMs as number;

  return new Promise<JsonValue>((resolve, reject) => {
    const received: string[] = [];
    let receivedBytes = 0;
    let opened = false;
    let settled = false;
    const socket = new WebSocket(url, { maxPayload: cap, followRedirects: false, handshakeTimeout: timeoutMs });

    const finish = (outcome: { closed: boolean } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unfollow();
      if (socket.readyState === WebSocket.CONNECTING || 'error' in outcome) {
        socket.terminate();
      } else if (socket.readyState === WebSocket.OPEN) {
        socket.close(1000);
        setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
      }
      if ('error' in outcome) reject(outcome.error);
      else resolve({ messages: received, closed: outcome.closed });
    };

    const timer = setTimeout(() => {
      if (opened) finish({ closed: false });
      else finish({ error: new StdToolError(`could not connect to ${url.href} within ${timeoutMs} ms (timeoutMs)`, 'TIMEOUT') });
    }, timeoutMs);
    const unfollow = onAbort(context.signal, () => finish({ error: context.signal.reason ?? new Error('aborted') }));

    socket.on('open', () => {
      opened = true;
      for (const text of outgoing) socket.send(text);
      if (received.length >= count) finish({ closed: false });
    });
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      if (settled) return;
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      receivedBytes += bytes.length;
      if (receivedBytes > cap) return finish({ error: overCap(`the messages received from ${url.href}`, cap) });
      received.push(bytes.toString('utf8'));
      if (received.length >= count) finish({ closed: false });
    });
    socket.on('close', () => finish({ closed: true }));
    socket.on('unexpected-response', (_request, response) => {
      finish({ error: new StdToolError(`${url.href} answered the WebSocket handshake with HTTP ${response.statusCode}, not a WebSocket`, 'NOT_A_WEBSOCKET') });
    });
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return finish({ error: overCap(`a message from ${url.href}`, cap) });
      const where = opened ? `the connection to ${url.href} failed` : `could not connect to ${url.href}`;
      finish({ error: new StdToolError(`${where}: ${error.message}`, 'NETWORK_ERROR') });
    });
  });
}

export function websocketTool(settings: StdSettings, policy: NetPolicy): DefinedTool {
  return stdTool({
    id: 'websocket-connect',
    name: 'ws.exchange',
    description:
      'Connects to a WebSocket server of an allowed host, sends messages (strings as they are, other values as JSON), collects the replies as strings until count of them came, the server closed, or timeoutMs passed, then closes: { messages, closed } (closed: the server closed first).',
    category: 'network',
    confirm: 'write',
    keywords: ['websocket', 'ws', 'socket', 'realtime', 'stream', 'send', 'receive', 'messages'],
    input: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'the whole URL, e.g. ws://127.0.0.1:8080/feed' },
        messages: { type: 'array', default: [], description: 'what to send once connected, in order' },
        count: { type: 'integer', minimum: 0, default: 1, description: 'how many replies to wait for' },
        timeoutMs: { type: 'number', exclusiveMinimum: 0, maximum: 600_000, default: 5000, description: 'how long to wait in all, in ms' },
      },
      required: ['url'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: { messages: { type: 'array', items: { type: 'string' } }, closed: { type: 'boolean' } },
      required: ['messages', 'closed'],
    },
    run: (args, context) => exchange(args, context, settings, policy),
  });
}
