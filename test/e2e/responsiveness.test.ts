// End-to-end: Ctrl-C (SIGINT) stops `nuwa run` on a script that never calls a tool. The run gives
// the event loop a turn every time slice, so the CLI's SIGINT handler gets to abort it. The child is
// killed after 20 s whatever happens, so a regression fails this test instead of hanging the suite.
import { describe, expect, it } from 'vitest';
import { startNuwa } from '../support/processes.js';

describe('nuwa run: Ctrl-C on a CALL-free loop', () => {
  it('stops the run with AbortedError at the running statement and exit status 1', async () => {
    const run = await startNuwa(
      ['run', '-', '--max-steps', '100000000000'],
      'PRINT("start")\nLET n = 0\nFOR a IN RANGE(1000000) DO\n  FOR b IN RANGE(1000000) DO\n    LET n = n + 1\n  END\nEND\nPRINT("never")\n',
      'start',
    );
    const guard = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // well inside the loop
    const sent = performance.now();
    run.child.kill('SIGINT');
    const status = await run.exited;
    const reaction = performance.now() - sent;
    clearTimeout(guard);
    expect(status).toBe(1);
    expect(run.stdout).toBe('start\n');
    expect(run.stderr).toMatch(/<stdin>:5:5: AbortedError: the run was cancelled: interrupted \(Ctrl-C\)/);
    expect(reaction).toBeLessThan(10_000); // generous: the point is that it stops at all
  }, 30_000);
});
