// The CLI's streams, injectable so that tests and hosts can drive commands without a process; and,
// for the real process, everything that can stop a command early: a signal, stdout going away (a
// closed pipe, a full disk), and code that throws outside any call (a tool's timer, a promise nobody
// awaited). None of these may reach the user as a JavaScript stack trace.
import { isatty } from 'node:tty';
import { describeThrown } from '../util/foreign.js';
import { detectColor } from './color.js';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** Both stdin and stderr are terminals: the CLI may ask questions. */
  interactive: boolean;
  /** Colours on stderr (color.ts decides). */
  color: boolean;
  /** Colours on stdout: for listings such as `nuwa tools`, and the REPL's values. */
  colorStdout?: boolean;
  /** stderr is a terminal: notes on progress (a slow MCP server starting) are worth showing there. */
  progress?: boolean;
  cwd: string;
  /**
   * Calls `listener` when the command in progress should stop early, until the returned function
   * is called. Without a process (tests, hosts), nothing ever interrupts.
   */
  onInterrupt?: (listener: (why: Interruption) => void) => () => void;
  /**
   * Hands what code throws outside any call (a tool's timer, a rejection nobody handles) to
   * `listener`, as a message, instead of failing the command, until the returned function is called: for a
   * command that reports such faults and goes on (the REPL).
   */
  onFault?: (listener: (message: string) => void) => () => void;
}

/** Why a command is asked to stop early. */
export type Interruption =
  | { kind: 'signal'; signal: StopSignal }
  /** stdout failed; `closed` when the reader went away (EPIPE: `nuwa run ... | head -1`). */
  | { kind: 'output'; closed: boolean; message: string }
  /** Code outside any call threw (`uncaught exception`) or rejected with nobody listening (`unhandled rejection`). */
  | { kind: 'fault'; message: string };

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The real process's streams, with the guards the `nuwa` command needs. */
export class ProcessIO implements CliIO {
  // isatty(0) rather than process.stdin.isTTY: the same answer, without making the stdin stream
  // (a millisecond of every start), which `nuwa run <file>` never reads.
  readonly interactive = isatty(0) && process.stderr.isTTY === true;
  private readonly colors = detectColor();
  readonly color = this.colors.stderr;
  readonly colorStdout = this.colors.stdout;
  readonly progress = process.stderr.isTTY === true;
  readonly cwd = process.cwd();
  /** Set once stdout has failed: later output is dropped, and the exit status says so. */
  outputFailure: { closed: boolean; message: string } | undefined;
  /** Set when code outside any command's reach threw: reported once, and the exit status is 1. */
  faulted = false;
  private readonly listeners = new Set<(why: Interruption) => void>();
  private readonly faultListeners = new Set<(message: string) => void>();

  constructor() {
    process.stdout.on('error', (error: unknown) => this.outputFailed(error));
    process.on('uncaughtException', (error) => this.fault('an uncaught exception outside any tool call', error));
    process.on('unhandledRejection', (reason) => this.fault('an unhandled promise rejection outside any tool call', reason));
  }

  readonly stdout = (text: string): void => {
    if (this.outputFailure !== undefined) return;
    process.stdout.write(text);
    // Writes to pipes and files are synchronous: a failed one is known now, though its 'error'
    // event comes later. Stop at once, before the script goes on to its next call.
    if (process.stdout.errored) this.outputFailed(process.stdout.errored);
  };

  readonly stderr = (text: string): void => {
    process.stderr.write(text);
  };

  readonly readStdin = async (): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  readonly onInterrupt = (listener: (why: Interruption) => void): (() => void) => {
    // The first signal stops the command; the handlers then go, so that a second one ends the
    // process at once, as a user pressing Ctrl-C twice expects.
    const onSignal = (signal: StopSignal) => {
      for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
      listener({ kind: 'signal', signal });
    };
    for (const name of STOP_SIGNALS) process.once(name, onSignal);
    this.listeners.add(listener);
    return () => {
      for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
      this.listeners.delete(listener);
    };
  };

  readonly onFault = (listener: (message: string) => void): (() => void) => {
    this.faultListeners.add(listener);
    return () => void this.faultListeners.delete(listener);
  };

  /** Writes everything still buffered; resolves once stdout and stderr are flushed (or have failed). */
  flush(): Promise<void> {
    const flushed = (stream: NodeJS.WriteStream) =>
      new Promise<void>((resolve) => {
        if (stream.destroyed || stream.writableEnded) resolve();
        else stream.write('', () => resolve());
      });
    return Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => {});
  }

  private outputFailed(error: unknown): void {
    if (this.outputFailure !== undefined) return;
    const code = readCode(error);
    this.outputFailure = { closed: code === 'EPIPE', message: `cannot write the output: ${describeThrown(error)}` };
    this.notify({ kind: 'output', ...this.outputFailure });
  }

  private fault(what: string, thrown: unknown): void {
    if (this.faultListeners.size > 0) {
      for (const listener of [...this.faultListeners]) listener(describeThrown(thrown));
      return;
    }
    const message = `${what}: ${describeThrown(thrown)}`;
    if (this.listeners.size > 0) {
      this.notify({ kind: 'fault', message });
      return;
    }
    // Nothing is running that could stop cleanly: say what happened, once, and fail.
    if (!this.faulted) process.stderr.write(`nuwa: ${message}\n`);
    this.faulted = true;
    process.exitCode = 1;
  }

  private notify(why: Interruption): void {
    for (const listener of [...this.listeners]) listener(why);
  }
}

function readCode(error: unknown): unknown {
  try {
    return (error as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
  }
}

export function processIO(): ProcessIO {
  return new ProcessIO();
}

/** A usage error: exit status 2, message on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
