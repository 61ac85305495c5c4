// Unit tests for src/std/http.ts (http.request) against real HTTP servers on 127.0.0.1, each on an
// ephemeral port: results, allowed hosts, redirects checked hop by hop, the body cap, time limits
// and cancellation, and the risk level that depends on the method (TOOLS.md §12).
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plan } from '../../../src/check/check.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { registerStdTools } from '../../../src/std/index.js';
import { stdHost, type StdHost } from './support.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

interface TestServer {
  server: Server;
  port: number;
  /** Requests seen, as "METHOD /path". */
  seen: string[];
  /** Resolved when a request to /hang has been closed by the client. */
  hangClosed: Promise<void>;
}

async function startServer(handler: Handler): Promise<TestServer> {
  const seen: string[] = [];
  let closedHang: () => void = () => {};
  const hangClosed = new Promise<void>((resolve) => (closedHang = resolve));
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.url === '/hang') {
      request.socket.on('close', closedHang);
      return; // never answers
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen, hangClosed };
}

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(value));
}

let main: TestServer;
let other: TestServer; // allowed too: a redirect target on another origin
let forbidden: TestServer; // never allowed
let host: StdHost;
let base: string;

const CAP = 1024;

beforeAll(async () => {
  other = await startServer((request, response) => json(response, 200, { at: 'other', authorization: request.headers.authorization ?? null, cookie: request.headers.cookie ?? null }));
  forbidden = await startServer((_request, response) => json(response, 200, { at: 'forbidden' }));
  main = await startServer((request, response, body) => {
    const url = request.url!;
    switch (url) {
      case '/json':
        return json(response, 200, { hello: 'world', list: [1, 2] });
      case '/echo':
        return json(response, 201, { method: request.method, body, type: request.headers['content-type'] ?? null, test: request.headers['x-test'] ?? null, n: request.headers['x-n'] ?? null });
      case '/text':
        response.writeHead(200, { 'content-type': 'text/plain', 'x-answer': '42' });
        return response.end('plain text');
      case '/not-json':
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('<html>oops</html>');
      case '/redirect':
        response.writeHead(302, { location: '/json' });
        return response.end();
      case '/see-other':
        response.writeHead(303, { location: '/echo' });
        return response.end();
      case '/loop':
        response.writeHead(302, { location: '/loop' });
        return response.end();
      case '/to-other':
        response.writeHead(307, { location: `http://127.0.0.1:${other.port}/landing` });
        return response.end();
      case '/to-forbidden':
        response.writeHead(302, { location: `http://127.0.0.1:${forbidden.port}/json` });
        return response.end();
      case '/to-localhost':
        response.writeHead(302, { location: `http://localhost:${main.port}/json` });
        return response.end();
      case '/big':
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('x'.repeat(CAP));
        return response.end('y'); // one byte over, without a content-length
      case '/big-declared':
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(CAP + 1) });
        return response.end('x'.repeat(CAP + 1));
      case '/exactly-cap':
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end('x'.repeat(CAP));
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end(`no ${url}`);
    }
  });
  base = `http://127.0.0.1:${main.port}`;
  host = stdHost({ allowNet: [`127.0.0.1:${main.port}`, `127.0.0.1:${other.port}`], maxBodyBytes: CAP });
});

afterAll(async () => {
  for (const { server } of [main, other, forbidden]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('http.request', () => {
  it('GETs JSON: status, headers, and the body parsed', async () => {
    const result = (await host.call('http.request', { url: `${base}/json` })) as { status: number; headers: Record<string, string>; body: unknown };
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(result.body).toEqual({ hello: 'world', list: [1, 2] });
  });

  it('POSTs a body: a string as it is, another value as JSON, with the headers given', async () => {
    expect(await host.call('http.request', { method: 'POST', url: `${base}/echo`, body: 'a=1', headers: { 'X-Test': 'yes', 'x-n': 5 } })).toMatchObject({
      status: 201,
      body: { method: 'POST', body: 'a=1', test: 'yes', n: '5' },
    });
    expect(await host.call('http.request', { method: 'PUT', url: `${base}/echo`, body: { name: 'Ada', tags: ['x'] } })).toMatchObject({
      body: { method: 'PUT', body: '{"name":"Ada","tags":["x"]}', type: 'application/json' },
    });
  });

  it('returns a body that is not JSON as text, also when it only claims to be JSON', async () => {
    expect(await host.call('http.request', { url: `${base}/text` })).toMatchObject({ status: 200, headers: { 'x-answer': '42' }, body: 'plain text' });
    expect(await host.call('http.request', { url: `${base}/not-json` })).toMatchObject({ body: '<html>oops</html>' });
  });

  it('returns a 404 as a result, for the script to look at', async () => {
    expect(await host.call('http.request', { url: `${base}/nowhere` })).toMatchObject({ status: 404, body: 'no /nowhere' });
  });

  it('HEAD has no body; GET refuses one', async () => {
    expect(await host.call('http.request', { method: 'HEAD', url: `${base}/json` })).toMatchObject({ status: 200, body: '' });
    expect((await host.fails('http.request', { url: `${base}/echo`, body: 'x' })).message).toContain('a GET request has no body');
  });

  it('refuses a method in small letters, listing the methods', async () => {
    const error = await host.fails('http.request', { method: 'post', url: `${base}/echo` });
    expect(error.kind).toBe('ToolArgumentError');
    expect(error.message).toContain('"POST"');
  });
});

describe('redirects', () => {
  it('follows a redirect to an allowed path', async () => {
    main.seen.length = 0;
    expect(await host.call('http.request', { url: `${base}/redirect` })).toMatchObject({ status: 200, body: { hello: 'world' } });
    expect(main.seen).toEqual(['GET /redirect', 'GET /json']);
  });

  it('turns a POST answered with 303 into a GET without the body', async () => {
    expect(await host.call('http.request', { method: 'POST', url: `${base}/see-other`, body: 'data' })).toMatchObject({ body: { method: 'GET', body: '' } });
  });

  it('follows a redirect to another allowed origin without the credentials', async () => {
    expect(await host.call('http.request', { method: 'POST', url: `${base}/to-other`, headers: { authorization: 'Bearer secret', cookie: 'a=1' } })).toMatchObject({
      body: { at: 'other', authorization: null, cookie: null },
    });
  });

  it('refuses a redirect to a host that is not allowed, before requesting it', async () => {
    forbidden.seen.length = 0;
    const error = await host.fails('http.request', { url: `${base}/to-forbidden` });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain(`redirected to http://127.0.0.1:${forbidden.port}/json, which was not followed`);
    expect(error.message).toContain('--allow-net');
    expect(error.code).toBe('HOST_NOT_ALLOWED');
    expect(forbidden.seen).toEqual([]);
  });

  it('refuses a redirect to localhost when only 127.0.0.1 is allowed (names are not resolved)', async () => {
    main.seen.length = 0;
    const error = await host.fails('http.request', { url: `${base}/to-localhost` });
    expect(error.message).toContain(`http://localhost:${main.port} is not an allowed host`);
    expect(main.seen).toEqual(['GET /to-localhost']);
  });

  it('stops after ten redirects', async () => {
    expect((await host.fails('http.request', { url: `${base}/loop` })).message).toContain('more than 10 redirects');
  });
});

describe('allowed hosts', () => {
  it('refuses a host that is not allowed before connecting, naming --allow-net and allowNet', async () => {
    forbidden.seen.length = 0;
    const error = await host.fails('http.request', { url: `http://127.0.0.1:${forbidden.port}/json` });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain(`--allow-net 127.0.0.1:${forbidden.port}`);
    expect(error.message).toContain('allowNet');
    expect(forbidden.seen).toEqual([]);
  });

  it('refuses every URL when no host is allowed', async () => {
    const closed = stdHost({});
    const error = await closed.fails('http.request', { url: `${base}/json` });
    expect(error.message).toContain('no host is allowed');
  });

  it('allows any port of a host given without one', async () => {
    const anyPort = stdHost({ allowNet: ['127.0.0.1'] });
    expect(await anyPort.call('http.request', { url: `http://127.0.0.1:${forbidden.port}/json` })).toMatchObject({ body: { at: 'forbidden' } });
  });

  it('refuses URLs that are not http or https, and text that is not a URL', async () => {
    expect((await host.fails('http.request', { url: 'file:///etc/passwd' })).message).toContain('only http and https URLs');
    expect((await host.fails('http.request', { url: '127.0.0.1/json' })).message).toContain('is not a URL');
  });
});

describe('caps and time limits', () => {
  it('refuses a body one byte over the cap, naming the cap, never cutting it short', async () => {
    for (const route of ['/big', '/big-declared']) {
      const error = await host.fails('http.request', { url: `${base}${route}` });
      expect(error.kind).toBe('ToolExecutionError');
      expect(error.message).toContain('over the 1 KB cap (maxBodyBytes)');
      expect(error.code).toBe('BODY_TOO_LARGE');
    }
    expect(((await host.call('http.request', { url: `${base}/exactly-cap` })) as { body: string }).body).toHaveLength(CAP);
  });

  it('refuses a request body over the cap before sending it', async () => {
    main.seen.length = 0;
    expect((await host.fails('http.request', { method: 'POST', url: `${base}/echo`, body: 'x'.repeat(CAP + 1) })).message).toContain('the request body (1025 bytes) is over the 1 KB cap');
    expect(main.seen).toEqual([]);
  });

  it("ends a request the server never answers at the run's timeout, closing the connection", async () => {
    const limited = stdHost({ allowNet: [`127.0.0.1:${main.port}`] }, { limits: { timeoutMs: 300 } });
    const error = await limited.fails('http.request', { url: `${base}/hang` });
    expect(error.kind).toBe('LimitExceededError');
    await main.hangClosed;
  });

  it("ends it when the run's signal aborts", async () => {
    const hanging = await startServer(() => {});
    try {
      const controller = new AbortController();
      const aborting = stdHost({ allowNet: [`127.0.0.1:${hanging.port}`] });
      const pending = aborting.fails('http.request', { url: `http://127.0.0.1:${hanging.port}/hang` }, { signal: controller.signal });
      while (hanging.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      expect((await pending).kind).toBe('AbortedError');
      await hanging.hangClosed;
    } finally {
      hanging.server.closeAllConnections();
      hanging.server.close();
    }
  });

  it('ends it at its own timeout (timeoutMs of createStdTools) with a ToolExecutionError', async () => {
    const hanging = await startServer(() => {});
    try {
      const quick = stdHost({ allowNet: [`127.0.0.1:${hanging.port}`], timeoutMs: 200 });
      const error = await quick.fails('http.request', { url: `http://127.0.0.1:${hanging.port}/hang` });
      expect(error.kind).toBe('ToolExecutionError');
      expect(error.message).toContain('did not answer within 200 ms (timeoutMs)');
      expect(error.code).toBe('TIMEOUT');
    } finally {
      hanging.server.closeAllConnections();
      hanging.server.close();
    }
  });

  it('says why it could not connect', async () => {
    const stopped = await startServer(() => {});
    const port = stopped.port;
    await new Promise((resolve) => stopped.server.close(resolve));
    const error = await stdHost({ allowNet: [`127.0.0.1:${port}`] }).fails('http.request', { url: `http://127.0.0.1:${port}/` });
    expect(error.message).toContain(`could not reach http://127.0.0.1:${port}/: connect ECONNREFUSED`);
  });
});

describe('risk level: read for GET and HEAD, write for the other methods', () => {
  it('asks approval only for methods that may change something', async () => {
    const asked: string[] = [];
    const watched = stdHost({ allowNet: [`127.0.0.1:${main.port}`] }, { approve: ({ confirm, args }) => (asked.push(`${String(args.method)} ${confirm}`), true) });
    await watched.call('http.request', { url: `${base}/json` });
    await watched.call('http.request', { method: 'HEAD', url: `${base}/json` });
    await watched.call('http.request', { method: 'POST', url: `${base}/echo` });
    await watched.call('http.request', { method: 'DELETE', url: `${base}/echo` });
    expect(asked).toEqual(['POST write', 'DELETE write']);
  });

  it('denies a POST without an approve hook, and runs a GET', async () => {
    const strict = stdHost({ allowNet: [`127.0.0.1:${main.port}`] }, { approve: undefined });
    expect(await strict.call('http.request', { url: `${base}/json` })).toMatchObject({ status: 200 });
    const error = await strict.fails('http.request', { method: 'POST', url: `${base}/echo` });
    expect(error.kind).toBe('ToolDeniedError');
    expect(error.message).toContain('(a write action)');
  });

  it('is listed as write (its highest level), and planned per call when the arguments are literals', () => {
    const registry = new ToolRegistry();
    registerStdTools(registry, {});
    expect(registry.get('http-request')?.confirm).toBe('write');
    const script = ['CALL http.request { url: "http://a.test/" }', 'CALL http.request { method: "HEAD", url: "http://a.test/" }', 'CALL http.request { method: "POST", url: "http://a.test/" }', 'CALL http.request { url: u }'].join('\n');
    const result = plan(script, registry, { variables: ['u'] });
    expect(result.calls.map((call) => call.confirm)).toEqual(['read', 'read', 'write', 'write']);
    expect(result.needsApproval).toEqual([{ tool: 'http.request', confirm: 'write', maxCount: 2 }]);
  });
});
