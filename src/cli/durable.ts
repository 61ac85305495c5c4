// Durable runs on the command line (DURABLE.md §5): where runs are recorded (--store), what the
// command keeps with a run so that `nuwa runs approve` can load the same tools later, how a paused run
// is announced (one line on stderr, exit status 3), and what the person is asked on a terminal.
import path from 'node:path';
import type { JsonObject } from '../values/json.js';
import type { PendingCall } from '../tools/journal.js';
import type { ApprovalHook, AskHook } from '../tools/types.js';
import { FileRunStore } from '../api/file-store.js';
import type { RunStore } from '../api/store.js';
import type { RunOutcome } from '../api/types.js';
import { cliApproval } from './approve.js';
import { cliAsk } from './ask.js';
import { UsageError, type CliIO } from './io.js';
import type { SharedValues } from './setup.js';

/** The exit status of a run that paused: it waits for a decision (`nuwa runs approve`, ...). */
export const EXIT_PAUSED = 3;

/** Where runs are recorded when --store is not given: a folder of the working directory. */
export const DEFAULT_STORE = path.join('.nuwa', 'runs');

export const STORE_OPTION = { store: { type: 'string' } } as const;

/** A run store from --store: a folder (FileRunStore), or a postgres:// URL (PostgresRunStore). */
export async function openStore(arg: string | undefined, cwd: string): Promise<RunStore> {
  if (arg !== undefined && /^postgres(ql)?:\/\//.test(arg)) {
    const { PostgresRunStore } = await loadPostgres();
    return new PostgresRunStore({ connectionString: arg });
  }
  return new FileRunStore(path.resolve(cwd, arg ?? DEFAULT_STORE));
}

async function loadPostgres(): Promise<{ PostgresRunStore: new (options: { connectionString: string }) => RunStore }> {
  try {
    return (await import('../stores/postgres.js')) as never;
  } catch (error) {
    throw new UsageError(`--store postgres://...: the Postgres run store could not be loaded (${error instanceof Error ? error.message : String(error)}); install the pg package`);
  }
}

/** The tool and limit options a run was started with, kept with it (run meta) for `nuwa runs`. */
const KEPT_OPTIONS = ['tools', 'tools-dir', 'mcp', 'std', 'root', 'allow-net', 'timeout', 'max-steps', 'max-tool-calls'] as const;

export function commandMeta(values: SharedValues, cwd: string): JsonObject {
  const options: JsonObject = {};
  for (const key of KEPT_OPTIONS) {
    const value = (values as Record<string, unknown>)[key];
    if (value !== undefined) options[key] = value as string | boolean | string[];
  }
  return { cli: { cwd, options } };
}

/**
 * The options to load a resumed run's tools with: those given now, or, when none are given, those
 * the run was started with (and the folder it was started in, which their paths are relative to).
 */
export function keptOptions(meta: JsonObject | undefined, values: SharedValues): { values: SharedValues; cwd: string | undefined } {
  const given = KEPT_OPTIONS.some((key) => key !== 'timeout' && key !== 'max-steps' && key !== 'max-tool-calls' && (values as Record<string, unknown>)[key] !== undefined);
  const cli = meta?.cli as { cwd?: unknown; options?: Record<string, unknown> } | undefined;
  if (given || cli === undefined || typeof cli.cwd !== 'string' || cli.options === undefined) return { values, cwd: undefined };
  return { values: { ...cli.options, ...withoutUndefined(values) } as SharedValues, cwd: cli.cwd };
}

function withoutUndefined(values: SharedValues): Partial<SharedValues> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** Approvals in a durable run: on a terminal asked, with --yes given, else the run pauses. */
export function durableApproval(options: { yes: boolean; interactive: boolean }): ApprovalHook {
  if (options.yes || options.interactive) return cliApproval(options)!;
  return () => 'pause';
}

/** A tool's question in a durable run: on a terminal asked, else the run pauses for an answer. */
export function durableAsk(options: { interactive: boolean; command: string }): AskHook {
  return options.interactive ? cliAsk(options) : () => ({ pause: true });
}

/**
 * The lines that announce a paused run on stderr: what it waits for, where, and the command that
 * decides it (with --store when the run is not in the default store).
 */
export function pauseLines(outcome: Extract<RunOutcome, { status: 'paused' }>, fileName: string, storeArg: string | undefined): string {
  const store = storeArg === undefined ? '' : ` --store ${quote(storeArg)}`;
  return outcome.pending.map((pending) => `${pauseLine(outcome.runId, pending, fileName, store)}\n`).join('');
}

function pauseLine(runId: string, pending: PendingCall, fileName: string, store: string): string {
  const at = `${fileName}:${pending.line}:${pending.column}`;
  if (pending.kind === 'question') {
    return `paused: run ${runId} waits for an answer to ${JSON.stringify(pending.question)} at ${at}; answer with: nuwa runs answer ${runId} ${pending.callId} "<answer>"${store}`;
  }
  const what = pending.uncertain ? `a decision on whether ${pending.toolName} ran (the process died during it)` : `approval of ${pending.toolName}`;
  return `paused: run ${runId} waits for ${what} at ${at}; approve with: nuwa runs approve ${runId}${store}`;
}

function quote(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** The io of the command, seen from another working directory (a run's own, for its tools' paths). */
export function inFolder(io: CliIO, cwd: string | undefined): CliIO {
  return cwd === undefined ? io : (Object.create(io, { cwd: { value: cwd } }) as CliIO);
}
