// End-to-end: Ctrl-C (SIGINT) stops `nuwa run` on a script that never calls a tool. The run gives
// the event loop a turn every time slice, so the CLI's SIGINT handler gets to abort it. The child is
// killed after 20 s whatever happens, so a regression fails this test instead of hanging the suite.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');

describe('nuwa run: Ctrl-C on a CALL-free loop', () => {
  it('stops the run with AbortedError at the running statement and exit status 1', async () => {
    const child = spawn(process.execPath, [bin, 'run', '-', '--max-steps', '100000000000'], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('start')) resolve();
      });
      child.stdin.end('PRINT("start")\nLET n = 0\nFOR a IN RANGE(1000000) DO\n  FOR b IN RANGE(1000000) DO\n    LET n = n + 1\n  END\nEND\nPRINT("never")\n');
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // well inside the loop
    const sent = performance.now();
    child.kill('SIGINT');
    const status = await exited;
    const reaction = performance.now() - sent;
    clearTimeout(guard);
    expect(status).toBe(1);
    expect(stdout).toBe('start\n');
    expect(stderr).toMatch(/<stdin>:5:5: AbortedError: the run was cancelled: interrupted \(Ctrl-C\)/);
    expect(reaction).toBeLessThan(10_000); // generous: the point is that it stops at all
  }, 30_000);
});
