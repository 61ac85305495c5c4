// End-to-end: `nuwa run` with tools outside the process, as a user runs it: executables in three
// languages (--tools-dir), MCP servers (--mcp: the SDK fixture server and the official filesystem
// server from npm), their failures, and no process left behind, also after Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bashTool, isAlive, readPids, tempDir, waitFor, writeTool } from '../support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const fixtureServer = `node ${path.join(root, 'test/fixtures/mcp/server.mjs')}`;
const filesystemServer = `node ${path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')}`;

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/nuwa with a capped heap (hostile tools must not be able to exhaust it) and a kill timeout. */
function nuwa(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Result {
  const child = spawnSync(process.execPath, ['--max-old-space-size=128', bin, ...args], {
    cwd: root,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function script(source: string): string {
  const file = path.join(tempDir('nuwa-e2e-'), 'plan.nuwa');
  writeFileSync(file, source);
  return file;
}

const info = (name: string, extra: object = {}) => ({ name, description: `the ${name} tool`, parameters: { type: 'object', additionalProperties: true }, confirm: 'none', ...extra });

describe('nuwa run --tools-dir', () => {
  it('runs the example of the README: tools in bash, Python and Node', () => {
    const result = nuwa(['run', 'examples/executables.nuwa', '--tools-dir', 'examples/tools']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^straight: 5, by steps: 7\nslug: nuwa-runs-tools-in-any-language\nsystem_info tells hostname, os, cpus, session\n$/);
    expect(result.status).toBe(0);
  });

  it('calls a bash tool, a Python tool and an MCP tool in one run, with the same checks and errors', () => {
    const file = script(
      [
        'LET d = CALL calculate_distance { x1: 0, y1: 0, x2: 6, y2: 8 }',
        'LET host = CALL system_info {}',
        'LET s = CALL fixture_server.add { a: d.euclidean, b: host.cpus }',
        'PRINT(s.sum - host.cpus)',
        'CALL calculate_distance { x1: 0, y1: 0, x2: 6, y2: 8.5 }',
      ].join('\n'),
    );
    const result = nuwa(['run', file, '--tools-dir', 'examples/tools', '--mcp', fixtureServer]);
    expect(result.stdout).toBe('10\n');
    expect(result.stderr).toMatch(/plan\.nuwa:5:1: ToolArgumentError: invalid arguments for tool `calculate_distance`: .*y2.*integer/);
    expect(result.status).toBe(1);
  });

  it('warns about each tool file that failed to load, and runs with the others', () => {
    const dir = tempDir();
    bashTool(dir, 'ok', info('ok'), 'echo \'{"success":true,"data":"fine"}\'');
    writeTool(dir, 'broken', '#!/usr/bin/env bash\necho "not a schema"\n');
    const result = nuwa(['run', '-', '--tools-dir', dir], { input: 'PRINT(CALL ok {})' });
    expect(result.stdout).toBe('fine\n');
    expect(result.stderr).toMatch(/^nuwa: warning: .*broken: not loaded: --tool-info printed no JSON schema: "not a schema"\n$/);
    expect(result.status).toBe(0);
  });

  it('fails with a usage error for a directory that does not exist', () => {
    const result = nuwa(['run', '-', '--tools-dir', 'no/such/dir'], { input: 'PRINT(1)' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^nuwa: cannot load tools from .*no\/such\/dir: no such directory/);
  });

  it('stops tools that flood stdout (5 MB, and endless output) with a clear error, within a 128 MB heap', () => {
    const dir = tempDir();
    bashTool(dir, 'floods', info('floods'), 'head -c 5000000 /dev/zero | tr "\\0" "a"');
    bashTool(dir, 'endless', info('endless'), 'yes \'{"success":true}\'');
    const flood = nuwa(['run', '-', '--tools-dir', dir], { input: 'CALL floods {}' });
    expect(flood.status).toBe(1);
    expect(flood.stderr).toMatch(/ToolExecutionError: tool `floods` failed: it printed more than 4194304 bytes on stdout, so it was stopped/);
    const endless = nuwa(['run', '-', '--tools-dir', dir], { input: 'CALL endless {}' });
    expect(endless.status).toBe(1);
    expect(endless.stderr).toMatch(/tool `endless` failed: it printed more than 4194304 bytes/);
  });

  it('reports a tool timeout as LimitExceededError and leaves no process behind', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    bashTool(dir, 'hangs', info('hangs', { timeoutMs: 1_500 }), `sleep 60 &\necho $! >> ${pids}\necho $$ >> ${pids}\nwait`);
    const result = nuwa(['run', '-', '--tools-dir', dir], { input: 'CALL hangs {}' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/LimitExceededError: tool `hangs` took longer than its timeoutMs \(1500 ms\)/);
    const found = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    expect(found).toHaveLength(2);
    for (const pid of found) expect(await waitFor(() => !isAlive(pid))).toBe(true);
  });
});

describe('nuwa run --mcp', () => {
  it('works with the official filesystem server from npm, through a script an agent would write', () => {
    const dir = tempDir();
    const file = script(
      [
        `LET dir = ${JSON.stringify(dir)}`,
        'FOR name IN ["alpha", "beta"] DO',
        '  CALL secure_filesystem_server.write_file { path: FORMAT("{d}/{n}.txt", { d: dir, n: name }), content: FORMAT("notes about {n}", { n: name }) }',
        'END',
        'LET listing = CALL secure_filesystem_server.list_directory { path: dir }',
        'PRINT(listing.content)',
        'LET beta = CALL secure_filesystem_server.read_text_file { path: FORMAT("{d}/beta.txt", { d: dir }) }',
        'PRINT(beta.content)',
      ].join('\n'),
    );
    const result = nuwa(['run', file, '--mcp', `${filesystemServer} '${dir}'`, '--yes']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('[FILE] alpha.txt\n[FILE] beta.txt\nnotes about beta\n');
    expect(result.status).toBe(0);
    expect(readFileSync(path.join(dir, 'alpha.txt'), 'utf8')).toBe('notes about alpha');

    // write_file is destructive by its annotations: without --yes (and no terminal) it is denied.
    const denied = nuwa(['run', file, '--mcp', `${filesystemServer} '${dir}'`]);
    expect(denied.status).toBe(1);
    expect(denied.stderr).toMatch(/ToolDeniedError: the call to `secure_filesystem_server.write_file` \(a destructive action\) was denied/);
    // and the server's own checks still hold: a path outside its root is its error
    const outside = nuwa(['run', '-', '--mcp', `${filesystemServer} '${dir}'`], { input: 'CALL secure_filesystem_server.read_text_file { path: "/etc/passwd" }' });
    expect(outside.status).toBe(1);
    expect(outside.stderr).toMatch(/ToolExecutionError: tool `secure_filesystem_server.read_text_file` failed: .*(denied|outside)/i);
  });

  it('refuses an --mcp command it cannot split or start, with a usage error', () => {
    const unclosed = nuwa(['run', '-', '--mcp', `node 'server.js`], { input: 'PRINT(1)' });
    expect(unclosed.status).toBe(2);
    expect(unclosed.stderr).toMatch(/--mcp "node 'server.js": the single quote at character 6 is never closed/);
    const missing = nuwa(['run', '-', '--mcp', 'no-such-mcp-server --flag'], { input: 'PRINT(1)' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot use the MCP server `no-such-mcp-server --flag`: no such command/);
  });

  it('closes the MCP servers when the run ends, and when it fails', async () => {
    const dir = tempDir();
    for (const [i, source] of ['PRINT(CALL fixture_server.echo { text: "hi" })', 'CALL fixture_server.fail {}'].entries()) {
      const pidFile = path.join(dir, `pid${i}`);
      const result = nuwa(['run', '-', '--mcp', fixtureServer], { input: source, env: { FIXTURE_PID_FILE: pidFile } });
      expect(result.status).toBe(i);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(await waitFor(() => !isAlive(pid))).toBe(true);
    }
  });
});

describe('the host killed outright (SIGKILL, as the OOM killer does)', () => {
  it('takes the executable and its children with it, through the supervisor process', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    bashTool(dir, 'hangs', info('hangs'), `sleep 60 &\necho $! >> ${pids}\necho $$ >> ${pids}\nwait`);
    const child = spawn(process.execPath, [bin, 'run', '-', '--tools-dir', dir], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.stdin.end('CALL hangs {}');
    const [grandchild, tool] = await readPids(pids, 2);
    expect(isAlive(tool!) && isAlive(grandchild!)).toBe(true);
    await waitFor(() => supervisorsOf(child.pid!).length > 0, 10_000);
    const supervisors = supervisorsOf(child.pid!);
    child.kill('SIGKILL');
    await closed;
    try {
      expect(await waitFor(() => !isAlive(tool!), 5_000)).toBe(true);
      expect(await waitFor(() => !isAlive(grandchild!), 5_000)).toBe(true);
    } finally {
      for (const pid of [tool!, grandchild!]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    // One supervisor per host, however many tools it ran; its work done, it has gone too.
    expect(supervisors).toHaveLength(1);
    expect(await waitFor(() => supervisors.every((pid) => !isAlive(pid)), 5_000)).toBe(true);
  });
});

/** The supervisor processes (by their command line) whose parent is `parent`. */
function supervisorsOf(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      // Its title once it has started; its `node -e` program before.
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parentPid === parent && (command.startsWith('nuwa-supervisor') || command.includes('supervisorMain'))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe('Ctrl-C', () => {
  /** Starts nuwa, waits until `ready` holds, sends SIGINT, and resolves with the outcome. */
  function interrupt(args: string[], input: string, env: Record<string, string>, ready: () => boolean): Promise<Result> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdin.end(input);
      const kill = setTimeout(() => child.kill('SIGKILL'), 25_000);
      child.on('close', (status) => {
        clearTimeout(kill);
        resolve({ status, stdout, stderr });
      });
      child.on('error', reject);
      void waitFor(ready, 20_000).then(() => child.kill('SIGINT'));
    });
  }

  it('stops the run, the executable and its children', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    bashTool(dir, 'hangs', info('hangs'), `sleep 60 &\necho $! >> ${pids}\necho $$ >> ${pids}\nwait`);
    const result = await interrupt(['run', '-', '--tools-dir', dir], 'CALL hangs {}', {}, () => existsSync(pids) && readFileSync(pids, 'utf8').split('\n').length > 2);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/AbortedError: the run was cancelled: interrupted \(Ctrl-C\)/);
    for (const pid of await readPids(pids, 2)) expect(await waitFor(() => !isAlive(pid))).toBe(true);
  });

  it('stops the run and closes the MCP server', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const log = path.join(dir, 'log');
    const result = await interrupt(['run', '-', '--mcp', fixtureServer], 'CALL fixture_server.slow { ms: 60000 }', { FIXTURE_PID_FILE: pidFile, FIXTURE_LOG: log }, () =>
      existsSync(log) && readFileSync(log, 'utf8').includes('call slow'),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/AbortedError/);
    expect(await waitFor(() => !isAlive(Number(readFileSync(pidFile, 'utf8'))))).toBe(true);
  });

  it('while tools are loading, stops the probes and the MCP servers already started', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    writeTool(dir, 'slow_info', `#!/usr/bin/env bash\necho $$ >> ${pids}\nsleep 60\n`);
    const probe = await interrupt(['run', '-', '--tools-dir', dir], 'PRINT(1)', {}, () => existsSync(pids));
    expect(probe.status).toBe(2);
    expect(probe.stderr).toMatch(/interrupted \(Ctrl-C\) while loading tools/);
    const [probePid] = await readPids(pids, 1);
    expect(await waitFor(() => !isAlive(probePid!))).toBe(true);

    // a server that starts but never answers
    const silent = path.join(dir, 'silent.mjs');
    writeFileSync(silent, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(path.join(dir, 'server-pid'))}, String(process.pid));\nsetInterval(() => {}, 1000);\n`);
    const server = await interrupt(['run', '-', '--mcp', `node ${silent}`], 'PRINT(1)', {}, () => existsSync(path.join(dir, 'server-pid')));
    expect(server.status).toBe(2);
    expect(server.stderr).toMatch(/interrupted \(Ctrl-C\) while loading tools/);
    const serverPid = Number(readFileSync(path.join(dir, 'server-pid'), 'utf8'));
    expect(await waitFor(() => !isAlive(serverPid))).toBe(true);
  });
});
