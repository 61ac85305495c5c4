// A run as a DBOS workflow on a real Postgres: its id chosen by the caller, its tool calls DBOS steps,
// enqueued from this process (which never launches DBOS) on a queue with a concurrency limit, served
// by a worker process, and read (status, result) from a third process. Then decisions: a run that
// waits in DBOS.recv for an approval sent from another process, the timeout path, a decision sent
// before the wait, and a decision for a run that does not exist.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sendDecision } from '../../src/dbos/index.js';
import { clientCommand, completedCalls, dbosUrl, killAll, sideEffects, startWorker, type Worker } from '../support/dbos.js';
import { createDatabase } from '../support/postgres.js';
import { tempDir } from '../support/processes.js';
import type { ApprovalRunInput, ToolRunInput } from './fixtures/worker.js';

const application = 'nuwa-queue-test';
let url: string;
let client: DBOSClient;
let worker: Worker;
let dir: string;

beforeAll(async () => {
  url = dbosUrl(await createDatabase(inject('postgres').url, 'dbos_queue'));
  // The system database is created and migrated once, before any worker launches (see the notes).
  await DBOS.migrate(url);
  dir = tempDir('nuwa-dbos-');
  worker = await startWorker({
    url,
    application,
    executorId: 'queue-worker',
    queues: [{ name: 'runs', concurrency: 2 }],
    heartbeatMs: 500,
    takeoverAfterMs: 5_000,
  });
  client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: application });
});

afterAll(async () => {
  await client?.destroy();
  await killAll(worker ? [worker] : []);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function enqueueToolRun(workflowID: string, input: ToolRunInput) {
  return client.enqueue<(input: ToolRunInput) => Promise<{ results: number[]; finishedBy: string }>>({ queueName: 'runs', workflowName: 'toolRun', workflowID }, input);
}

describe('a run as a DBOS workflow, enqueued by a client', () => {
  it('runs under the id the caller chose, each call once, at most two at a time; another process reads status and result', async () => {
    const file = path.join(dir, 'queue.log');
    const ids = [1, 2, 3, 4].map((n) => `run-${n}-${randomUUID()}`);
    const handles = await Promise.all(ids.map((id) => enqueueToolRun(id, { file, steps: 3, stepMs: 150 })));
    expect(handles.map((handle) => handle.workflowID)).toEqual(ids);
    const results = await Promise.all(handles.map((handle) => handle.getResult({ pollingIntervalMs: 50 })));
    expect(results).toEqual(ids.map(() => ({ results: [1, 4, 9], finishedBy: 'queue-worker' })));
    const status = await clientCommand(url, application, ['status', ids[0]!]);
    expect(status).toEqual({ found: { status: 'SUCCESS', queueName: 'runs', executorId: 'queue-worker' }, launched: false });
    const result = await clientCommand(url, application, ['result', ids[0]!]);
    expect(result).toEqual({ found: { results: [1, 4, 9], finishedBy: 'queue-worker' }, launched: false });

    // Every call made exactly once.
    const counts = completedCalls(file);
    expect(counts.size).toBe(12);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    // The queue's limit held, and was reached: from each run's first call to its last, at most two
    // runs overlap, and two did.
    const spans = ids.map((id) => {
      const times = sideEffects(file).filter((effect) => effect.workflowId === id).map((effect) => effect.at);
      return { from: Math.min(...times), to: Math.max(...times) };
    });
    const overlapping = spans.map((span) => spans.filter((other) => other.from <= span.from && span.from <= other.to).length);
    expect(Math.max(...overlapping)).toBe(2);
  });

  it('a second enqueue under the same id does not start a second run', async () => {
    const file = path.join(dir, 'same-id.log');
    const id = `run-same-${randomUUID()}`;
    const first = await enqueueToolRun(id, { file, steps: 2, stepMs: 0 });
    const second = await enqueueToolRun(id, { file, steps: 2, stepMs: 0 });
    expect(await first.getResult({ pollingIntervalMs: 50 })).toEqual({ results: [1, 4], finishedBy: 'queue-worker' });
    expect(await second.getResult({ pollingIntervalMs: 50 })).toEqual({ results: [1, 4], finishedBy: 'queue-worker' });
    expect([...completedCalls(file).values()]).toEqual([1, 1]);
  });
});

describe('decisions through DBOS.recv and send', () => {
  function enqueueApprovalRun(workflowID: string, input: ApprovalRunInput) {
    return client.enqueue<(input: ApprovalRunInput) => Promise<{ outcome: string }>>({ queueName: 'runs', workflowName: 'approvalRun', workflowID }, input);
  }

  it('a run waits for the approval that another process sends, then makes the call', async () => {
    const file = path.join(dir, 'approve.log');
    const id = `approve-${randomUUID()}`;
    const handle = await enqueueApprovalRun(id, { file, callId: '3:9', timeoutMs: 20_000 });
    // The run announces its wait; until a decision comes, it neither ends nor makes the call. (The
    // client polls for events every 10 s unless told otherwise.)
    expect(await client.getEvent(id, 'waiting', { timeoutSeconds: 15, pollingIntervalMs: 50 })).toBe('3:9');
    // Read from a process that never launched DBOS.
    expect(await clientCommand(url, application, ['status', id])).toEqual({ found: { status: 'PENDING', queueName: 'runs', executorId: 'queue-worker' }, launched: false });
    expect(sideEffects(file).map((effect) => effect.step)).toEqual(['prepare']);

    const sent = await clientCommand(url, application, ['decide', id, '3:9', 'true']);
    expect(sent).toEqual({ found: 'sent', launched: false });
    expect(await handle.getResult({ pollingIntervalMs: 50 })).toEqual({ outcome: 'approved' });
    expect(sideEffects(file).map((effect) => effect.step)).toEqual(['prepare', 'pay']);
  });

  it('a denial ends the wait without the call, and a second decision for the same call is not the one received', async () => {
    const file = path.join(dir, 'deny.log');
    const id = `deny-${randomUUID()}`;
    const handle = await enqueueApprovalRun(id, { file, callId: '5:1', timeoutMs: 20_000 });
    // Sent before the run reaches its wait: the message is kept until it does.
    await sendDecision(client, id, '5:1', false);
    await sendDecision(client, id, '5:1', true);
    expect(await handle.getResult({ pollingIntervalMs: 50 })).toEqual({ outcome: 'denied' });
    expect(sideEffects(file).map((effect) => effect.step)).toEqual(['prepare']);
  });

  it('with no decision, the wait ends at its timeout and the call is not made', async () => {
    const file = path.join(dir, 'timeout.log');
    const id = `timeout-${randomUUID()}`;
    const handle = await enqueueApprovalRun(id, { file, callId: '7:3', timeoutMs: 500 });
    expect(await handle.getResult({ pollingIntervalMs: 50 })).toEqual({ outcome: 'timed out' });
    expect(sideEffects(file).map((effect) => effect.step)).toEqual(['prepare']);
  });

  it('a decision for a run that does not exist is refused', async () => {
    const answer = await clientCommand(url, application, ['decide', `no-such-run-${randomUUID()}`, '1:1', 'true']);
    expect(answer).toMatchObject({ message: expect.stringMatching(/non-existent destination workflow/), launched: false });
  });
});
