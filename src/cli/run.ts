// `nuwa run <file | ->`: run a script, PRINT lines to stdout as they come, errors to stderr with a
// code frame; or, with --json, exactly one JSON object on stdout. Exit 0 / 1 (script failed) / 2.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isNuwaError, type NuwaError } from '../errors.js';
import type { NuwaEvent, RunStats } from '../events.js';
import { Interpreter } from '../api/interpreter.js';
import type { RunOutcome, RunResult } from '../api/types.js';
import type { Limits } from '../tools/limits.js';
import { cliApproval } from './approve.js';
import { cliAsk } from './ask.js';
import { COLOR_HELP, COLOR_OPTIONS } from './color.js';
import { UsageError, type CliIO, type Interruption } from './io.js';
import type { JsonError } from './report.js';
import { CHECK_OPTIONS, loadRegistry, parseCommandArgs, parseLimits, parseVariables, reportLoadFailures, SHARED_OPTIONS, TOOL_SOURCES_HELP } from './setup.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Preflight } from './plan-view.js';
import type { JsonValue } from '../values/json.js';

// What only some runs need is loaded when they need it, so that `nuwa run` starts quickly: the checker
// for --check and --plan (plan-view.ts), the error report (report.ts) when the script fails.

export const RUN_HELP = `Usage: nuwa run <file.nuwa | -> [options]

Runs a script. PRINT lines go to stdout; errors go to stderr as file:line:col: Kind: message.

Options:
${TOOL_SOURCES_HELP}  --state <file.json>       initial session state: a JSON object of key → value
  --var name=<json>         an initial script variable (repeatable; non-JSON text is a string)
  -y, --yes                 approve every tool call that needs approval
  --timeout <ms>            wall-clock limit for the run
  --max-steps <n>           limit on statements and loop iterations
  --max-tool-calls <n>      limit on tool calls
  --max-source-bytes <n>    the longest script text run accepts (default 4 MiB)
  --trace <file.jsonl>      write run events as JSON lines
  --json                    print one JSON object: { ok, output, variables, state, error?, stats }
  --check                   check the script first (nuwa check) and refuse to run it if it has errors
  --plan                    show the plan first (nuwa check --plan) and ask once, on a terminal, to
                            approve it; the calls it covers are not asked about again (--yes approves it)
  --durable                 record the run as it goes, so that it can wait for a decision: where a call
                            needs approval (or a tool asks a question) and there is no terminal to ask
                            on and no --yes, the run pauses (exit status 3) until \`nuwa runs\` decides
  --store <dir | postgres://...>  where durable runs are recorded (default: .nuwa/runs)
  --run-id <id>             the durable run's id (default: a random one)
${COLOR_HELP}  -h, --help                show this help

Exit status: 0 success, 1 the script failed, 2 usage error, 3 the durable run paused.
`;

export interface RunReport {
  ok: boolean;
  output: string[];
  variables: Record<string, JsonValue>;
  state: Record<string, JsonValue>;
  error?: JsonError;
  stats: RunStats;
}

type RunValues = ReturnType<typeof parseRunArgs>['values'];
const DURABLE_OPTIONS = { durable: { type: 'boolean' }, store: { type: 'string' }, 'run-id': { type: 'string' } } as const;
const parseRunArgs = (args: string[]) => parseCommandArgs(args, { ...SHARED_OPTIONS, ...CHECK_OPTIONS, ...DURABLE_OPTIONS, ...COLOR_OPTIONS });

export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseRunArgs(args);
  if (values.help) {
    io.stdout(RUN_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'run needs a script file (or - for stdin)' : `run takes one script, got ${positionals.length}`);
  const [file] = positionals as [string];
  const fileName = file === '-' ? '<stdin>' : file;
  const source = file === '-' ? await io.readStdin() : readScript(file, io.cwd);

  const { registry, failures, close } = await loadRegistry(values, io);
  try {
    reportLoadFailures(failures, io);
    return await runLoaded(registry, source, fileName, values, io);
  } finally {
    await close(); // MCP servers end with the command, however it ends
  }
}

async function runLoaded(registry: ToolRegistry, source: string, fileName: string, values: RunValues, io: CliIO): Promise<number> {
  const variables = parseVariables(values.var);
  const json = values.json === true;
  const flags = { check: values.check, plan: values.plan, yes: values.yes, json };
  const before: Preflight = flags.check || flags.plan ? await (await import('./plan-view.js')).preflight(source, fileName, registry, variables, flags, io) : {};
  if (before.refusal) {
    const stats: RunStats = { steps: 0, toolCalls: 0, durationMs: 0 };
    if (json) io.stdout(`${JSON.stringify({ ...report(false, [], {}, registry.defaultSession.toJSON(), stats, before.refusal.error), ...before.report })}\n`);
    else io.stderr(before.refusal.text);
    return 1;
  }
  const settings: HostSettings = { json, yes: values.yes === true, limits: parseLimits(values), trace: values.trace, durable: values.durable === true, source, fileName, storeArg: values.store, extra: before.report };
  if (!settings.durable) {
    if (values.store !== undefined || values['run-id'] !== undefined) throw new UsageError(`${values.store !== undefined ? '--store' : '--run-id'} is for durable runs: add --durable`);
    return hostRun(registry, io, settings, async (interpreter, signal) => {
      try {
        return { status: 'completed', result: await interpreter.run(source, { variables, fileName, signal, approvedPlan: before.approvedPlan }) };
      } catch (error) {
        if (!isNuwaError(error)) throw error;
        return { status: 'failed', error };
      }
    });
  }
  const { commandMeta, openStore } = await import('./durable.js');
  const store = await openStore(values.store, io.cwd);
  try {
    return await hostRun(registry, io, settings, (interpreter, signal) =>
      interpreter.start(source, { variables, fileName, signal, approvedPlan: before.approvedPlan, store, runId: values['run-id'], meta: commandMeta(values, io.cwd) }),
    );
  } finally {
    await store.close?.();
  }
}

/** How a run the command made ended: by run(), or a durable run's outcome (start, resume, recover). */
export type CommandOutcome = { status: 'completed'; result: RunResult; runId?: string } | { status: 'failed'; error: NuwaError; runId?: string } | Extract<RunOutcome, { status: 'paused' }>;

/** How the command hosts a run. */
export interface HostSettings {
  json: boolean;
  yes: boolean;
  limits: Limits;
  /** --trace FILE */
  trace: string | undefined;
  /** A durable run: what needs a person and finds none pauses it (exit status 3). */
  durable: boolean;
  /** The script, for code frames. */
  source: string;
  fileName: string;
  /** --store as given, for the command that decides a paused run. */
  storeArg: string | undefined;
  /** More of the --json report (the plan, with --plan). */
  extra?: object;
}

/**
 * Runs `go` with an Interpreter set up for the command line (output, approval and questions on the
 * terminal or --yes, limits, --trace, Ctrl-C), and reports how it ended: the exit status.
 */
export async function hostRun(registry: ToolRegistry, io: CliIO, settings: HostSettings, go: (interpreter: Interpreter, signal: AbortSignal) => Promise<CommandOutcome>): Promise<number> {
  const { json, durable } = settings;
  const trace = settings.trace === undefined ? undefined : openTrace(settings.trace, io.cwd);
  let stats: RunStats = { steps: 0, toolCalls: 0, durationMs: 0 };
  // A signal, stdout going away, or a tool's code throwing outside its call stops the run the same
  // way: its tools are aborted, and it ends with AbortedError through the usual report and trace.
  const controller = new AbortController();
  let interruption: Interruption | undefined;
  const stopWatching = io.onInterrupt?.((why) => {
    interruption ??= why;
    controller.abort(interruptionMessage(why));
  });
  // With --json, PRINT lines are captured (also those printed before an error) instead of shown.
  const printed: string[] = [];
  const unattended = durable ? await import('./durable.js') : undefined;
  const interpreter = new Interpreter(registry, {
    print: json ? (line) => void printed.push(line) : (line) => io.stdout(`${line}\n`),
    limits: settings.limits,
    approve: unattended ? unattended.durableApproval({ yes: settings.yes, interactive: io.interactive }) : cliApproval({ yes: settings.yes, interactive: io.interactive }),
    ask: unattended ? unattended.durableAsk({ interactive: io.interactive, command: 'run' }) : cliAsk({ interactive: io.interactive, command: 'run' }),
    sandboxDir: io.cwd,
    logger: { warn: (m) => io.stderr(`warning: ${m}\n`), error: (m) => io.stderr(`error: ${m}\n`), info: (m) => io.stderr(`${m}\n`) },
    onEvent: (event: NuwaEvent) => {
      trace?.write(event);
      if (event.type === 'script:completed' || event.type === 'script:failed') stats = event.stats;
    },
  });
  const state = () => registry.defaultSession.toJSON();
  try {
    // A durable run that cannot be started, resumed or recovered (a conflict, a record that no longer
    // fits) is reported like a failed run.
    const outcome = await go(interpreter, controller.signal).catch((error: unknown): CommandOutcome => {
      if (isNuwaError(error)) return { status: 'failed', error };
      throw error;
    });
    const runId = outcome.runId === undefined || !durable ? {} : { runId: outcome.runId };
    if (outcome.status === 'completed') {
      const { result } = outcome;
      if (json) io.stdout(`${JSON.stringify({ ...report(true, result.output, result.variables, state(), result.stats), ...runId, ...settings.extra })}\n`);
      return 0;
    }
    if (outcome.status === 'paused') {
      if (json) {
        const paused = { ...report(false, printed, {}, state(), outcome.checkpoint.stats), paused: true, runId: outcome.runId, pending: outcome.pending };
        io.stdout(`${JSON.stringify({ ...paused, ...settings.extra })}\n`);
      } else {
        io.stderr(unattended!.pauseLines(outcome, settings.fileName, settings.storeArg));
      }
      return unattended!.EXIT_PAUSED;
    }
    const { error } = outcome;
    // The output is gone: nothing more can be shown there. A closed pipe is the reader's choice
    // (`| head -1`) and ends quietly; any other failure is reported once, by the caller.
    if (interruption?.kind === 'output') return interruption.closed ? 0 : 1;
    const { errorToJson, formatError } = await import('./report.js');
    if (json) {
      io.stdout(`${JSON.stringify({ ...report(false, printed, error.variables ?? {}, state(), stats, errorToJson(error)), ...runId, ...settings.extra })}\n`);
    } else {
      io.stderr(formatError(error, settings.source, settings.fileName, io.color));
    }
    return 1;
  } finally {
    stopWatching?.();
    trace?.close();
  }
}

function interruptionMessage(why: Interruption): string {
  switch (why.kind) {
    case 'signal':
      return why.signal === 'SIGINT' ? 'interrupted (Ctrl-C)' : `interrupted (${why.signal})`;
    case 'output':
      return why.message;
    case 'fault':
      return why.message;
  }
}

export function report(ok: boolean, output: string[], variables: Record<string, JsonValue>, state: Record<string, JsonValue>, stats: RunStats, error?: JsonError): RunReport {
  const out: RunReport = { ok, output, variables, state, stats };
  if (error) out.error = error;
  return out;
}

export function readScript(file: string, cwd: string): string {
  try {
    return readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message}`);
  }
}

export function openTrace(file: string, cwd: string): { write(event: NuwaEvent): void; close(): void } {
  let fd: number;
  try {
    fd = openSync(path.resolve(cwd, file), 'w');
  } catch (error) {
    throw new UsageError(`--trace ${file}: ${(error as Error).message}`);
  }
  return {
    write: (event) => void writeSync(fd, `${JSON.stringify(event)}\n`),
    close: () => closeSync(fd),
  };
}
