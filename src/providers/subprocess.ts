// Running one tool process without trusting it: no shell, its own process group (so that killing it
// also kills whatever it started), stdin written once, stdout buffered up to a cap, only the tail of
// stderr kept, and a kill on cancellation, on a timeout and on the host's own exit. Used by the
// executables provider for `--tool-info` probes and for calls.
import { spawn } from 'node:child_process';
import { releaseGroup, superviseGroup } from './supervisor.js';

export interface ProcessRequest {
  file: string;
  args: string[];
  /** Written to stdin, which is then closed. */
  input?: string;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kills the process group when aborted. */
  signal?: AbortSignal;
  /** Kills the process group after this long (used for probes; calls are timed by the registry). */
  timeoutMs?: number;
  /** At most this many bytes of stdout are kept; more kills the process. */
  maxStdoutBytes: number;
}

export interface ProcessOutcome {
  stdout: string;
  /** The last lines of stderr (at most STDERR_TAIL_BYTES of it). */
  stderrTail: string;
  exitCode: number | null;
  /** The signal that ended the process, if one did. */
  exitSignal: NodeJS.Signals | null;
  /** Why the host ended it, if it did: 'timeout', 'aborted' or 'output' (too much stdout). */
  killed: 'timeout' | 'aborted' | 'output' | undefined;
}

/** The process could not be started at all (no such file, not executable, ...). */
export class SpawnError extends Error {
  override readonly name = 'SpawnError';
}

const STDERR_TAIL_BYTES = 8 * 1024;

// Process groups still running, killed if the host exits first (Ctrl-C, process.exit, an uncaught
// error): a tool must not outlive the program that started it. A host killed outright runs no exit
// handler: for that, each group is also registered with the supervisor process (supervisor.ts).
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number): void {
  liveGroups.add(pid);
  superviseGroup(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) killGroup(group);
  });
}

function killGroup(pid: number): void {
  try {
    // A negative pid is the process group: the tool and every child it started (they inherit it).
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs `file` with `args` (never through a shell) and resolves once it and its output are done. */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      resolve({ stdout: '', stderrTail: '', exitCode: null, exitSignal: null, killed: 'aborted' });
      return;
    }
    const child = spawn(request.file, request.args, {
      env: request.env,
      cwd: request.cwd,
      shell: false,
      // Its own process group (setsid), so that one kill reaches its children too, and a Ctrl-C
      // on the terminal reaches the host, which then decides what to stop.
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let killed: ProcessOutcome['killed'];
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let spawned = false;

    const stop = (why: NonNullable<ProcessOutcome['killed']>) => {
      if (killed === undefined) killed = why;
      if (child.pid !== undefined) killGroup(child.pid);
    };
    const onAbort = () => stop('aborted');
    // Listened to from the start, not from 'spawn': an abort between spawn() and that event would
    // otherwise be missed (a listener added to an aborted signal never runs) and the tool live on.
    request.signal?.addEventListener('abort', onAbort, { once: true });

    child.once('spawn', () => {
      spawned = true;
      trackGroup(child.pid!);
      if (killed !== undefined) killGroup(child.pid!); // stopped before it had started
      else if (request.timeoutMs !== undefined) timer = setTimeout(() => stop('timeout'), request.timeoutMs);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      // Only a failure to start lands here before 'spawn'; later errors (a kill that raced the
      // exit) are irrelevant because 'close' follows.
      if (spawned) return;
      request.signal?.removeEventListener('abort', onAbort);
      reject(new SpawnError(spawnReason(error)));
    });
    // The tool exited: whatever it left running in its group goes too, which also closes the
    // pipes a forgotten background child would otherwise hold open.
    child.once('exit', () => {
      if (child.pid !== undefined) killGroup(child.pid);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (killed === 'output') return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > request.maxStdoutBytes) {
        stdout.length = 0;
        stop('output');
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
    });
    // A tool that exits without reading its input makes the write fail with EPIPE: not an error of
    // the call, its exit status and output tell what happened.
    child.stdin.on('error', () => {});
    child.stdin.end(request.input ?? '');

    child.once('close', (exitCode, exitSignal) => {
      if (timer !== undefined) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (child.pid !== undefined && liveGroups.delete(child.pid)) releaseGroup(child.pid);
      if (!spawned) return;
      resolve({
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderrTail: stderrTail.toString('utf8'),
        exitCode,
        exitSignal,
        killed,
      });
    });
  });
}

function spawnReason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
      return 'it is not executable';
    case 'ENOEXEC':
      return 'it is not a program the system can run (a script needs a #! line)';
    default:
      return error.message;
  }
}

/** The last `lines` non-empty lines of a process's stderr, for error messages. */
export function lastLines(text: string, lines = 5): string {
  const kept = text.trimEnd().split('\n').filter((line) => line.trim() !== '').slice(-lines);
  const joined = kept.join('\n');
  return joined.length > 1000 ? `...${joined.slice(-1000)}` : joined;
}
