// What the shared set-up of the commands says while it loads tools (src/cli/setup.ts): an MCP
// server slow to start is announced on a terminal's stderr, and named once it is up; where stderr
// is not a terminal nothing is added. Fake timers stand in for the wait (the real server on a real
// terminal: test/e2e/tools-outside.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../../src/cli/io.js';
import { SLOW_START_MS, slowStartNotes } from '../../../src/cli/setup.js';
import type { McpConnection } from '../../../src/tools/outside.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const connection: McpConnection = { name: 'files', server: { name: 'files-server', version: '2.0.1' }, tools: ['files.read', 'files.write'], failures: [], pid: 1, close: async () => {} };

function io(progress: boolean) {
  const out = { stderr: '' };
  const cli: CliIO = { stdout: () => {}, stderr: (t) => void (out.stderr += t), readStdin: async () => '', interactive: false, color: false, progress, cwd: '/' };
  return { out, cli };
}

/** Starts a server that is up after `ms`, and what stderr showed before and after. */
async function start(progress: boolean, ms: number) {
  const { out, cli } = io(progress);
  let up!: (value: McpConnection) => void;
  const started = slowStartNotes(cli, 'npx files-server /data', () => new Promise<McpConnection>((resolve) => (up = resolve)));
  await vi.advanceTimersByTimeAsync(ms);
  const whileStarting = out.stderr;
  up(connection);
  expect(await started).toBe(connection);
  return { whileStarting, after: out.stderr.slice(whileStarting.length) };
}

describe('an MCP server that is slow to start', () => {
  it('is announced on a terminal once it takes longer than a second, and named once it is up', async () => {
    expect(await start(true, SLOW_START_MS + 1_500)).toEqual({
      whileStarting: 'nuwa: starting the MCP server `npx files-server /data`...\n',
      after: 'nuwa: MCP server `npx files-server /data` ready after 2.5 s: files-server 2.0.1, 2 tools as files.*\n',
    });
  });

  it('is not announced when it starts within the second', async () => {
    expect(await start(true, SLOW_START_MS - 1)).toEqual({ whileStarting: '', after: '' });
  });

  it('is not announced where stderr is no terminal: a program reading it gets only warnings and errors', async () => {
    expect(await start(false, 10_000)).toEqual({ whileStarting: '', after: '' });
  });
});
