// Durable runs with real processes (DURABLE.md §3, §5): a `nuwa run --durable` killed with SIGKILL in
// the middle of a read and of a write, then finished by `nuwa runs recover` in a new process. Every
// call leaves a line in a file, so the test counts what really happened: a read in progress is made
// again, a write in progress is not (the run waits for a person), and a finished call never twice.
// And the terminal flow: paused (exit 3), approved from another process, finished there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir, waitFor } from '../support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'test', 'e2e', 'fixtures', 'tools-durable.mjs');

const PLAN = ['LET a = CALL lookup { n: 1 }', 'LET b = CALL lookup { n: 2 }', 'LET c = CALL charge { n: 3 }', 'LET d = CALL lookup { n: 4 }', 'PRINT(a + b + c + d)'].join('\n');

function workspace() {
  const dir = tempDir('nuwa-durable-');
  writeFileSync(path.join(dir, 'plan.nuwa'), PLAN);
  const effects = path.join(dir, 'effects.log');
  writeFileSync(effects, '');
  const env = { ...process.env, NO_COLOR: '1', NUWA_TEST_EFFECTS: effects };
  const nuwa = (args: string[], extraEnv: Record<string, string> = {}) => {
    const child = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...env, ...extraEnv }, encoding: 'utf8', input: '', timeout: 30_000 });
    return { status: child.status, stdout: child.stdout, stderr: child.stderr };
  };
  const lines = () => readFileSync(effects, 'utf8').split('\n').filter(Boolean);
  /** Starts a durable run that holds at `hold`, waits until that call is under way, and kills it. */
  const killDuring = async (hold: string, runId: string) => {
    const child = spawn(process.execPath, [bin, 'run', 'plan.nuwa', '--tools', tools, '--durable', '--yes', '--run-id', runId], {
      cwd: dir,
      env: { ...env, NUWA_TEST_HOLD: hold },
      stdio: 'ignore',
    });
    const [name, n] = hold.split(':');
    expect(await waitFor(() => lines().includes(`${name} ${n}`))).toBe(true);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  return { dir, nuwa, lines, killDuring };
}

describe('a durable run killed in the middle of a call, recovered by another process', () => {
  it('during a read: the read is made again, nothing before it is, and the run completes', async () => {
    const { nuwa, lines, killDuring, dir } = workspace();
    await killDuring('lookup:2', 'read-crash');
    expect(lines()).toEqual(['lookup 1', 'lookup 2']);
    expect(existsSync(path.join(dir, '.nuwa', 'runs', 'read-crash.lock'))).toBe(true); // the dead process's lease
    const recovered = nuwa(['runs', 'recover', 'read-crash', '--yes']);
    expect(recovered.stderr).toBe('');
    expect(recovered.stdout).toBe('100\n');
    expect(recovered.status).toBe(0);
    expect(lines()).toEqual(['lookup 1', 'lookup 2', 'lookup 2', 'charge 3', 'lookup 4']);
    expect(nuwa(['runs', 'list']).stdout).toMatch(/^read-crash {2}completed /);
  });

  it('during a write: the write is not made again; the run waits for a person, who decides', async () => {
    const { nuwa, lines, killDuring } = workspace();
    await killDuring('charge:3', 'write-crash');
    expect(lines()).toEqual(['lookup 1', 'lookup 2', 'charge 3']);
    const recovered = nuwa(['runs', 'recover', 'write-crash', '--yes']);
    expect(recovered.status).toBe(3);
    expect(recovered.stderr).toBe('paused: run write-crash waits for a decision on whether charge ran (the process died during it) at plan.nuwa:3:9; approve with: nuwa runs approve write-crash\n');
    expect(lines()).toEqual(['lookup 1', 'lookup 2', 'charge 3']);
    // The person checked: the card was not charged. Approving makes the call (once).
    const approved = nuwa(['runs', 'approve', 'write-crash']);
    expect(approved.stdout).toBe('100\n');
    expect(approved.status).toBe(0);
    expect(lines()).toEqual(['lookup 1', 'lookup 2', 'charge 3', 'charge 3', 'lookup 4']);
  });

  it('during a write, denied: the script fails there and nothing more runs', async () => {
    const { nuwa, lines, killDuring } = workspace();
    await killDuring('charge:3', 'denied');
    expect(nuwa(['runs', 'recover', 'denied']).status).toBe(3);
    const denied = nuwa(['runs', 'deny', 'denied']);
    expect(denied.status).toBe(1);
    expect(denied.stderr).toMatch(/^plan\.nuwa:3:9: ToolDeniedError: the call to `charge` \(a write action\) was denied: it was not repeated/);
    expect(lines()).toEqual(['lookup 1', 'lookup 2', 'charge 3']);
  });
});

describe('approve later, from the terminal', () => {
  it('a run without a terminal pauses at the write (exit 3); `nuwa runs approve` in another process finishes it', () => {
    const { nuwa, lines } = workspace();
    const first = nuwa(['run', 'plan.nuwa', '--tools', tools, '--durable', '--run-id', 'later']);
    expect(first.status).toBe(3);
    expect(first.stdout).toBe('');
    expect(first.stderr).toBe('paused: run later waits for approval of charge at plan.nuwa:3:9; approve with: nuwa runs approve later\n');
    expect(nuwa(['runs', 'list', '--status', 'paused']).stdout).toMatch(/^later {2}paused .*waits for approval of charge \{"n":3\} \[3:9\]\n$/);
    const shown = nuwa(['runs', 'show', 'later']);
    expect(shown.stdout).toContain('waits at 3:9 (line 3): approval of charge {"n":3} [3:9]');
    expect(shown.stdout).toContain('  2:9  lookup {"n":2} → 20');
    // The tools it was started with are loaded again without being named.
    const approved = nuwa(['runs', 'approve', 'later']);
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toBe('100\n');
    expect(approved.status).toBe(0);
    expect(lines()).toEqual(['lookup 1', 'lookup 2', 'charge 3', 'lookup 4']);
    expect(nuwa(['runs', 'approve', 'later']).status).toBe(2);
  });

  it('--no-resume records a decision; resume applies it; rm forgets the run; --json reports a pause', () => {
    const { nuwa, lines } = workspace();
    const paused = nuwa(['run', 'plan.nuwa', '--tools', tools, '--durable', '--run-id', 'j', '--json']);
    expect(paused.status).toBe(3);
    expect(JSON.parse(paused.stdout)).toMatchObject({ ok: false, paused: true, runId: 'j', pending: [{ callId: '3:9', kind: 'approval', toolName: 'charge' }] });
    expect(nuwa(['runs', 'deny', 'j', '3:9', '--no-resume']).status).toBe(0);
    const shown = nuwa(['runs', 'show', 'j', '--json']).stdout;
    expect(JSON.parse(shown)).toMatchObject({ status: 'paused', decisions: { '3:9': false } });
    expect(shown).toMatch(/"durationMs":\d+(\.\d)?\}/); // to a tenth of a millisecond (src/util/elapsed.ts)
    expect(paused.stdout).toMatch(/"durationMs":\d+(\.\d)?\}/);
    expect(nuwa(['runs', 'resume', 'j']).status).toBe(1);
    expect(lines()).toEqual(['lookup 1', 'lookup 2']);
    expect(nuwa(['runs', 'rm', 'j']).status).toBe(0);
    expect(nuwa(['runs', 'list', '--json']).stdout).toBe('[]\n');
  });
});
