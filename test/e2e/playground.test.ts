// `nuwa playground` as a process, over plain HTTP: who may talk to it (the token, its own Host and
// Origin, no other page), the JSON API (a call's stream, approvals answered over HTTP, --yes,
// (a page that goes away mid-call: test/unit/playground/server.test.ts), where it listens (127.0.0.1, port 4747 or the next free one,
// --port), --open, --trace, Ctrl-C, and its usage errors. The page itself: test/browser/.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallMessage } from '../../src/playground/protocol.js';
import { startPlayground, type RunningPlayground } from '../support/playground.js';
import { waitFor } from '../support/processes.js';

const work = mkdtempSync(path.join(tmpdir(), 'nuwa-playground-http-'));
const recordFile = path.join(work, 'record.txt');
const recorded = () => (existsSync(recordFile) ? readFileSync(recordFile, 'utf8') : '');
const TOOLS = ['--tools', 'examples/tools.mjs', '--tools', 'test/fixtures/tools-playground.mjs'];
let playground: RunningPlayground;

beforeAll(async () => {
  playground = await startPlayground([...TOOLS, '--state', 'examples/todo-state.json'], { NUWA_TEST_RECORD: recordFile });
});
afterAll(async () => {
  await playground?.stop();
  rmSync(work, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request to 127.0.0.1:port, with exactly the headers given (Host included). */
function request(port: number, method: string, pathname: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { host: `127.0.0.1:${port}`, ...headers };
    const setHost = all.host !== '';
    if (!setHost) delete all.host;
    const outgoing = http.request({ host: '127.0.0.1', port, method, path: pathname, headers: all, setHost, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const withToken = () => ({ 'x-nuwa-token': playground.token });
const json = () => ({ ...withToken(), 'content-type': 'application/json' });

/** POST /api/call; resolves to the stream's messages once it ends. */
async function call(tool: string, args: Record<string, unknown>, headers = json()): Promise<CallMessage[]> {
  const answer = await request(playground.port, 'POST', '/api/call', headers, JSON.stringify({ tool, args }));
  expect(answer.status).toBe(200);
  return answer.body.trim().split('\n').map((line) => JSON.parse(line) as CallMessage);
}

describe('who may use the server', () => {
  it('serves the page, its assets and the API to requests with the token, its own Host and no other Origin', async () => {
    const page = await request(playground.port, 'GET', `/?token=${playground.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain(`assets/playground.js?token=${playground.token}`);
    expect((await request(playground.port, 'GET', `/assets/playground.js?token=${playground.token}`)).status).toBe(200);
    expect((await request(playground.port, 'GET', '/api/session', withToken())).status).toBe(200);
    const same = { ...withToken(), origin: playground.origin, 'sec-fetch-site': 'same-origin' };
    expect((await request(playground.port, 'GET', '/api/state', same)).status).toBe(200);
    expect((await request(playground.port, 'GET', '/api/state', { ...withToken(), host: `localhost:${playground.port}`, origin: `http://localhost:${playground.port}` })).status).toBe(200);
    // The page opened from a link on another site (a chat, a web terminal): it still needs the token.
    const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    expect((await request(playground.port, 'GET', `/?token=${playground.token}`, navigation)).status).toBe(200);
    expect((await request(playground.port, 'GET', '/', navigation)).status).toBe(403);
  });

  it.each([
    ['no token', '/', {}],
    ['no token, for an asset', '/assets/playground.js', {}],
    ['no token, for the API', '/api/session', {}],
    ['a wrong token', '/?token=not-the-token', {}],
    ['a wrong token in the header', '/api/state', { 'x-nuwa-token': 'x'.repeat(32) }],
    ['the token, but another Host (DNS rebinding)', 'TOKEN', { host: `evil.example:PORT` }],
    ['the token, but a Host on another port', 'TOKEN', { host: '127.0.0.1:1' }],
    ['the token, but another Origin', 'TOKEN', { origin: 'http://evil.example' }],
    ['the token, but the Origin of another port', 'TOKEN', { origin: 'http://127.0.0.1:1' }],
    ['the token, but the null Origin (a sandboxed frame, a file)', 'TOKEN', { origin: 'null' }],
    ['the token, but sent by another site (Sec-Fetch-Site)', 'TOKEN', { 'sec-fetch-site': 'cross-site' }],
    ['the token, but sent by another port of this host (Sec-Fetch-Site)', 'TOKEN', { 'sec-fetch-site': 'same-site' }],
    ['the token, but to be framed by another site', 'TOKEN', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }],
    ['the token, for the API, navigated to from another site', '/api/state?token=TOKEN', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }],
  ])('refuses a request with %s: 403', async (_what, target, headers: Record<string, string>) => {
    const fixed = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', String(playground.port))]));
    const pathname = target === 'TOKEN' ? `/?token=${playground.token}` : target.replace('TOKEN', playground.token);
    const answer = await request(playground.port, 'GET', pathname, fixed);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/^403 Forbidden: /);
    expect(answer.body).not.toContain(playground.token);
  });

  it('refuses a call from another origin before anything runs, and a CORS preflight', async () => {
    const body = JSON.stringify({ tool: 'mark', args: { line: 'from another origin' } });
    expect((await request(playground.port, 'POST', '/api/call', { ...json(), origin: 'http://evil.example' }, body)).status).toBe(403);
    expect((await request(playground.port, 'POST', '/api/call', { ...json(), host: 'evil.example' }, body)).status).toBe(403);
    expect((await request(playground.port, 'POST', `/api/call?token=${playground.token}`, { 'content-type': 'text/plain', origin: 'http://evil.example' }, body)).status).toBe(403);
    expect((await request(playground.port, 'OPTIONS', '/api/call', { origin: 'http://evil.example', 'access-control-request-method': 'POST' })).status).toBe(403);
    // Without a Host, Node's HTTP server itself refuses an HTTP/1.1 request.
    expect((await request(playground.port, 'POST', '/api/call', { ...json(), host: '' }, body)).status).toBe(400);
    expect(recorded()).not.toContain('from another origin');
  });

  it('takes only JSON bodies (a plain form cannot send one) and answers unknown routes with 404', async () => {
    const body = JSON.stringify({ tool: 'mark', args: { line: 'as a form' } });
    expect((await request(playground.port, 'POST', '/api/call', { ...withToken(), 'content-type': 'application/x-www-form-urlencoded' }, body)).status).toBe(415);
    expect((await request(playground.port, 'POST', '/api/call', { ...withToken(), 'content-type': 'text/plain' }, body)).status).toBe(415);
    expect(recorded()).not.toContain('as a form');
    expect((await request(playground.port, 'GET', '/etc/passwd', withToken())).status).toBe(404);
    expect((await request(playground.port, 'GET', '/assets/../../package.json', withToken())).status).toBe(404);
    expect((await request(playground.port, 'PUT', '/api/call', withToken())).status).toBe(405);
    expect((await request(playground.port, 'POST', '/api/call', json(), '{not json')).status).toBe(400);
    expect((await request(playground.port, 'POST', '/api/call', json(), JSON.stringify({ tool: 'mark', args: [] }))).status).toBe(400);
    expect((await request(playground.port, 'POST', '/api/call', json(), 'x'.repeat(2 << 20))).status).toBe(413);
  });

  it('listens on 127.0.0.1 only', async () => {
    const elsewhere = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
    const refused = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect({ host, port: playground.port });
        socket.on('connect', () => (socket.destroy(), resolve(false)));
        socket.on('error', () => resolve(true));
      });
    if (elsewhere !== undefined) expect(await refused(elsewhere)).toBe(true);
    expect(await refused('::1')).toBe(true);
  });
});

describe('the JSON API', () => {
  it('describes the tools (with their schemas and risk levels), the options and the state', async () => {
    const info = JSON.parse((await request(playground.port, 'GET', '/api/session', withToken())).body);
    expect(info.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_price', 'get_quote', 'get_portfolio', 'place_order', 'list_regions', 'get_sales', 'shout', 'mark', 'record', 'record_via']);
    expect(info.tools.find((tool: { name: string }) => tool.name === 'place_order')).toMatchObject({ confirm: 'write', category: 'network', parameters: { type: 'object', required: ['symbol', 'side', 'quantity'] } });
    expect(info).toMatchObject({ yes: false, limits: {}, variables: {}, failures: [] });
    expect(Object.keys(info.state)).toEqual(['todos']); // --state
  });

  it('runs a call through the registry: its checks, its result, and what the tool printed and logged', async () => {
    expect(await call('shout', { text: 'hey' })).toEqual([
      { type: 'print', line: 'HEY' },
      { type: 'log', level: 'warn', message: '[shout] shouted hey' },
      { type: 'result', result: expect.objectContaining({ success: true, data: 'HEY' }) },
    ]);
    const [bad] = await call('get_price', { symbol: 5, extra: true });
    expect(bad).toEqual({ type: 'result', result: expect.objectContaining({ success: false, code: 'ToolArgumentError' }) });
    const [unknown] = await call('get_prise', {});
    expect(unknown).toEqual({ type: 'result', result: expect.objectContaining({ success: false, code: 'ToolNotFoundError', error: 'Unknown tool: get_prise' }) });
  });

  it('asks for approval in the stream, and runs the call only once it is approved over POST /api/approval', async () => {
    const answered: Array<Promise<boolean>> = [];
    for (const approved of [true, false]) {
      const line = `asked over http, ${approved}`;
      const messages: CallMessage[] = [];
      await new Promise<void>((resolve, reject) => {
        const outgoing = http.request({ host: '127.0.0.1', port: playground.port, method: 'POST', path: '/api/call', headers: json(), agent: false }, (response) => {
          let buffer = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            buffer += chunk;
            for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
              const message = JSON.parse(buffer.slice(0, newline)) as CallMessage;
              buffer = buffer.slice(newline + 1);
              messages.push(message);
              if (message.type === 'approval') {
                expect(message.request).toMatchObject({ toolName: 'record', confirm: 'write', category: 'file', args: { line } });
                expect(recorded()).not.toContain(line); // asked before it runs
                answered.push(request(playground.port, 'POST', '/api/approval', json(), JSON.stringify({ id: message.id, approved })).then((answer) => answer.status === 204));
              }
            }
          });
          response.on('end', resolve);
        });
        outgoing.on('error', reject);
        outgoing.end(JSON.stringify({ tool: 'record', args: { line } }));
      });
      const result = messages.at(-1)!;
      expect(result.type).toBe('result');
      if (approved) {
        expect(result).toMatchObject({ result: { success: true, data: true } });
        expect(recorded()).toContain(`${line}\n`);
      } else {
        expect(result).toMatchObject({ result: { success: false, code: 'ToolDeniedError' } });
        expect(recorded()).not.toContain(line);
      }
    }
    expect(await Promise.all(answered)).toEqual([true, true]);
    const late = await request(playground.port, 'POST', '/api/approval', json(), JSON.stringify({ id: 'no-such-call', approved: true }));
    expect(late.status).toBe(404);
    expect((await request(playground.port, 'POST', '/api/approval', json(), JSON.stringify({ id: 'x' }))).status).toBe(400);
  });

  it('keeps the state across calls until reset, which goes back to --state', async () => {
    await call('get_portfolio', {});
    const before = JSON.parse((await request(playground.port, 'GET', '/api/state', withToken())).body).state;
    expect(Object.keys(before).sort()).toEqual(['portfolio', 'todos']);
    const reset = JSON.parse((await request(playground.port, 'POST', '/api/reset', json(), '{}')).body).state;
    expect(Object.keys(reset)).toEqual(['todos']);
    expect(reset.todos).toEqual(JSON.parse(readFileSync('examples/todo-state.json', 'utf8')).todos);
  });
});

describe('the command', () => {
  it('with --yes approves without asking, and says so in the stream; --trace writes the calls\' events', async () => {
    const trace = path.join(work, 'trace.jsonl');
    const yes = await startPlayground([...TOOLS, '--yes', '--trace', trace], { NUWA_TEST_RECORD: recordFile });
    try {
      const answer = await request(yes.port, 'POST', '/api/call', { 'x-nuwa-token': yes.token, 'content-type': 'application/json' }, JSON.stringify({ tool: 'record', args: { line: 'with --yes' } }));
      const messages = answer.body.trim().split('\n').map((line) => JSON.parse(line) as CallMessage);
      expect(messages.map((m) => m.type)).toEqual(['approved', 'result']);
      expect(messages[0]).toEqual({ type: 'approved', toolName: 'record', by: 'yes' });
      expect(recorded()).toContain('with --yes\n');
      const info = JSON.parse((await request(yes.port, 'GET', '/api/session', { 'x-nuwa-token': yes.token })).body);
      expect(info.yes).toBe(true);
    } finally {
      expect(await yes.stop()).toBe(0); // Ctrl-C: a clean stop
    }
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line).type);
    expect(events).toEqual(['tool:invoking', 'tool:invoked', 'tool:completed']);
  });

  it('serves on 4747 by default, or the next free port; --port N starts from N', async () => {
    const byDefault = await startPlayground([], {}, 'default');
    await byDefault.stop();
    expect(byDefault.port).toBeGreaterThanOrEqual(4747);
    expect(byDefault.port).toBeLessThan(4747 + 50);
    // A port taken: the next free one.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as net.AddressInfo).port;
    const next = await startPlayground([], {}, busy);
    try {
      expect(next.port).toBeGreaterThan(busy);
      expect(next.url).toBe(`http://127.0.0.1:${next.port}/?token=${next.token}`);
      expect(next.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    } finally {
      await next.stop();
      taken.close();
    }
  });

  it('opens the page with $BROWSER for --open', async () => {
    const opened = path.join(work, 'opened.txt');
    const fakeBrowser = path.join(work, 'browser.sh');
    writeFileSync(fakeBrowser, `#!/bin/sh\necho "$1" > ${JSON.stringify(opened)}\n`);
    chmodSync(fakeBrowser, 0o755);
    const withOpen = await startPlayground(['--open'], { BROWSER: fakeBrowser });
    try {
      expect(await waitFor(() => existsSync(opened) && readFileSync(opened, 'utf8') !== '')).toBe(true);
      expect(readFileSync(opened, 'utf8').trim()).toBe(withOpen.url);
    } finally {
      await withOpen.stop();
    }
  });

  it.each([
    [['--json'], '--json is an option of run and check'],
    [['script.nuwa'], 'playground takes no file'],
    [['--port', 'http'], '--port http: expected a port number from 0 to 65535'],
    [['--port', '70000'], '--port 70000: expected a port number'],
    [['--tools', 'no-such-module.mjs'], 'no-such-module.mjs'],
    [['--prot', '1'], 'did you mean `--port`'],
  ])('nuwa playground %j is a usage error (exit 2)', (args, message) => {
    const result = spawnSync(process.execPath, ['bin/nuwa', 'playground', ...args], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('has a help text, also through nuwa help playground', () => {
    const help = spawnSync(process.execPath, ['bin/nuwa', 'playground', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: nuwa playground [options]');
    expect(spawnSync(process.execPath, ['bin/nuwa', 'help', 'playground'], { encoding: 'utf8' }).stdout).toBe(help.stdout);
    expect(spawnSync(process.execPath, ['bin/nuwa', '--help'], { encoding: 'utf8' }).stdout).toContain('nuwa playground');
  });
});
