// Nuwa runs as DBOS workflows (nuwaDbos, DURABLE.md §6), on a real Postgres with a real worker
// process: this test process is the other side, a process that never launches DBOS and only enqueues,
// decides and reads runs through the helpers. A run completes as interpreter.run would; a write waits
// for a decision sent from this process (approved: made once; denied: ToolDeniedError; none in time:
// denied); a tool's question is answered through decide; the statuses a run goes through (`running`
// is seen in nuwa-takeover.test.ts, where a worker hangs in a call).
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nuwaDbos, type DbosRunStatus, type NuwaDbos } from '../../src/dbos/index.js';
import { Interpreter, NuwaError, ToolRegistry } from '../../src/index.js';
import { dbosUrl, killAll, sideEffects, startWorker, type Worker } from '../support/dbos.js';
import { createDatabase } from '../support/postgres.js';
import { tempDir } from '../support/processes.js';
import { thrownBy } from '../support/thrown.js';

const application = 'nuwa-runs-test';
let url: string;
let dir: string;
let file: string;
let workers: Worker[] = [];
let nuwa: NuwaDbos;
/** The runs of a second worker, whose calls wait half a second for a decision. */
let quickRuns: NuwaDbos;

beforeAll(async () => {
  url = dbosUrl(await createDatabase(inject('postgres').url, 'dbos_nuwa'));
  await DBOS.migrate(url);
  dir = tempDir('nuwa-dbos-runs-');
  file = path.join(dir, 'calls.log');
  const takeover = { heartbeatMs: 500, takeoverAfterMs: 5_000 };
  workers = await Promise.all([
    startWorker({ url, application, executorId: 'runs-worker', queue: { name: 'nuwa-runs', concurrency: 4 }, ...takeover, decisionTimeoutMs: 20_000, file }, 'nuwa-worker.ts'),
    startWorker({ url, application: 'nuwa-timeout-test', executorId: 'timeout-worker', queue: { name: 'nuwa-timeout', concurrency: 2 }, ...takeover, decisionTimeoutMs: 500, file }, 'nuwa-worker.ts'),
  ]);
  // This process only enqueues, decides and reads: no createInterpreter, and DBOS never launched.
  nuwa = nuwaDbos({ queue: { name: 'nuwa-runs' }, systemDatabaseUrl: url, application, pollingIntervalMs: 50 });
  quickRuns = nuwaDbos({ queue: { name: 'nuwa-timeout' }, systemDatabaseUrl: url, application: 'nuwa-timeout-test', pollingIntervalMs: 50 });
});

afterAll(async () => {
  await nuwa?.close();
  await quickRuns?.close();
  await killAll(workers);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The run's status once `ready` says so (runs move on their own in the worker). */
async function statusWhen(runId: string, ready: (status: DbosRunStatus | undefined) => boolean): Promise<DbosRunStatus> {
  let last: DbosRunStatus | undefined;
  for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (ready((last = await nuwa.status(runId)))) return last!;
  }
  throw new Error(`run ${runId}: status still ${JSON.stringify(last)}`);
}

const calls = (runId: string) => sideEffects(file).filter((effect) => effect.workflowId === runId && effect.what === 'done').map((effect) => effect.step);

/** The worker's tools, without side effects: what interpreter.run gives in one process. */
function localInterpreter(): Interpreter {
  const registry = new ToolRegistry();
  registry.register({ name: 'read_item', description: 'Reads an item', parameters: [{ name: 'id', description: 'Item', type: 'number' }], returns: 'object', confirm: 'read', execute: ({ id }) => ({ id, name: `item ${String(id)}` }) });
  return new Interpreter(registry);
}

describe('a run on DBOS', () => {
  it('completes with the output and variables that interpreter.run gives, each call made once', async () => {
    const source = 'LET names = []\nFOR id IN ids DO\n  LET item = CALL read_item { id: id }\n  PRINT(item.name)\n  LET names = APPEND(names, item.name)\nEND\nLET count = LEN(names)';
    const variables = { ids: [1, 2, 3] };
    const runId = await nuwa.enqueue(source, { runId: `same-${randomUUID()}`, variables });
    const outcome = await nuwa.result(runId);
    const local = await localInterpreter().run(source, { variables });
    expect(outcome.status === 'failed' ? outcome.error.message : outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(outcome.result.output).toEqual(local.output);
    expect(outcome.result.variables).toEqual(local.variables);
    expect(outcome.worker).toBe('runs-worker');
    expect(outcome.checkpoint).toMatchObject({ version: 1, runId, status: 'completed', source, variables, pending: [] });
    expect(outcome.checkpoint.log.map((call) => call.callId)).toEqual(['3:14/0', '3:14/1', '3:14/2']);
    expect(calls(runId)).toEqual(['read_item:1', 'read_item:2', 'read_item:3']);
    expect(await nuwa.status(runId)).toMatchObject({ status: 'completed', runId, result: { output: local.output } });
  });

  it('a script error ends the run failed, with the NuwaError and its position', async () => {
    const runId = await nuwa.enqueue('LET item = CALL read_item { id: 1 }\nPRINT(item.price + 1)');
    const outcome = await nuwa.result(runId);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error).toBeInstanceOf(NuwaError);
    expect(outcome.error).toMatchObject({ kind: 'MemberAccessError', line: 2 });
    expect(outcome.checkpoint.log.map((call) => call.toolName)).toEqual(['read_item']);
  });

  it('a write waits for approval sent from another process, shows as paused, and is made once approved', async () => {
    const source = 'LET item = CALL read_item { id: 10 }\nLET saved = CALL write_item { id: 10, value: item.name }\nPRINT(saved.written)';
    const runId = await nuwa.enqueue(source, { runId: `approve-${randomUUID()}` });
    const paused = await statusWhen(runId, (status) => status?.status === 'paused');
    expect(paused).toMatchObject({ status: 'paused', runId, worker: 'runs-worker', pending: [{ callId: '2:13', kind: 'approval', toolName: 'write_item', confirm: 'write', args: { id: 10, value: 'item 10' }, line: 2, column: 13 }] });
    expect(calls(runId)).toEqual(['read_item:10']);

    await nuwa.decide(runId, '2:13', true);
    const outcome = await nuwa.result(runId);
    expect(outcome).toMatchObject({ status: 'completed', result: { output: ['item 10'] } });
    // Each call once: the read was not made again when the run went on after the decision.
    expect(calls(runId)).toEqual(['read_item:10', 'write_item:10']);
  });

  it('a denied write fails the run with ToolDeniedError and is not made', async () => {
    const runId = await nuwa.enqueue('LET saved = CALL write_item { id: 11, value: "x" }', { runId: `deny-${randomUUID()}` });
    await statusWhen(runId, (status) => status?.status === 'paused');
    await nuwa.decide(runId, '1:13', false);
    const outcome = await nuwa.result(runId);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error.kind).toBe('ToolDeniedError');
    expect(outcome.error.message).toMatch(/denied/);
    expect(calls(runId)).toEqual([]);
  });

  it("a tool's question is answered through decide", async () => {
    const runId = await nuwa.enqueue('LET answer = CALL confirm_with_user { question: "Go on?" }\nPRINT(answer)', { runId: `ask-${randomUUID()}` });
    const paused = await statusWhen(runId, (status) => status?.status === 'paused');
    expect(paused).toMatchObject({ pending: [{ callId: '1:14>0', kind: 'question', question: 'Go on?', choices: ['yes', 'no'] }] });
    // Refused before anything is sent: an answer of the wrong kind, or not one of the choices.
    await expect(nuwa.decide(runId, '1:14>0', true)).rejects.toThrow(/waits for an answer: give it as \{ answer: "..." \}/);
    await expect(nuwa.decide(runId, '1:14>0', { answer: 'maybe' })).rejects.toThrow(/not one of the choices/);
    await nuwa.decide(runId, '1:14>0', { answer: 'yes' });
    expect(await nuwa.result(runId)).toMatchObject({ status: 'completed', result: { output: ['yes'], variables: { answer: 'yes' } } });
    expect(calls(runId)).toEqual(['confirm_with_user:yes']);
  });

  it('decide refuses a run that does not wait at that call, and one that does not exist', async () => {
    const runId = await nuwa.enqueue('LET saved = CALL write_item { id: 12, value: "x" }', { runId: `refuse-${randomUUID()}` });
    await statusWhen(runId, (status) => status?.status === 'paused');
    const wrongCall = await nuwa.decide(runId, '9:9', true).catch((error: unknown) => error);
    expect(wrongCall).toMatchObject({ kind: 'TypeError', message: `decide: run ${runId} does not wait at call 9:9 (it waits at 1:13)` });
    await expect(nuwa.decide(`none-${randomUUID()}`, '1:1', true)).rejects.toThrow(/there is no run/);
    await nuwa.decide(runId, '1:13', false);
    await nuwa.result(runId);
    await expect(nuwa.decide(runId, '1:13', true)).rejects.toThrow(/does not wait at call 1:13 \(it is failed\)/);
  });

  it('a status goes queued (the queue full), paused, completed; the inbox lists runs by status; an unknown run has none', async () => {
    // The queue runs four at once: four runs that wait keep a fifth queued.
    const blockers = await Promise.all([1, 2, 3, 4].map((n) => nuwa.enqueue(`LET w = CALL write_item { id: ${100 + n}, value: "b" }`, { runId: `block-${n}-${randomUUID()}` })));
    await Promise.all(blockers.map((runId) => statusWhen(runId, (status) => status?.status === 'paused')));
    const runId = await nuwa.enqueue('LET item = CALL read_item { id: 20 }\nLET w = CALL write_item { id: 20, value: item.name }', { runId: `status-${randomUUID()}` });
    expect(await nuwa.status(runId)).toEqual({ status: 'queued', runId });
    expect((await nuwa.list({ status: 'queued' })).map((run) => run.runId)).toContain(runId);
    for (const blocker of blockers) await nuwa.decide(blocker, '1:9', false);
    await statusWhen(runId, (status) => status?.status === 'paused');
    expect((await nuwa.list({ status: 'paused' })).map((run) => run.runId)).toEqual([runId]);
    await nuwa.decide(runId, '2:9', true);
    const ended = await statusWhen(runId, (status) => status?.status !== 'paused' && status?.status !== 'running');
    expect(ended).toMatchObject({ status: 'completed', worker: 'runs-worker' });
    expect(await nuwa.status(`none-${randomUUID()}`)).toBeUndefined();
  });
});

describe('decisions that do not come', () => {
  it('a write with no decision in time is denied, and a question with no answer fails', async () => {
    const runId = await quickRuns.enqueue('LET saved = CALL write_item { id: 30, value: "x" }', { runId: `timeout-${randomUUID()}` });
    const outcome = await quickRuns.result(runId);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error.kind).toBe('ToolDeniedError');
    expect(outcome.error.message).toBe('the call to `write_item` (a write action) was denied: no decision came within 500 ms (decisionTimeoutMs)');
    expect(calls(runId)).toEqual([]);

    const asked = await quickRuns.enqueue('LET answer = CALL confirm_with_user { question: "Anyone?" }', { runId: `unanswered-${randomUUID()}` });
    const unanswered = await quickRuns.result(asked);
    expect(unanswered).toMatchObject({ status: 'failed', error: { kind: 'ToolExecutionError', message: expect.stringContaining('context.ask: no decision came within 500 ms (decisionTimeoutMs)') } });
  });
});

describe('options', () => {
  it.each([
    [{ queue: { name: 'q' }, systemDatabaseUrl: '' }, /systemDatabaseUrl must be the DBOS system database/],
    [{ queue: { name: '' }, systemDatabaseUrl: 'postgres://x' }, /queue.name must be a non-empty string/],
    [{ createInterpreter: () => new Interpreter(), queue: { name: 'q' }, systemDatabaseUrl: 'postgres://x' }, /queue.concurrency \(how many runs at once, across all workers\) must be a positive whole number, not undefined/],
    [{ queue: { name: 'q' }, systemDatabaseUrl: 'postgres://x', decisionTimeoutMs: -1 }, /decisionTimeoutMs must be a positive number/],
    [{ queue: { name: 'q' }, systemDatabaseUrl: 'postgres://x', colour: 'red' }, /unknown option `colour`/],
  ])('%j is refused with a TypeError', (options, message) => {
    const error = thrownBy(() => nuwaDbos(options as never), NuwaError);
    expect(error.kind).toBe('TypeError');
    expect(error.message).toMatch(message);
  });

  it('a process registers the workflow once: a second worker set-up is refused', () => {
    const worker = { createInterpreter: () => new Interpreter(), queue: { name: 'once', concurrency: 1 }, systemDatabaseUrl: url, takeover: false as const };
    nuwaDbos(worker); // this process never launches DBOS: the registration stays unused
    expect(thrownBy(() => nuwaDbos(worker), NuwaError).message).toBe('nuwaDbos(...) was already called in this process: call it once, and share what it returns');
  });

  it('enqueue refuses bad input before anything reaches the database', async () => {
    await expect(nuwa.enqueue(42 as never)).rejects.toThrow(/the source must be script text/);
    await expect(nuwa.enqueue('PRINT(1)', { runId: '../x' })).rejects.toThrow(/runId must be/);
    await expect(nuwa.enqueue('PRINT(1)', { variables: { f: () => 1 } as never })).rejects.toThrow(/the initial variables are not JSON/);
    await expect(nuwa.enqueue('PRINT(1)', { priority: 1 } as never)).rejects.toThrow(/unknown option `priority`/);
  });
});

