// `nuwa playground` started as a real process on a free port (--port 0), for tests: its URL (with
// the token), its port and token, and a way to stop it (Ctrl-C, as a user does).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningPlayground {
  url: string;
  origin: string;
  port: number;
  token: string;
  child: ChildProcess;
  stderr(): string;
  /** Sends SIGINT; resolves to the exit status. */
  stop(): Promise<number | null>;
}

/**
 * Starts `nuwa playground --port 0 ...args` (from the repository's root; `port: 'default'` leaves
 * --port out); resolves once it printed its URL.
 */
export function startPlayground(args: string[], env: Record<string, string> = {}, port: number | 'default' = 0): Promise<RunningPlayground> {
  const portArgs = port === 'default' ? [] : ['--port', String(port)];
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'nuwa'), 'playground', ...portArgs, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^(http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))\n/.exec(stdout);
      if (!line) return;
      resolve({
        url: line[1]!,
        origin: `http://127.0.0.1:${line[2]}`,
        port: Number(line[2]),
        token: line[3]!,
        child,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGINT');
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`nuwa playground exited (${code}) before printing its URL: ${stderr}`)));
  });
}
