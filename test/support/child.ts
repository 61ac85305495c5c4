// Runs a piece of hostile code in a child Node process with a memory cap and a kill timeout, so that a
// regression (a crash, an unhandled rejection, a hang, a heap blow-up) fails one test instead of
// taking the test run down. The child is a plain host: no unhandledRejection or uncaughtException
// handler, so anything that escapes kills it with a non-zero status, as it would kill a real host.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The URL of a source module, for `import` in child code: `${src('index.ts')}`. */
export function src(file: string): string {
  return pathToFileURL(path.join(root, 'src', file)).href;
}

export interface ChildResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the child was killed for running past `timeoutMs`. */
  timedOut: boolean;
}

export interface ChildOptions {
  timeoutMs?: number;
  maxOldSpaceMb?: number;
  /** Extra node flags, e.g. --expose-gc. */
  nodeArgs?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/** Runs `code` (an ES module body that imports the sources through tsx) in a plain child host. */
export function runChild(code: string, options: ChildOptions = {}): Promise<ChildResult> {
  const { timeoutMs = 20_000, maxOldSpaceMb = 256, nodeArgs = [], env = {} } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${maxOldSpaceMb}`, ...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, timedOut });
    });
  });
}

/** The last line of a child's stdout, parsed as JSON (children report their findings that way). */
export function lastJson(result: ChildResult): unknown {
  const lines = result.stdout.trim().split('\n');
  const last = lines[lines.length - 1];
  if (!last) throw new Error(`the child printed nothing (status ${result.status}, signal ${result.signal}):\n${result.stderr}`);
  return JSON.parse(last);
}
