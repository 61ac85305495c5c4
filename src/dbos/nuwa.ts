// nuwaDbos (DURABLE.md §6): Nuwa runs as DBOS Transact workflows on Postgres, shared by any number of
// worker processes through a DBOS queue. One call per process, before DBOS.launch(), registers the
// `nuwa.run` workflow (workflow.ts) and, at launch, the queue and the takeover of stopped workers
// (takeover.ts); what it returns starts runs, sends decisions and reads runs from any process,
// through DBOS's client (a process that only does that never launches DBOS).
import { randomUUID } from 'node:crypto';
import { DBOS, DBOSClient, Error as DBOSErrors } from '@dbos-inc/dbos-sdk';
import { NuwaError } from '../errors.js';
import { describeThrown } from '../util/foreign.js';
import type { Decision, PendingCall } from '../tools/journal.js';
import { initialVariables } from '../api/durable.js';
import { checkRunId } from '../api/store.js';
import type { Interpreter } from '../api/interpreter.js';
import { sendDecision } from './decisions.js';
import { logOf, readRecord } from './record.js';
import {
  asRunError,
  checkpointOf,
  emptyStats,
  isRunInput,
  isStoredOutcome,
  outcomeOf,
  WAITING_EVENT,
  WORKFLOW_NAME,
  type DbosRunOutcome,
  type DbosRunStatus,
  type RunInput,
  type Waiting,
} from './outcome.js';
import { StartedCalls } from './started-calls.js';
import { enableTakeover, type TakeoverOptions } from './takeover.js';
import { runScriptWorkflow } from './workflow.js';

export interface NuwaDbosOptions {
  /**
   * Makes the interpreter of each run (its tools, limits, hooks); called once each time a worker takes
   * a run up. Workers give it; a process that only starts, decides and reads runs leaves it out.
   */
  createInterpreter?: (run: { runId: string }) => Interpreter;
  /**
   * The DBOS queue runs go on: at most `concurrency` runs at once across all workers, and at most
   * `workerConcurrency` in one worker (default: no limit of its own, so the first worker to look
   * takes everything queued, up to `concurrency`). Workers look every `pollingIntervalMs` (default
   * 1,000). Only `name` counts in a process without `createInterpreter`.
   */
  queue: { name: string; concurrency?: number; workerConcurrency?: number; pollingIntervalMs?: number };
  /** How long a call waits for a decision before it is denied (a question: before it fails). Default 3,600,000 (an hour). */
  decisionTimeoutMs?: number;
  /** The DBOS system database, as given to DBOS.setConfig. */
  systemDatabaseUrl: string;
  /** The DBOS application (DBOS.setConfig's `name`) whose workers run the runs; the client acts for it. */
  application?: string;
  /**
   * Live workers take over the runs of a worker that stopped (takeover.ts): on by default, with its
   * heartbeat and delay (`takeoverAfterMs`, default 30,000). `false` leaves recovery to the host.
   */
  takeover?: false | Omit<TakeoverOptions, 'systemDatabaseUrl'>;
  /** How often `result()` looks whether a run has ended. Default 250 ms. */
  pollingIntervalMs?: number;
  /** Told of failures that change no run's outcome (a lost connection of an idle pool, say). Default: ignored. */
  onError?: (error: unknown) => void;
}

export interface EnqueueOptions {
  /** The run's id (default: a random UUID). An id already used names the run already there. */
  runId?: string;
  /** Initial top-level variables (JSON values). */
  variables?: Record<string, unknown>;
  /** Used in error positions. */
  fileName?: string;
}

/** A run as an inbox lists it. */
export type DbosRunSummary = DbosRunStatus & { createdAt: number };

export interface NuwaDbos {
  /** Puts a run of `source` on the queue; resolves to its run id. */
  enqueue(source: string, options?: EnqueueOptions): Promise<string>;
  /** Sends the decision for the call that run `runId` waits at: true or false for an approval, `{ answer }` for a question. */
  decide(runId: string, callId: string, decision: Decision): Promise<void>;
  /** Where the run stands; undefined when there is no such run. */
  status(runId: string): Promise<DbosRunStatus | undefined>;
  /** Waits for the run to end, and resolves to how it ended. */
  result(runId: string): Promise<DbosRunOutcome>;
  /** The runs, newest first: all, or those with one status. */
  list(options?: { status?: DbosRunStatus['status']; limit?: number }): Promise<DbosRunSummary[]>;
  /** Releases the client's connections (a worker's DBOS.shutdown() is the host's). */
  close(): Promise<void>;
}

const DEFAULT_DECISION_TIMEOUT_MS = 3_600_000;
const DEFAULT_POLLING_MS = 250;
const OPTIONS = ['createInterpreter', 'queue', 'decisionTimeoutMs', 'systemDatabaseUrl', 'application', 'takeover', 'pollingIntervalMs', 'onError'];

let registered = false;

/**
 * Returns the helpers that start, decide and read runs; with `createInterpreter`, also makes this
 * process a worker: registers the workflow that runs scripts, and at DBOS.launch() the queue and the
 * takeover of stopped workers. A worker calls it once, before DBOS.launch(); a process that only
 * enqueues and decides never launches DBOS.
 */
export function nuwaDbos(options: NuwaDbosOptions): NuwaDbos {
  const settings = readOptions(options);
  const helpers = new Helpers(settings, settings.pollingIntervalMs ?? DEFAULT_POLLING_MS);
  const { createInterpreter } = settings;
  if (createInterpreter === undefined) return helpers;
  if (registered) throw typeError('nuwaDbos(...) was already called in this process: call it once, and share what it returns');
  if (DBOS.isInitialized()) throw typeError('nuwaDbos(...) must be called before DBOS.launch(): DBOS registers workflows only before it launches');
  const onError = settings.onError ?? (() => undefined);
  const startedCalls = new StartedCalls(settings.systemDatabaseUrl, onError);
  const workflow = { createInterpreter, decisionTimeoutMs: settings.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS, startedCalls, onError };
  DBOS.registerWorkflow(async (input: RunInput) => runScriptWorkflow(workflow, input), { name: WORKFLOW_NAME });
  const { queue } = settings;
  DBOS.registerLifecycleCallback({
    // DBOS 5 registers queues only once launched.
    async initialize() {
      await DBOS.registerQueue(queue.name, {
        globalConcurrency: queue.concurrency!,
        ...(queue.workerConcurrency !== undefined && { workerConcurrency: queue.workerConcurrency }),
        ...(queue.pollingIntervalMs !== undefined && { minPollingIntervalMs: queue.pollingIntervalMs }),
      });
    },
  });
  if (settings.takeover !== false) enableTakeover({ ...settings.takeover, systemDatabaseUrl: settings.systemDatabaseUrl });
  registered = true;
  return helpers;
}

/** The helpers, on DBOS's client. */
class Helpers implements NuwaDbos {
  private clientPromise: Promise<DBOSClient> | undefined;

  constructor(
    private readonly settings: NuwaDbosOptions,
    private readonly pollingIntervalMs: number,
  ) {}

  async enqueue(source: string, options: EnqueueOptions = {}): Promise<string> {
    if (typeof source !== 'string') throw typeError('enqueue(source): the source must be script text');
    const { runId = randomUUID(), variables, fileName } = readEnqueueOptions(options);
    checkRunId(runId);
    const input: RunInput = { source, variables: initialVariables(variables, 'enqueue: '), ...(fileName !== undefined && { fileName }) };
    const client = await this.client();
    await client.enqueue({ queueName: this.settings.queue.name, workflowName: WORKFLOW_NAME, workflowID: runId }, input);
    return runId;
  }

  async decide(runId: string, callId: string, decision: Decision): Promise<void> {
    checkRunId(runId);
    if (typeof callId !== 'string' || callId === '') throw typeError('decide(runId, callId, decision): callId must be the id of the call the run waits at, such as "5:15"');
    const client = await this.client();
    const run = await this.read(client, runId);
    if (run === undefined) throw typeError(`decide: there is no run ${runId}`);
    const waiting = run.status === 'PENDING' ? await this.waiting(client, runId) : undefined;
    const index = waiting?.pending.findIndex((pending) => pending.callId === callId) ?? -1;
    if (waiting === undefined || index < 0) {
      const state = waiting !== undefined ? `it waits at ${waiting.pending.map((pending) => pending.callId).join(', ')}` : `it is ${(await this.status(runId))?.status ?? 'gone'}`;
      throw typeError(`decide: run ${runId} does not wait at call ${callId} (${state})`);
    }
    const pending = waiting.pending[index]!;
    await sendDecision(client, runId, callId, checkedDecision(runId, pending, decision), waiting.waits[index] ?? 0);
  }

  async status(runId: string): Promise<DbosRunStatus | undefined> {
    checkRunId(runId);
    const client = await this.client();
    const run = await this.read(client, runId);
    return run === undefined ? undefined : this.statusOf(client, run);
  }

  async result(runId: string): Promise<DbosRunOutcome> {
    checkRunId(runId);
    const client = await this.client();
    const run = await this.read(client, runId);
    if (run === undefined) throw typeError(`result: there is no run ${runId}`);
    try {
      const output = await client.retrieveWorkflow(runId).getResult({ pollingIntervalMs: this.pollingIntervalMs });
      if (isStoredOutcome(output)) return outcomeOf(runId, output);
    } catch {
      // ended otherwise (cancelled, or the workflow threw): told from its status and record below
    }
    const ended = await this.read(client, runId);
    return this.unusualEnd(client, runId, ended ?? run);
  }

  async list(options: { status?: DbosRunStatus['status']; limit?: number } = {}): Promise<DbosRunSummary[]> {
    const wanted = options.status;
    const statuses = wanted === undefined ? undefined : { queued: ['ENQUEUED', 'DELAYED'], running: ['PENDING'], paused: ['PENDING'], completed: ['SUCCESS'], failed: ['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'] }[wanted];
    if (wanted !== undefined && statuses === undefined) throw typeError('list: status must be queued, running, paused, completed or failed');
    const client = await this.client();
    const runs = await client.listWorkflows({ workflowName: WORKFLOW_NAME, ...(statuses && { status: statuses as never }), sortDesc: true, limit: options.limit ?? 100, loadInput: false, loadOutput: true });
    const summaries: DbosRunSummary[] = [];
    for (const run of runs) {
      const status = await this.statusOf(client, run);
      if (wanted === undefined || status.status === wanted) summaries.push({ ...status, createdAt: run.createdAt });
    }
    return summaries;
  }

  async close(): Promise<void> {
    const client = this.clientPromise;
    this.clientPromise = undefined;
    await (await client?.catch(() => undefined))?.destroy();
  }

  private client(): Promise<DBOSClient> {
    this.clientPromise ??= DBOSClient.create({
      systemDatabaseUrl: this.settings.systemDatabaseUrl,
      ...(this.settings.application !== undefined && { applicationName: this.settings.application }),
      systemDatabasePoolSize: 4,
      // The client holds no transaction open: no guard to set on each of its connections (setting it
      // races the first query, which pg reports as a DeprecationWarning).
      systemDatabaseIdleTransactionTimeoutMs: 0,
    }).catch((error: unknown) => {
      this.clientPromise = undefined;
      throw typeError(`nuwaDbos: cannot reach the DBOS system database: ${describeThrown(error)}`);
    });
    return this.clientPromise;
  }

  /** The run's workflow, if there is one and it is a Nuwa run. */
  private async read(client: DBOSClient, runId: string) {
    const run = await client.getWorkflow(runId);
    if (run === undefined) return undefined;
    if (run.workflowName !== WORKFLOW_NAME) throw typeError(`workflow ${runId} is not a Nuwa run (it is a ${run.workflowName} workflow)`);
    return run;
  }

  private async waiting(client: DBOSClient, runId: string): Promise<Waiting | undefined> {
    const waiting = await client.getEvent<Waiting | null>(runId, WAITING_EVENT, { timeoutSeconds: 0 });
    return waiting !== null && waiting !== undefined && Array.isArray(waiting.pending) && waiting.pending.length > 0 ? waiting : undefined;
  }

  private async statusOf(client: DBOSClient, run: WorkflowRow): Promise<DbosRunStatus> {
    const runId = run.workflowID;
    const worker = run.executorId;
    switch (run.status) {
      case 'ENQUEUED':
      case 'DELAYED':
        return { status: 'queued', runId };
      case 'PENDING': {
        const waiting = await this.waiting(client, runId);
        return waiting === undefined ? { status: 'running', runId, ...(worker && { worker }) } : { status: 'paused', runId, pending: waiting.pending as PendingCall[], ...(worker && { worker }) };
      }
      case 'SUCCESS':
        if (isStoredOutcome(run.output)) {
          const outcome = outcomeOf(runId, run.output);
          return outcome.status === 'completed' ? { status: 'completed', runId, result: outcome.result, worker: outcome.worker } : { status: 'failed', runId, error: outcome.error, worker: outcome.worker };
        }
        return { status: 'failed', runId, error: new NuwaError('TypeError', `run ${runId} ended without an outcome`) };
      default: {
        const { error } = await this.unusualEnd(client, runId, run);
        return { status: 'failed', runId, error: error ?? new NuwaError('AbortedError', `run ${runId} ended with DBOS status ${run.status}`), ...(worker && { worker }) };
      }
    }
  }

  /** A run whose workflow did not return an outcome: cancelled, or stopped by DBOS. Its checkpoint is its record so far. */
  private async unusualEnd(client: DBOSClient, runId: string, run: WorkflowRow): Promise<DbosRunOutcome & { status: 'failed' }> {
    const error =
      run.status === 'CANCELLED'
        ? new NuwaError('AbortedError', `run ${runId} was cancelled`)
        : run.status === 'SUCCESS'
          ? new NuwaError('TypeError', `run ${runId} ended without an outcome`)
          : asRunError(revived(run.error), `run ${runId} stopped (DBOS status ${run.status})`);
    const steps = (await client.listWorkflowSteps(runId)) ?? [];
    const record = readRecord(steps);
    const input = isRunInput(run.input?.[0]) ? run.input[0] : { source: '', variables: {} };
    const checkpoint = checkpointOf(runId, input, 'failed', { log: logOf(record), now: record.now, printed: 0, stats: emptyStats() });
    return { status: 'failed', runId, error, checkpoint, ...(run.executorId && { worker: run.executorId }) };
  }
}

type WorkflowRow = NonNullable<Awaited<ReturnType<DBOSClient['getWorkflow']>>>;

/** A workflow's error as DBOS gives it back: an Error, or something a NuwaError can be made from. */
function revived(error: unknown): unknown {
  if (error instanceof DBOSErrors.DBOSError || error instanceof Error) return error;
  if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return new Error((error as { message: string }).message);
  return error ?? new Error('unknown');
}

/** The decision for a call, of the kind the call waits for (as interpreter.resume checks its decisions). */
function checkedDecision(runId: string, pending: PendingCall, decision: unknown): Decision {
  if (pending.kind === 'approval') {
    if (typeof decision !== 'boolean') throw typeError(`decide: call ${pending.callId} of run ${runId} waits for ${pending.uncertain ? 'a decision on whether to make it again' : 'approval'}: decide it with true or false`);
    return decision;
  }
  const answer = (decision as { answer?: unknown } | null)?.answer;
  if (typeof answer !== 'string') throw typeError(`decide: call ${pending.callId} of run ${runId} waits for an answer: give it as { answer: "..." }`);
  if (pending.choices !== undefined && !pending.choices.includes(answer)) {
    throw typeError(`decide: the answer ${JSON.stringify(answer)} is not one of the choices: ${pending.choices.map((choice) => JSON.stringify(choice)).join(', ')}`);
  }
  return { answer };
}

function readOptions(options: NuwaDbosOptions): NuwaDbosOptions {
  if (options === null || typeof options !== 'object') throw typeError('nuwaDbos(options): options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw typeError(`nuwaDbos: unknown option \`${key}\` (the options are ${OPTIONS.join(', ')})`);
  }
  const { createInterpreter, queue, decisionTimeoutMs, systemDatabaseUrl, application, pollingIntervalMs, onError, takeover } = options;
  if (createInterpreter !== undefined && typeof createInterpreter !== 'function') throw typeError('nuwaDbos: createInterpreter must be a function that returns an Interpreter, e.g. () => new Interpreter(registry)');
  if (queue === null || typeof queue !== 'object') throw typeError('nuwaDbos: queue must be { name, concurrency }');
  if (typeof queue.name !== 'string' || queue.name === '') throw typeError('nuwaDbos: queue.name must be a non-empty string');
  if (createInterpreter !== undefined || queue.concurrency !== undefined) positiveInteger(queue.concurrency, 'queue.concurrency (how many runs at once, across all workers)');
  if (queue.workerConcurrency !== undefined) positiveInteger(queue.workerConcurrency, 'queue.workerConcurrency');
  if (queue.pollingIntervalMs !== undefined) positiveNumber(queue.pollingIntervalMs, 'queue.pollingIntervalMs');
  if (decisionTimeoutMs !== undefined) positiveNumber(decisionTimeoutMs, 'decisionTimeoutMs');
  if (pollingIntervalMs !== undefined) positiveNumber(pollingIntervalMs, 'pollingIntervalMs');
  if (typeof systemDatabaseUrl !== 'string' || systemDatabaseUrl === '') throw typeError('nuwaDbos: systemDatabaseUrl must be the DBOS system database, e.g. postgres://user@host:5432/nuwa_dbos');
  if (application !== undefined && (typeof application !== 'string' || application === '')) throw typeError('nuwaDbos: application must be a non-empty string (the name given to DBOS.setConfig)');
  if (onError !== undefined && typeof onError !== 'function') throw typeError('nuwaDbos: onError must be a function');
  if (takeover !== undefined && takeover !== false && (takeover === null || typeof takeover !== 'object')) throw typeError('nuwaDbos: takeover must be false or { heartbeatMs, takeoverAfterMs, ... }');
  return { ...options, queue: { ...queue } };
}

function readEnqueueOptions(options: EnqueueOptions): EnqueueOptions {
  if (options === null || typeof options !== 'object') throw typeError('enqueue: options must be an object');
  const known = ['runId', 'variables', 'fileName'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw typeError(`enqueue: unknown option \`${key}\` (the options are ${known.join(', ')})`);
  }
  if (options.fileName !== undefined && typeof options.fileName !== 'string') throw typeError('enqueue: fileName must be a string');
  return options;
}


function positiveInteger(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw typeError(`nuwaDbos: ${name} must be a positive whole number, not ${String(value)}`);
}

function positiveNumber(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw typeError(`nuwaDbos: ${name} must be a positive number of milliseconds, not ${String(value)}`);
}

function typeError(message: string): NuwaError {
  return new NuwaError('TypeError', message);
}
