// `nuwa runs`: the inbox of durable runs (DURABLE.md §5). List them, show one, and decide what a
// paused run waits for (approve, deny, answer), which records the decision and resumes the run here
// (PRINT lines it prints go to stdout, as `nuwa run` would show them); recover a run whose process
// died; remove a run. A resumed run loads the tools it was started with, unless tool options are given.
import { NuwaError } from '../errors.js';
import { didYouMean } from '../util/suggest.js';
import type { JsonObject } from '../values/json.js';
import type { Decision, PendingCall } from '../tools/journal.js';
import type { RunStore, StoredRun } from '../api/store.js';
import { inFolder, keptOptions, openStore } from './durable.js';
import { COLOR_HELP, COLOR_OPTIONS } from './color.js';
import { UsageError, type CliIO } from './io.js';
import { hostRun, type CommandOutcome } from './run.js';
import { loadRegistry, parseCommandArgs, parseLimits, reportLoadFailures, SHARED_OPTIONS, type SharedValues } from './setup.js';

export const RUNS_HELP = `Usage: nuwa runs [<command>] [options]

The durable runs recorded by \`nuwa run --durable\`:

  nuwa runs [list] [--status paused|completed|failed|running] [--json]
                                        list the runs, newest last
  nuwa runs show <id> [--json]          a run: its status, what it waits for, its calls, its script
  nuwa runs approve <id> [<callId>...]  approve the calls it waits for (all, without callIds), and resume it
  nuwa runs deny <id> [<callId>...]     deny them (the script fails there with ToolDeniedError), and resume it
  nuwa runs answer <id> <callId> <text> answer a tool's question, and resume it
  nuwa runs resume <id>                 resume it with the decisions recorded so far
  nuwa runs recover <id>                finish a run whose process died (a write it was in the middle of
                                        is not repeated: the run waits for a decision on it)
  nuwa runs rm <id>                     forget a run

Options:
  --store <dir | postgres://...>  where the runs are recorded (default: .nuwa/runs)
  --no-resume               approve, deny, answer: only record the decision
  --json                    machine-readable output
  -y, --yes                 approve every other call that needs approval while the run goes on
  --tools, --tools-dir, --mcp, --std, --root, --allow-net
                            the tools a resumed run uses (default: those it was started with)
  --timeout, --max-steps, --max-tool-calls   limits for the resumed run
${COLOR_HELP}  -h, --help                show this help

Exit status: 0 completed (or listed), 1 failed, 2 usage error, 3 paused again.
`;

const RUNS_OPTIONS = {
  ...SHARED_OPTIONS,
  store: { type: 'string' },
  status: { type: 'string' },
  'no-resume': { type: 'boolean' },
  ...COLOR_OPTIONS,
} as const;

const STATUSES = ['running', 'paused', 'completed', 'failed'] as const;
const RUNS_COMMANDS = ['list', 'show', 'approve', 'deny', 'answer', 'resume', 'recover', 'rm'];

export async function runsCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, RUNS_OPTIONS);
  if (values.help) {
    io.stdout(RUNS_HELP);
    return 0;
  }
  const [command = 'list', id, ...rest] = positionals;
  const store = await openStore(values.store, io.cwd);
  try {
    switch (command) {
      case 'list':
        return await list(store, values, io);
      case 'show':
        return await show(store, required(id, 'show'), values.json === true, io);
      case 'approve':
      case 'deny':
        return await decide(store, required(id, command), rest, command === 'approve', values, io);
      case 'answer': {
        const [callId, text] = rest;
        if (callId === undefined || text === undefined || rest.length > 2) throw new UsageError('runs answer takes a run id, a callId and the answer: nuwa runs answer <id> <callId> "<text>"');
        return await record(store, required(id, 'answer'), new Map([[callId, { answer: text }]]), values, io);
      }
      case 'resume':
        return await resume(store, await stored(store, required(id, 'resume')), new Map(), values, io);
      case 'recover':
        return await recover(store, required(id, 'recover'), values, io);
      case 'rm':
        await stored(store, required(id, 'rm'));
        await store.delete(id!);
        return 0;
      default:
        throw new UsageError(`unknown runs command \`${command}\`${didYouMean(command, RUNS_COMMANDS) || ` (${RUNS_COMMANDS.join(', ')})`}`);
    }
  } catch (error) {
    // A run that cannot be driven now (another process has it) or is not in the store.
    if (error instanceof NuwaError && (error.kind === 'ConflictError' || error.kind === 'TypeError' || error.kind === 'ReplayError')) {
      io.stderr(`nuwa: ${error.kind}: ${error.message}\n`);
      return error.kind === 'TypeError' ? 2 : 1;
    }
    throw error;
  } finally {
    await store.close?.();
  }
}

function required(id: string | undefined, command: string): string {
  if (id === undefined) throw new UsageError(`runs ${command} needs the id of a run (nuwa runs lists them)`);
  return id;
}

async function stored(store: RunStore, runId: string): Promise<StoredRun> {
  const run = await store.load(runId);
  if (run === undefined) throw new UsageError(`there is no run ${runId} in the store (nuwa runs lists them)`);
  return run;
}

async function list(store: RunStore, values: { status?: string; json?: boolean }, io: CliIO): Promise<number> {
  const status = values.status;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  const runs = await store.list(status === undefined ? {} : { status: status as (typeof STATUSES)[number] });
  if (values.json) {
    io.stdout(`${JSON.stringify(runs)}\n`);
    return 0;
  }
  for (const run of runs) {
    const waits = run.pending.length === 0 ? '' : `  waits for ${run.pending.map(describePending).join('; ')}`;
    io.stdout(`${run.runId}  ${run.status.padEnd(9)}  ${new Date(run.updatedAt).toISOString()}  ${run.fileName ?? ''}${waits}\n`);
  }
  return 0;
}

async function show(store: RunStore, runId: string, json: boolean, io: CliIO): Promise<number> {
  const run = await stored(store, runId);
  if (json) {
    io.stdout(`${JSON.stringify(run)}\n`);
    return 0;
  }
  const { checkpoint } = run;
  const lines = [`run ${run.runId}: ${run.status}${checkpoint.fileName ? ` (${checkpoint.fileName})` : ''}`, `started ${new Date(run.createdAt).toISOString()}, last change ${new Date(run.updatedAt).toISOString()}`];
  for (const pending of checkpoint.pending) lines.push(`waits at ${pending.callId} (line ${pending.line}): ${describePending(pending)}`);
  for (const call of run.unfinished) lines.push(`in progress when its process stopped: ${call.callId} ${call.toolName} ${JSON.stringify(call.args)}`);
  for (const [callId, decision] of Object.entries(run.decisions)) lines.push(`decided for ${callId}: ${JSON.stringify(decision)}`);
  if (run.error) lines.push(`failed: ${run.error.kind}: ${run.error.message}`);
  lines.push(`calls (${checkpoint.log.length}):`);
  for (const call of checkpoint.log) {
    const outcome = 'value' in call.outcome ? JSON.stringify(call.outcome.value) : `${call.outcome.error.kind}: ${call.outcome.error.message}`;
    lines.push(`  ${call.callId}  ${call.toolName} ${JSON.stringify(call.args)} → ${outcome}`);
  }
  if (checkpoint.source !== undefined) lines.push('script:', ...checkpoint.source.replace(/\n$/, '').split('\n').map((line) => `  ${line}`));
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

function describePending(pending: PendingCall): string {
  if (pending.kind === 'question') return `an answer to ${JSON.stringify(pending.question)}${pending.choices ? ` (${pending.choices.join(' / ')})` : ''} [${pending.callId}]`;
  return `${pending.uncertain ? 'a decision on whether it ran: ' : 'approval of '}${pending.toolName} ${JSON.stringify(pending.args)} [${pending.callId}]`;
}

/** approve / deny: the calls named (or every approval the run waits for), then resume. */
async function decide(store: RunStore, runId: string, callIds: string[], approve: boolean, values: RunsValues, io: CliIO): Promise<number> {
  const run = await stored(store, runId);
  const approvals = run.checkpoint.pending.filter((pending) => pending.kind === 'approval');
  if (run.status !== 'paused') throw new UsageError(`run ${runId} is ${run.status}: it waits for no decision`);
  const chosen = callIds.length === 0 ? approvals.map((pending) => pending.callId) : callIds;
  if (chosen.length === 0) throw new UsageError(`run ${runId} waits for no approval (it waits for an answer: nuwa runs answer ${runId} <callId> "<text>")`);
  for (const callId of chosen) {
    if (!approvals.some((pending) => pending.callId === callId)) throw new UsageError(`run ${runId} does not wait for approval at ${callId} (it waits at ${run.checkpoint.pending.map((p) => p.callId).join(', ')})`);
  }
  return record(store, runId, new Map(chosen.map((callId) => [callId, approve])), values, io);
}

type RunsValues = SharedValues & { 'no-resume'?: boolean; json?: boolean; yes?: boolean; store?: string; trace?: string };

/** Records decisions with the run, and resumes it unless --no-resume. */
async function record(store: RunStore, runId: string, decisions: Map<string, Decision>, values: RunsValues, io: CliIO): Promise<number> {
  const run = await stored(store, runId);
  if (run.status !== 'paused') throw new UsageError(`run ${runId} is ${run.status}: it waits for no decision`);
  for (const callId of decisions.keys()) {
    if (!run.checkpoint.pending.some((pending) => pending.callId === callId)) throw new UsageError(`run ${runId} does not wait at ${callId} (it waits at ${run.checkpoint.pending.map((p) => p.callId).join(', ')})`);
  }
  if (values['no-resume']) {
    const writer = await store.open(runId);
    try {
      await writer.append({ type: 'decided', at: Date.now(), decisions: Object.fromEntries(decisions) }, true);
    } finally {
      await writer.close();
    }
    return 0;
  }
  return resume(store, run, decisions, values, io);
}

async function resume(store: RunStore, run: StoredRun, given: Map<string, Decision>, values: RunsValues, io: CliIO): Promise<number> {
  if (run.status !== 'paused') throw new UsageError(`run ${run.runId} is ${run.status}: there is nothing to resume${run.status === 'running' ? ' (if its process died: nuwa runs recover)' : ''}`);
  const decisions = { ...run.decisions, ...Object.fromEntries(given) };
  return withTools(run, values, io, (registry, runIo) =>
    hostRun(registry, runIo, settingsFor(run, values), (interpreter, signal) => interpreter.resume(run.checkpoint, { decisions, signal, store }) as Promise<CommandOutcome>),
  );
}

async function recover(store: RunStore, runId: string, values: RunsValues, io: CliIO): Promise<number> {
  const run = await stored(store, runId);
  return withTools(run, values, io, (registry, runIo) =>
    hostRun(registry, runIo, settingsFor(run, values), (interpreter, signal) => interpreter.recover(runId, { store, signal }) as Promise<CommandOutcome>),
  );
}

function settingsFor(run: StoredRun, values: RunsValues) {
  const kept = keptOptions(run.meta, values).values;
  return {
    json: values.json === true,
    yes: values.yes === true,
    limits: parseLimits(kept),
    trace: values.trace,
    durable: true,
    source: run.checkpoint.source ?? '',
    fileName: run.checkpoint.fileName ?? run.runId,
    storeArg: values.store,
  };
}

/** Loads the tools the run needs (given now, or kept with it), and closes what they opened after. */
async function withTools(run: StoredRun, values: RunsValues, io: CliIO, go: (registry: import('../tools/registry.js').ToolRegistry, io: CliIO) => Promise<number>): Promise<number> {
  const { values: toolValues, cwd } = keptOptions(run.meta as JsonObject | undefined, values);
  const runIo = inFolder(io, cwd);
  const { registry, failures, close } = await loadRegistry(toolValues, runIo);
  try {
    reportLoadFailures(failures, io);
    return await go(registry, runIo);
  } finally {
    await close();
  }
}

