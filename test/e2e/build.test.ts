// `npm run build` never leaves a moment without a working dist/ (issue 20): it builds into a
// folder of its own and moves the files in one by one (scripts/build.ts). The whole build runs
// here, against this very checkout, while `nuwa` is used over and over; and the step that moves
// the files is checked on its own.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replaceTree } from '../../scripts/build/replace-tree.js';
import { tempDir } from '../support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

function read(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(out, read(dir, relative));
    else out[relative] = readFileSync(path.join(dir, relative), 'utf8');
  }
  return out;
}

describe('replaceTree', () => {
  it('leaves the target with exactly the new files: replaced, added, and the stale ones gone', () => {
    const dir = tempDir('nuwa-build-');
    const source = path.join(dir, 'new');
    const target = path.join(dir, 'dist');
    write(target, { 'a.js': 'old a', 'cli/main.js': 'old main', 'cli/gone.js': 'stale', 'gone/x.js': 'stale', 'was-file': 'a file', 'was-folder/y.js': 'y' });
    write(source, { 'a.js': 'new a', 'cli/main.js': 'new main', 'cli/added.js': 'added', 'was-file/z.js': 'now a folder', 'was-folder': 'now a file' });
    replaceTree(source, target);
    expect(read(target)).toEqual({ 'a.js': 'new a', 'cli/main.js': 'new main', 'cli/added.js': 'added', 'was-file/z.js': 'now a folder', 'was-folder': 'now a file' });
    expect(existsSync(path.join(target, 'gone'))).toBe(false);
  });

  it('creates the target when there is none yet (a fresh clone)', () => {
    const dir = tempDir('nuwa-build-');
    write(path.join(dir, 'new'), { 'index.js': 'x', 'cli/main.js': 'y' });
    replaceTree(path.join(dir, 'new'), path.join(dir, 'dist'));
    expect(read(path.join(dir, 'dist'))).toEqual({ 'index.js': 'x', 'cli/main.js': 'y' });
  });
});

/** `nuwa run examples/hello.nuwa`, started now; waiting for it lets the build's events through. */
function hello(): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'run', 'examples/hello.nuwa'], { cwd: root, env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run build', () => {
  it('keeps nuwa working while it builds, and removes nothing it still makes', async () => {
    const before = read(path.join(root, 'dist'));
    const expected = (await hello()).stdout;
    expect(expected).toMatch(/^Hello, world\n/);
    const build = spawn('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const status = new Promise<number | null>((resolve) => build.on('close', resolve));
    let done = false;
    void status.then(() => (done = true));

    // The whole time the build runs, the CLI's files are there (looked at every few milliseconds,
    // which costs nothing), and the CLI is used every half second: every run must work, whenever it
    // starts. (Runs back to back would spend a core on starting Node for the whole build.)
    const failures: string[] = [];
    let runs = 0;
    const runsInFlight: Promise<void>[] = [];
    let nextRun = 0;
    while (!done) {
      for (const file of ['cli/main.js', 'index.js']) {
        if (!existsSync(path.join(root, 'dist', file)) && !failures.includes(`dist/${file} was missing`)) failures.push(`dist/${file} was missing`);
      }
      if (performance.now() >= nextRun) {
        nextRun = performance.now() + 500;
        const number = ++runs;
        runsInFlight.push(
          hello().then((run) => {
            if (run.status !== 0 || run.stdout !== expected) failures.push(`run ${number}: status ${run.status}: ${run.stderr}`);
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(runsInFlight);
    expect(await status, output).toBe(0);
    expect(failures).toEqual([]);
    expect(runs).toBeGreaterThan(1);
    // The same sources build the same files: the build removed and changed nothing.
    expect(Object.keys(read(path.join(root, 'dist'))).sort()).toEqual(Object.keys(before).sort());
    expect(readdirSync(root).filter((name) => name.startsWith('.dist-build-'))).toEqual([]);
  }, 240_000);
});
