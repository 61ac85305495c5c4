// `nuwa tools` and the REPL's .tools with nothing loaded, in-process: they name every way to load
// tools (--tools, --tools-dir, --mcp, --std), not only --tools (issue 20). The listing of loaded
// tools runs the built command in test/e2e/tools-cli.test.ts.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { replCommand } from '../../../src/cli/repl.js';

const WAYS = '--tools <module> (an ES module), --tools-dir <dir> (programs in any language), --mcp "<command>" (an MCP server) or --std (the standard tools)';

function io() {
  const out = { stdout: '', stderr: '' };
  const cli: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readStdin: async () => '', interactive: false, color: false, cwd: process.cwd() };
  return { out, cli };
}

describe('no tools loaded', () => {
  it('nuwa tools says so, and every way to load some', async () => {
    const { out, cli } = io();
    expect(await main(['tools'], cli)).toBe(0);
    expect(out).toEqual({ stdout: `No tools are loaded. Load some with ${WAYS}.\n`, stderr: '' });
  });

  it('nuwa tools <name> too, as a usage error', async () => {
    const { out, cli } = io();
    expect(await main(['tools', 'get_price'], cli)).toBe(2);
    expect(out.stderr).toBe(`nuwa: there is no tool "get_price" (no tools are loaded: load some with ${WAYS})\nRun \`nuwa tools --help\` for usage.\n`);
  });

  it("the REPL's .tools says the same", async () => {
    const { out, cli } = io();
    expect(await replCommand([], cli, { input: Readable.from(['.tools\n']), output: new PassThrough(), terminal: false })).toBe(0);
    expect(out.stdout).toBe(`No tools are loaded: start the REPL with ${WAYS} to load some.\n`);
  });
});
