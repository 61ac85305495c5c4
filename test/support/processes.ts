// Helpers for tests that start real tool processes: writing executable tools, and waiting for a
// process to be gone (a zombie counts as gone: it no longer runs).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function tempDir(prefix = 'nuwa-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Writes an executable file (a script with its #! line) into `dir`. */
export function writeTool(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

/**
 * A bash tool: `--tool-info` prints `info` (an object, or raw text), a call runs `call` (bash; its
 * stdin holds the arguments as JSON).
 */
export function bashTool(dir: string, name: string, info: object | string, call: string): string {
  const infoText = typeof info === 'string' ? info : JSON.stringify(info);
  return writeTool(dir, name, `#!/usr/bin/env bash\nif [ "$1" = "--tool-info" ]; then\ncat <<'INFO'\n${infoText}\nINFO\nexit 0\nfi\n${call}\n`);
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function waitFor(condition: () => boolean, timeoutMs = 25_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** The pids a tool wrote into `file` (one per line), once it has written `count` of them. */
export async function readPids(file: string, count: number): Promise<number[]> {
  const read = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : []);
  await waitFor(() => read().length >= count);
  return read();
}

const nuwaBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/nuwa');

/** A `bin/nuwa` process started by startNuwa: what it has printed so far, and its exit status to come. */
export interface StartedNuwa {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

/** Starts `bin/nuwa` with `args` and `input` on its stdin; resolves once its stdout has shown `ready`. */
export function startNuwa(args: string[], input: string, ready: string): Promise<StartedNuwa> {
  const child = spawn(process.execPath, [nuwaBin, ...args], { cwd: path.dirname(path.dirname(nuwaBin)), env: { ...process.env, NO_COLOR: '1' } });
  const started: StartedNuwa = { child, stdout: '', stderr: '', exited: new Promise((resolve) => child.on('close', resolve)) };
  child.stderr!.on('data', (chunk: Buffer) => (started.stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      started.stdout += chunk.toString();
      if (started.stdout.includes(ready)) resolve(started);
    });
    child.stdin!.end(input);
  });
}
