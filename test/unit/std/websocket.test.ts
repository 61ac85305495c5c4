// Unit tests for src/std/websocket.ts (ws.exchange) against a real WebSocket server (the `ws`
// package) on 127.0.0.1: echo, count, timeout, a server that closes, the message cap, cancellation,
// and a host that is not allowed refused before any connection is made (TOOLS.md §12).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdHost, type StdHost } from './support.js';

const CAP = 1024;

let server: http.Server;
let wss: WebSocketServer;
let port: number;
/** TCP connections the server accepted. */
let connections = 0;
/** What the server received, per path. */
const received: Record<string, string[]> = {};
/** Resolvers for "the client went away" on /silent. */
let silentClosed: Promise<void>;
let onSilentClosed: () => void;
let host: StdHost;
let url: (path: string) => string;

function behave(socket: WebSocket, path: string): void {
  const record = (data: Buffer) => (received[path] ??= []).push(data.toString('utf8'));
  switch (path) {
    case '/echo':
      socket.on('message', (data: Buffer) => {
        record(data);
        socket.send(data.toString('utf8'));
      });
      return;
    case '/greet':
      socket.send('hello');
      socket.on('message', (data: Buffer) => {
        record(data);
        socket.send(`re: ${data.toString('utf8')}`);
      });
      return;
    case '/close-after-one':
      socket.send('only');
      socket.close(1000, 'done');
      return;
    case '/silent':
      socket.on('message', record);
      socket.on('close', () => onSilentClosed());
      return;
    case '/big':
      socket.send('x'.repeat(CAP + 1));
      return;
    case '/many':
      for (let i = 0; i < 3; i++) socket.send(String(i).repeat(400));
      return;
    case '/binary':
      socket.send(Buffer.from('bytes as text'), { binary: true });
      return;
  }
}

beforeAll(async () => {
  silentClosed = new Promise((resolve) => (onSilentClosed = resolve));
  server = http.createServer((_request, response) => response.writeHead(404).end());
  server.on('connection', () => connections++);
  wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const path = request.url ?? '/';
    if (path === '/nope') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (client) => behave(client, path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  url = (path) => `ws://127.0.0.1:${port}${path}`;
  host = stdHost({ allowNet: [`127.0.0.1:${port}`], maxBodyBytes: CAP });
});

afterAll(async () => {
  for (const client of wss.clients) client.terminate();
  wss.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('ws.exchange', () => {
  it('sends messages (strings as they are, other values as JSON) and collects the replies', async () => {
    expect(await host.call('ws.exchange', { url: url('/echo'), messages: ['ping', { n: 1 }], count: 2 })).toEqual({ messages: ['ping', '{"n":1}'], closed: false });
  });

  it('stops at count replies', async () => {
    expect(await host.call('ws.exchange', { url: url('/greet'), messages: ['a', 'b'], count: 1 })).toEqual({ messages: ['hello'], closed: false });
    expect(await host.call('ws.exchange', { url: url('/greet'), messages: ['a', 'b'], count: 3 })).toEqual({ messages: ['hello', 're: a', 're: b'], closed: false });
  });

  it('returns what came by timeoutMs when fewer replies came', async () => {
    expect(await host.call('ws.exchange', { url: url('/greet'), count: 2, timeoutMs: 200 })).toEqual({ messages: ['hello'], closed: false });
  });

  it('reports a server that closed the connection first', async () => {
    expect(await host.call('ws.exchange', { url: url('/close-after-one'), count: 5 })).toEqual({ messages: ['only'], closed: true });
  });

  it('with count 0, only sends', async () => {
    expect(await host.call('ws.exchange', { url: url('/echo'), messages: ['fire and forget'], count: 0 })).toEqual({ messages: [], closed: false });
    while ((received['/echo'] ?? []).at(-1) !== 'fire and forget') await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it('returns a binary message as its UTF-8 text', async () => {
    expect(await host.call('ws.exchange', { url: url('/binary') })).toEqual({ messages: ['bytes as text'], closed: false });
  });

  it('refuses a message over the cap, naming the cap', async () => {
    const error = await host.fails('ws.exchange', { url: url('/big') });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('over the 1 KB cap (maxBodyBytes)');
    expect(error.code).toBe('BODY_TOO_LARGE');
  });

  it('refuses replies that together go over the cap', async () => {
    const error = await host.fails('ws.exchange', { url: url('/many'), count: 3 });
    expect(error.message).toContain(`the messages received from ws://127.0.0.1:${port}/many is over the 1 KB cap`);
  });

  it('refuses a message to send over the cap, before connecting', async () => {
    const before = connections;
    const error = await host.fails('ws.exchange', { url: url('/echo'), messages: ['x'.repeat(CAP + 1)] });
    expect(error.message).toContain('message 1 to send is over the 1 KB cap');
    expect(connections).toBe(before);
  });

  it('refuses a host that is not allowed before connecting: the server sees no connection', async () => {
    const before = connections;
    for (const other of [`ws://localhost:${port}/echo`, `ws://127.0.0.1:${port + 1 === 65536 ? 1 : port + 1}/echo`]) {
      const error = await host.fails('ws.exchange', { url: other, messages: ['secret'] });
      expect(error.kind).toBe('ToolExecutionError');
      expect(error.message).toContain('is not an allowed host');
      expect(error.message).toContain('--allow-net');
      expect(error.code).toBe('HOST_NOT_ALLOWED');
    }
    const closed = stdHost({});
    expect((await closed.fails('ws.exchange', { url: url('/echo') })).message).toContain('no host is allowed');
    expect(connections).toBe(before);
  });

  it('refuses URLs that are not ws or wss', async () => {
    expect((await host.fails('ws.exchange', { url: `http://127.0.0.1:${port}/echo` })).message).toContain('only ws and wss URLs');
  });

  it('says when the server answers with HTTP instead of a WebSocket', async () => {
    const error = await host.fails('ws.exchange', { url: url('/nope') });
    expect(error.message).toContain('answered the WebSocket handshake with HTTP 404');
  });

  it("stops waiting when the run's signal aborts, and closes the connection", async () => {
    const controller = new AbortController();
    const before = received['/silent']?.length ?? 0;
    const pending = host.fails('ws.exchange', { url: url('/silent'), messages: ['waiting'], timeoutMs: 60_000 }, { signal: controller.signal });
    while ((received['/silent']?.length ?? 0) === before) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect((await pending).kind).toBe('AbortedError');
    await silentClosed;
  });

  it('is a write action: the approve hook is asked, and without it the call is denied', async () => {
    const asked: string[] = [];
    const watched = stdHost({ allowNet: [`127.0.0.1:${port}`] }, { approve: ({ toolName, confirm }) => (asked.push(`${toolName} ${confirm}`), true) });
    await watched.call('ws.exchange', { url: url('/greet') });
    expect(asked).toEqual(['ws.exchange write']);
    const before = connections;
    expect((await stdHost({ allowNet: [`127.0.0.1:${port}`] }, { approve: undefined }).fails('ws.exchange', { url: url('/greet') })).kind).toBe('ToolDeniedError');
    expect(connections).toBe(before);
  });

  it('is found by its sdkwork id', () => {
    expect(host.registry.get('websocket-connect')?.name).toBe('ws.exchange');
  });
});
