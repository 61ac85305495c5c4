// The walkthrough of docs/postgres.md ("Two workers and an inbox"), step by step as a reader does it,
// with the example programs as they are (examples/dbos/worker.mjs and inbox.mjs, importing the built
// package): two workers, a run that waits for approval, the worker holding it stopped with Ctrl-C
// (SIGINT), the approval sent from the inbox, and the run finished by the worker still alive.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, expect, inject, it } from 'vitest';
import { databaseUrl } from '../support/postgres.js';
import { root } from '../support/snippets.js';

interface Program {
  child: ChildProcess;
  lines: string[];
  /** The first line (seen or to come) that matches; rejects if the program exits first. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

const started: Program[] = [];
let env: NodeJS.ProcessEnv;

afterAll(async () => {
  for (const program of started) if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill('SIGKILL');
  await Promise.all(started.map((program) => program.exited));
});

function worker(): Program {
  const child = spawn(process.execPath, ['examples/dbos/worker.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (status) => {
      resolve(status);
      for (const wake of waiters) wake();
    }),
  );
  const program: Program = {
    child,
    lines,
    exited,
    line(pattern, timeoutMs = 25_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(() => reject(new Error(`no line ${pattern} within ${timeoutMs} ms: ${JSON.stringify(lines)}\n${stderr}`))), timeoutMs);
        const check = () => {
          const found = lines.find((line) => pattern.test(line));
          if (found !== undefined) done(() => resolve(found));
          else if (child.exitCode !== null || child.signalCode !== null) done(() => reject(new Error(`the worker exited: ${JSON.stringify(lines)}\n${stderr}`)));
        };
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
  started.push(program);
  return program;
}

/** One inbox command: what it prints (stdout and stderr), and its status. */
function inbox(...args: string[]): { output: string; status: number | null } {
  const result = spawnSync(process.execPath, ['examples/dbos/inbox.mjs', ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  return { output: result.stdout + result.stderr.replace(/^.*DeprecationWarning.*\n|^\(Use `node --trace-deprecation.*\n/gm, ''), status: result.status };
}

it('two workers, a run that waits for approval, its worker stopped, approved from the inbox: it finishes on the other', async () => {
  env = { ...process.env, NUWA_DBOS_URL: databaseUrl(inject('postgres').url, 'nuwa_walkthrough'), NUWA_TAKEOVER_AFTER_MS: '3000' };
  // The first worker makes the system database; then the second.
  const first = worker();
  const firstId = /^worker (\S+) ready$/.exec(await first.line(/ ready$/))![1]!;
  const second = worker();
  const secondId = /^worker (\S+) ready$/.exec(await second.line(/ ready$/))![1]!;

  expect(inbox('start', 'examples/take-profit.nuwa', 'sell-aapl')).toEqual({ output: 'queued sell-aapl\n', status: 0 });
  let listed = '';
  for (const until = Date.now() + 20_000; Date.now() < until && !listed.includes('paused'); ) listed = inbox().output;
  const holder = /^sell-aapl {2}paused {5}on (\S+), waits at 5:15: approval of place_order \{"symbol":"AAPL","side":"sell","quantity":10\}$/m.exec(listed)?.[1];
  expect(holder, listed).toBeDefined();
  const [stopped, alive, aliveId] = holder === firstId ? [first, second, secondId] : [second, first, firstId];

  // Ctrl-C on the worker that holds the run; the approval goes to the run all the same.
  stopped.child.kill('SIGINT');
  expect(await stopped.exited).toBe(0);
  expect(inbox('approve', 'sell-aapl')).toEqual({ output: `sell-aapl  completed  on ${aliveId}: sold 10 AAPL at 189.84\n`, status: 0 });
  expect(await alive.line(/^took over/)).toBe(`took over 1 run(s) of ${holder}, which stopped`);
  expect(await alive.line(/^sell-aapl \|/)).toBe('sell-aapl | sold 10 AAPL at 189.84');
  expect(inbox()).toEqual({ output: `sell-aapl  completed  on ${aliveId}: sold 10 AAPL at 189.84\n`, status: 0 });
  expect(inbox('approve', 'sell-aapl')).toEqual({ output: 'inbox: run sell-aapl waits for no approval (completed)\n', status: 1 });
});
