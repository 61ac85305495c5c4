// Real DBOS worker and client processes for the tests of test/dbos (fixtures there): start a worker,
// wait for what it reports, kill it; run a one-shot client command; read a side-effect file.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerSettings } from '../dbos/fixtures/worker.js';
import type { NuwaWorkerSettings } from '../dbos/fixtures/nuwa-worker.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = path.join(root, 'test', 'dbos', 'fixtures');

/**
 * DBOS's pool sets idle_in_transaction_session_timeout on each new connection with a query that
 * pg 8.16+ reports as a DeprecationWarning; giving the setting in the connection string instead
 * makes DBOS skip its own (DBOSConfig.systemDatabaseIdleTransactionTimeoutMs).
 */
export function dbosUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', '-c idle_in_transaction_session_timeout=60000');
  return url.toString();
}

export interface WorkerEvent {
  type: string;
  at: number;
  executorId?: string;
  workflowIds?: string[];
  [key: string]: unknown;
}

export interface Worker {
  executorId: string;
  child: ChildProcess;
  events: WorkerEvent[];
  stderr(): string;
  /** The first event (already seen or to come) that `matches`; rejects if the worker exits first. */
  waitFor(matches: (event: WorkerEvent) => boolean, timeoutMs?: number): Promise<WorkerEvent>;
  /** Resolves to the exit status or signal once the process is gone. */
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a worker process and waits until it is ready: a fixture of test/dbos/fixtures (`worker.ts`,
 * or `nuwa-worker.ts` for Nuwa runs), or another program given by its path from the repository.
 */
export async function startWorker(settings: WorkerSettings | NuwaWorkerSettings, fixture: string = 'worker.ts'): Promise<Worker> {
  const program = fixture.includes('/') ? path.join(root, fixture) : path.join(fixtures, fixture);
  const child = spawn(process.execPath, ['--import', 'tsx', program], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NUWA_DBOS_WORKER: JSON.stringify(settings) },
  });
  const events: WorkerEvent[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as WorkerEvent);
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (status, signal) => {
      resolve({ status, signal });
      for (const wake of waiters) wake();
    });
  });
  const worker: Worker = {
    executorId: settings.executorId,
    child,
    events,
    stderr: () => stderr,
    exited,
    waitFor(matches, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(matches);
          if (found) return done(() => resolve(found));
          if (child.exitCode !== null || child.signalCode !== null) {
            return done(() => reject(new Error(`worker ${settings.executorId} exited (${child.exitCode ?? child.signalCode}) before the event; stderr:\n${stderr}`)));
          }
        };
        const timer = setTimeout(() => done(() => reject(new Error(`worker ${settings.executorId}: no such event within ${timeoutMs} ms; events: ${JSON.stringify(events)}; stderr:\n${stderr}`))), timeoutMs);
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
  await worker.waitFor((event) => event.type === 'ready', 25_000);
  return worker;
}

/** Stops workers that are still running (SIGKILL: a test's workers need no clean shutdown). */
export async function killAll(workers: Worker[]): Promise<void> {
  await Promise.all(
    workers.map(async (worker) => {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
    }),
  );
}

export interface ClientAnswer {
  found?: unknown;
  error?: string;
  message?: string;
  launched: boolean;
}

/** Runs one command of fixtures/client.ts, a process that never launches DBOS. */
export function clientCommand(url: string, application: string, args: string[]): Promise<ClientAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(fixtures, 'client.ts'), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NUWA_DBOS_URL: url, NUWA_DBOS_APP: application },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop();
      if (status !== 0 || !line) reject(new Error(`client ${args.join(' ')} failed (${status}):\n${stdout}\n${stderr}`));
      else resolve(JSON.parse(line) as ClientAnswer);
    });
  });
}

export interface SideEffect {
  what: string;
  workflowId: string;
  step: string;
  executorId: string;
  at: number;
}

/** The lines the workflows' tool calls appended to `file`. */
export function sideEffects(file: string): SideEffect[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [what, workflowId, step, executorId, at] = line.split(' ');
      return { what: what!, workflowId: workflowId!, step: step!, executorId: executorId!, at: Number(at) };
    });
}

/** How many times each `done` line (workflow and step) appears: every completed call, counted. */
export function completedCalls(file: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const effect of sideEffects(file)) {
    if (effect.what !== 'done') continue;
    const key = `${effect.workflowId} ${effect.step}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
