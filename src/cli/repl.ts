// `nuwa repl`: an interactive session on readline. Entries run as they are completed (repl-entry
// decides when), one Interpreter and session for the whole REPL (repl-session keeps the variables),
// dot commands, Tab completion (repl-complete), history in ~/.nuwa_history, Ctrl-C to stop a
// running entry. With stdin not a terminal it reads entries from the pipe: no prompts, results on
// stdout, errors on stderr, and exit status 1 when any entry failed. Colour follows where the output
// goes, as for every command (color.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { NuwaError } from '../errors.js';
import type { NuwaEvent } from '../events.js';
import { Interpreter } from '../api/interpreter.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ApprovalHook } from '../tools/types.js';
import type { Limits } from '../tools/limits.js';
import type { JsonValue } from '../values/json.js';
import { describeThrown } from '../util/foreign.js';
import { cliAsk } from './ask.js';
import { COLOR_HELP, COLOR_OPTIONS } from './color.js';
import { UsageError, type CliIO, type Interruption } from './io.js';
import { formatError } from './report.js';
import { openTrace } from './run.js';
import { loadRegistry, parseCommandArgs, parseLimits, parseVariables, reportLoadFailures, SHARED_OPTIONS, TOOL_SOURCES_HELP } from './setup.js';
import { formatValue } from './print-value.js';
import { complete } from './repl-complete.js';
import { describeTool, listState, listTools, listVariables, REPL_HELP } from './repl-commands.js';
import { entryStatus } from './repl-entry.js';
import { ReplSession } from './repl-session.js';

export const REPL_USAGE = `Usage: nuwa repl [options]

An interactive session: type statements and expressions, see results and errors, keep going.
Type .help inside for the dot commands. With stdin not a terminal (a pipe or a file), entries are
read from it: no prompts, and the exit status is 1 when any entry failed.

Options:
${TOOL_SOURCES_HELP}  --state <file.json>       initial session state: a JSON object of key → value
  --var name=<json>         an initial variable (repeatable; non-JSON text is a string)
  -y, --yes                 approve every tool call that needs approval (otherwise asked on the terminal)
  --timeout <ms>            wall-clock limit for each entry
  --max-steps <n>           limit on statements and loop iterations, per entry
  --max-tool-calls <n>      limit on tool calls, per entry
  --max-source-bytes <n>    the longest entry accepted (default 4 MiB)
  --trace <file.jsonl>      write the events of every entry as JSON lines
${COLOR_HELP}  -h, --help                show this help
`;

const PROMPT = '> ';
const CONTINUATION = '... ';
const HISTORY_FILE = '.nuwa_history';
const HISTORY_SIZE = 1000;
const FILE_NAME = '<repl>';

/** The terminal side of the REPL; tests pass their own streams. */
export interface ReplStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Both ends are a terminal: prompts, line editing, completion, history, colour. */
  terminal: boolean;
}

function processStreams(): ReplStreams {
  return { input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY) };
}

export async function replCommand(args: string[], io: CliIO, streams: ReplStreams = processStreams()): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...SHARED_OPTIONS, ...COLOR_OPTIONS });
  if (values.help) {
    io.stdout(REPL_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`repl takes no file (got ${positionals[0]}): use .load <file> inside, or nuwa run`);
  if (values.json) throw new UsageError('repl has no --json output: pipe entries into it, or use nuwa run --json');
  const variables = parseVariables(values.var);
  const limits = parseLimits(values);
  const loaded = await loadRegistry(values, io);
  reportLoadFailures(loaded.failures, io);
  const trace = values.trace === undefined ? undefined : openTrace(values.trace, io.cwd);
  try {
    const repl = new Repl({ io, streams, registry: loaded.registry, colors: { stdout: io.colorStdout === true, stderr: io.color }, yes: values.yes === true });
    return await repl.start({ variables, limits, trace });
  } finally {
    trace?.close();
    await loaded.close(); // MCP servers started for this session end with it
  }
}

interface ReplOptions {
  io: CliIO;
  streams: ReplStreams;
  registry: ToolRegistry;
  /** Colour values on stdout, and errors on stderr (color.ts decides, as for every command). */
  colors: { stdout: boolean; stderr: boolean };
  yes: boolean;
}

class Repl {
  private rl!: Interface;
  private session!: ReplSession;
  /** The lines of an entry that is not finished yet. */
  private pending: string | undefined;
  private pendingOpenString = false;
  /** The running entry's controller: Ctrl-C aborts it. */
  private running: AbortController | undefined;
  private sawInterrupt = false;
  private failed = false;
  /** Why the session was ended from outside: stdout went away, or a signal came. */
  private stopped: Interruption | undefined;

  constructor(private readonly options: ReplOptions) {}

  private get terminal(): boolean {
    return this.options.streams.terminal;
  }

  async start(setup: { variables: Record<string, JsonValue>; limits: Limits; trace?: { write(event: NuwaEvent): void } }): Promise<number> {
    const { io, registry } = this.options;
    const interpreter = new Interpreter(registry, {
      print: (line) => io.stdout(`${line}\n`),
      limits: setup.limits,
      approve: this.approval(),
      // A tool's question is asked on the REPL's own line reader, as approvals are.
      ask: cliAsk({ interactive: this.terminal, command: 'repl', readLine: (prompt, signal) => this.rl.question(prompt, { signal }) }),
      sandboxDir: io.cwd,
      logger: { warn: (m) => io.stderr(`warning: ${m}\n`), error: (m) => io.stderr(`error: ${m}\n`), info: (m) => io.stderr(`${m}\n`) },
      onEvent: setup.trace ? (event) => setup.trace!.write(event) : undefined,
    });
    this.session = new ReplSession(interpreter, { variables: setup.variables, state: interpreter.session.toJSON() });

    const history = this.terminal ? readHistory() : [];
    this.rl = createInterface({
      input: this.options.streams.input,
      output: this.terminal ? this.options.streams.output : undefined,
      terminal: this.terminal,
      completer: (line: string) => this.complete(line),
      history,
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      prompt: PROMPT,
    });
    if (this.terminal) {
      this.rl.on('history', (lines: string[]) => writeHistory(lines));
      this.rl.on('SIGINT', () => this.interrupt());
      const count = registry.list().length;
      io.stdout(`Nuwa Script REPL: ${count} tool${count === 1 ? '' : 's'} loaded. Type .help for help, .exit or Ctrl-D to leave.\n`);
    }

    // A tool may still fail after its call has ended (a timer, an event listener): in a REPL that
    // is reported, like node's own REPL does, instead of ending the session.
    const onStray = (message: string) => {
      this.failed = true;
      io.stderr(`nuwa: uncaught error, outside any entry (a tool's timer or event handler?): ${message}\n`);
      if (!this.running) this.prompt();
    };
    const onProcessStray = (error: unknown) => onStray(describeThrown(error));
    // The CLI's own io reports faults to us; any other io (a host, a test) gets process listeners.
    const stopListening =
      io.onFault?.(onStray) ??
      (() => {
        process.on('uncaughtException', onProcessStray);
        process.on('unhandledRejection', onProcessStray);
        return () => {
          process.removeListener('uncaughtException', onProcessStray);
          process.removeListener('unhandledRejection', onProcessStray);
        };
      })();
    // stdout going away (`nuwa repl < entries | head -1`) or a signal ends the session, as it ends
    // `nuwa run`: the running entry is aborted and no more entries are read (else the REPL would go
    // on reading and running entries whose output goes nowhere).
    const stopWatching = io.onInterrupt?.((why) => this.stop(why));
    try {
      return await this.loop();
    } finally {
      stopWatching?.();
      stopListening();
    }
  }

  private stop(why: Interruption): void {
    this.stopped ??= why;
    this.running?.abort(why.kind === 'signal' ? `interrupted (${why.signal})` : why.message);
    this.rl.close();
  }

  private async loop(): Promise<number> {
    this.prompt();
    let exited = false;
    for await (const line of this.rl) {
      if (this.stopped) break;
      if ((await this.accept(line)) === 'exit') {
        exited = true;
        break;
      }
      if (this.stopped) break;
      this.prompt();
    }
    if (this.stopped) {
      // A reader that went away (`| head -1`) ends the session quietly; any other failure to
      // write is reported by the caller, and a signal fails the session.
      return this.stopped.kind === 'output' && this.stopped.closed ? 0 : 1;
    }
    // Input ended inside an unfinished entry: in a pipe, run it so its error shows.
    if (this.pending !== undefined && !this.terminal) await this.runEntry(this.pending, FILE_NAME);
    if (this.terminal && !exited) this.options.streams.output.write('\n'); // after Ctrl-D the cursor is still on the prompt line
    this.rl.close();
    return !this.terminal && this.failed ? 1 : 0;
  }

  private prompt(): void {
    if (!this.terminal || this.stopped) return;
    this.rl.setPrompt(this.pending === undefined ? PROMPT : CONTINUATION);
    this.rl.prompt();
  }

  /** One line of input: a dot command, part of an entry, or the line that completes one. */
  private async accept(line: string): Promise<'exit' | undefined> {
    this.sawInterrupt = false;
    if (this.pending === undefined) {
      const trimmed = line.trim();
      if (trimmed === '') return undefined;
      if (trimmed.startsWith('.')) return this.command(trimmed);
    }
    const text = this.withPending(line);
    const status = entryStatus(text);
    if (!status.complete) {
      this.pending = text;
      this.pendingOpenString = status.openString;
      return undefined;
    }
    this.pending = undefined;
    this.pendingOpenString = false;
    if (text.trim() !== '') await this.runEntry(text, FILE_NAME);
    return undefined;
  }

  /** The unfinished entry with `line` added: a line break, or `\n` inside a string left open. */
  private withPending(line: string): string {
    if (this.pending === undefined) return line;
    return `${this.pending}${this.pendingOpenString ? '\\n' : '\n'}${line}`;
  }

  private async runEntry(source: string, fileName: string): Promise<void> {
    const { io, colors } = this.options;
    const controller = new AbortController();
    this.running = controller;
    try {
      const result = await this.session.evaluate(source, { signal: controller.signal, fileName });
      if ('value' in result) io.stdout(`${formatValue(result.value!, { color: colors.stdout })}\n`);
    } catch (error) {
      this.failed = true;
      if (this.stopped?.kind === 'output') return; // the output is gone: nothing more to show there
      if (error instanceof NuwaError) io.stderr(formatError(error, source, fileName, colors.stderr));
      else io.stderr(`nuwa: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      this.running = undefined;
    }
  }

  private async command(text: string): Promise<'exit' | undefined> {
    const { io, registry, colors } = this.options;
    const [name, ...rest] = text.split(/\s+/);
    const argument = rest.join(' ');
    switch (name) {
      case '.help':
        io.stdout(REPL_HELP);
        return undefined;
      case '.exit':
        return 'exit';
      case '.tools': {
        if (argument === '') {
          io.stdout(listTools(registry));
          return undefined;
        }
        const described = describeTool(registry, argument);
        if (typeof described === 'string') io.stdout(described);
        else this.commandError(described.error);
        return undefined;
      }
      case '.vars':
        io.stdout(listVariables(this.session.variables, colors.stdout));
        return undefined;
      case '.state':
        io.stdout(listState(this.session.state, colors.stdout));
        return undefined;
      case '.reset':
        this.session.reset();
        io.stdout('The variables, state and entries are reset.\n');
        return undefined;
      case '.load':
        await this.load(argument);
        return undefined;
      case '.save':
        this.save(argument);
        return undefined;
      default:
        this.commandError(`unknown command ${name}: .help lists the commands`);
        return undefined;
    }
  }

  private async load(file: string): Promise<void> {
    if (file === '') return this.commandError('.load needs a file: .load <file.nuwa>');
    let source: string;
    try {
      source = readFileSync(path.resolve(this.options.io.cwd, file), 'utf8');
    } catch (error) {
      return this.commandError(`.load ${file}: ${describeFileError(error)}`);
    }
    await this.runEntry(source, file);
  }

  private save(file: string): void {
    if (file === '') return this.commandError('.save needs a file: .save <file.nuwa>');
    const count = this.session.entries.length;
    try {
      writeFileSync(path.resolve(this.options.io.cwd, file), this.session.script());
    } catch (error) {
      return this.commandError(`.save ${file}: ${describeFileError(error)}`);
    }
    this.options.io.stdout(`Saved ${count} entr${count === 1 ? 'y' : 'ies'} to ${file}.\n`);
  }

  private commandError(message: string): void {
    this.failed = true;
    this.options.io.stderr(`${message}\n`);
  }

  private complete(line: string): [string[], string] {
    const before = this.withPending(line);
    const { registry } = this.options;
    try {
      return complete(before, {
        variables: () => this.session.variables,
        toolNames: () => registry.names(),
        parameterNames: (tool) => Object.keys(registry.lookup(tool)?.parametersSchema.properties ?? {}),
      });
    } catch {
      return [[], ''];
    }
  }

  /** Ctrl-C: stop the running entry; otherwise drop the line being typed; twice on nothing, leave. */
  private interrupt(): void {
    if (this.running) {
      this.running.abort('interrupted (Ctrl-C)');
      return;
    }
    const empty = this.rl.line === '' && this.pending === undefined;
    if (empty && this.sawInterrupt) {
      this.rl.close();
      return;
    }
    this.sawInterrupt = empty;
    this.options.streams.output.write(empty ? '\n(To exit, press Ctrl+C again or Ctrl+D or type .exit)\n' : '\n');
    if (this.rl.line !== '') {
      // Drop the typed text: to the end of the line, then delete back to its start.
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.rl.write(null, { ctrl: true, name: 'u' });
    }
    this.pending = undefined;
    this.pendingOpenString = false;
    this.prompt();
  }

  /** --yes approves everything; on a terminal the REPL asks; in a pipe nothing is approved. */
  private approval(): ApprovalHook {
    if (this.options.yes) return () => true;
    if (!this.terminal) {
      return () => {
        throw new Error('nuwa repl approves such calls only when asked on a terminal, or with --yes');
      };
    }
    return async ({ toolName, confirm, args }) => {
      const shown = JSON.stringify(args);
      const question = `Allow ${toolName} (${confirm}) with ${shown.length > 200 ? `${shown.slice(0, 197)}...` : shown}? [y/N] `;
      const signal = this.running?.signal;
      try {
        const answer = await this.rl.question(question, signal ? { signal } : {});
        return /^y(es)?$/i.test(answer.trim());
      } catch {
        return false; // cancelled with Ctrl-C: the run stops as aborted
      }
    };
  }
}

function historyPath(): string {
  return path.join(homedir(), HISTORY_FILE);
}

/** The history file holds one line per entry line, oldest first; readline wants newest first. */
function readHistory(): string[] {
  try {
    return readFileSync(historyPath(), 'utf8').split('\n').filter((line) => line !== '').reverse().slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function writeHistory(lines: string[]): void {
  try {
    writeFileSync(historyPath(), lines.slice().reverse().map((line) => `${line}\n`).join(''), { mode: 0o600 });
  } catch {
    // History is a convenience: a read-only home must not break the session.
  }
}

function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  return error instanceof Error ? error.message : String(error);
}
