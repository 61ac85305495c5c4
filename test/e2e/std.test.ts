// End-to-end tests of `nuwa --std` (CLI.md v1.1, TOOLS.md §12): bin/nuwa spawned as a user runs it,
// on a plan that reads a file of its --root and calls a local HTTP API allowed with --allow-net (a
// real server in this process, on 127.0.0.1), and the usage errors of --root and --allow-net.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repository, 'bin', 'nuwa');

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/nuwa without blocking this process's event loop (the test's server must answer meanwhile). */
function nuwa(args: string[], cwd: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

let work: string;
let root: string;
let server: http.Server;
let port: number;
const requests: string[] = [];

beforeAll(async () => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'nuwa-std-e2e-')));
  root = path.join(work, 'data');
  mkdirSync(root);
  writeFileSync(path.join(root, 'cities.txt'), 'Paris\nOslo\n');
  writeFileSync(path.join(work, 'secret.txt'), 'not for scripts');
  server = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const city = decodeURIComponent((request.url ?? '').split('/').pop() ?? '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ city, temperature: city.length * 3 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  writeFileSync(
    path.join(work, 'plan.nuwa'),
    [
      'LET file = CALL fs.read { path: "cities.txt" }',
      'FOR city IN SPLIT(TRIM(file.content), "\\n") DO',
      '  LET weather = CALL http.request { url: FORMAT("http://127.0.0.1:{p}/weather/{c}", { p: port, c: city }) }',
      '  PRINT(FORMAT("{c}: {t}", { c: weather.body.city, t: weather.body.temperature }))',
      'END',
      'LET saved = CALL fs.write { path: "out/done.txt", content: "ok" }',
      'PRINT(saved.path)',
    ].join('\n'),
  );
  writeFileSync(path.join(work, 'escape.nuwa'), 'LET file = CALL fs.read { path: "../secret.txt" }\nPRINT(file.content)\n');
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

describe('nuwa run --std', () => {
  it('reads a file of the root and calls the allowed local API', async () => {
    const result = await nuwa(['run', '--std', '--root', root, '--allow-net', `127.0.0.1:${port}`, 'plan.nuwa', '--var', `port=${port}`, '--yes'], work);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Paris: 15\nOslo: 12\nout/done.txt\n');
    expect(result.status).toBe(0);
    expect(requests).toEqual(['GET /weather/Paris', 'GET /weather/Oslo']);
    expect(readFileSync(path.join(root, 'out', 'done.txt'), 'utf8')).toBe('ok');
  });

  it('asks nothing for GETs: without --yes only the write is denied', async () => {
    requests.length = 0;
    const result = await nuwa(['run', '--std', '--root', 'data', '--allow-net', `localhost,127.0.0.1:${port}`, 'plan.nuwa', '--var', `port=${port}`], work);
    expect(result.stdout).toBe('Paris: 15\nOslo: 12\n');
    expect(result.stderr).toContain('ToolDeniedError: the call to `fs.write` (a write action) was denied');
    expect(result.status).toBe(1);
    expect(requests).toHaveLength(2);
  });

  it('refuses a host that --allow-net does not name, and a path out of the root', async () => {
    requests.length = 0;
    const refused = await nuwa(['run', '--std', '--root', root, '--allow-net', '127.0.0.1:1', 'plan.nuwa', '--var', `port=${port}`, '--yes'], work);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`http://127.0.0.1:${port} is not an allowed host (allowed: 127.0.0.1:1): allow it with --allow-net 127.0.0.1:${port}`);
    expect(requests).toEqual([]);

    const escaped = await nuwa(['run', '--std', '--root', root, 'escape.nuwa'], work);
    expect(escaped.status).toBe(1);
    expect(escaped.stderr).toContain('"../secret.txt" leads outside the root folder');
    expect(escaped.stdout).toBe('');
  });

  it('uses the working directory as the root by default', async () => {
    const result = await nuwa(['run', '--std', path.join(work, 'escape.nuwa')], root);
    expect(result.stderr).toContain('leads outside the root folder');
  });
});

describe('usage errors (exit status 2)', () => {
  it.each([
    [['--root', 'data'], '--root configures the standard tools: add --std to load them'],
    [['--allow-net', '127.0.0.1'], '--allow-net configures the standard tools: add --std to load them'],
    [['--std', '--root', 'missing'], '--root: the folder "WORK/missing" does not exist'],
    [['--std', '--allow-net', 'http://127.0.0.1/'], '--allow-net: "http://127.0.0.1/" is not a host or host:port'],
    [['--std', '--allow-net', '127.0.0.1:99999'], '--allow-net: "127.0.0.1:99999" is not a host or host:port'],
  ])('nuwa run %j', async (options, message) => {
    const result = await nuwa(['run', ...options, 'plan.nuwa'], work);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message.replace('WORK', work));
    expect(result.stdout).toBe('');
  });

  it.each(['check', 'tools', 'prompt', 'repl', 'mcp'])('nuwa %s knows the options too', async (command) => {
    const result = await nuwa([command, '--allow-net', '127.0.0.1', ...(command === 'check' ? ['plan.nuwa'] : [])], work);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--allow-net configures the standard tools: add --std to load them');
  });
});

describe('the other commands with --std', () => {
  it('nuwa tools lists the standard tools with their risk levels', async () => {
    const result = await nuwa(['tools', '--std'], work);
    expect(result.status).toBe(0);
    const rows = result.stdout.trim().split('\n').map((line) => line.split(/\s+/).slice(0, 3).join(' '));
    expect(rows).toEqual([
      'fs.read read file',
      'fs.write write file',
      'fs.delete destructive file',
      'fs.list read file',
      'http.request write network',
      'ws.exchange write network',
      'data.parse_json none data',
      'data.parse_csv none data',
      'data.validate none data',
    ]);
  });

  it('nuwa check --plan shows each call\'s level: a literal GET is read', async () => {
    writeFileSync(path.join(work, 'get.nuwa'), 'LET r = CALL http.request { url: "http://127.0.0.1:1/" }\nLET w = CALL http.request { method: "POST", url: "http://127.0.0.1:1/" }\n');
    const result = await nuwa(['check', '--std', '--plan', '--json', 'get.nuwa'], work);
    const report = JSON.parse(result.stdout) as { plan: { calls: Array<{ confirm: string }>; needsApproval: Array<{ tool: string; maxCount: number }> } };
    expect(report.plan.calls.map((call) => call.confirm)).toEqual(['read', 'write']);
    expect(report.plan.needsApproval).toEqual([{ tool: 'http.request', confirm: 'write', maxCount: 1 }]);
  });
});
