// When the CLI colours (CLI.md v1.1, src/cli/color.ts): the colour library's verdict (NO_COLOR,
// FORCE_COLOR, CI, TERM=dumb, a terminal) shared out to stdout and stderr, and --color / --no-color
// on every command that colours (run, check, repl, tools, runs), through `main` in-process. The
// environment variables and real terminals are tested on the built command in test/e2e/color.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { colorFlag, detectColor } from '../../../src/cli/color.js';
import type { CliIO } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { replCommand } from '../../../src/cli/repl.js';
import { tempDir } from '../../support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tools = path.join(root, 'examples', 'tools.mjs');

/** A colour (SGR) escape sequence. */
const COLOUR = /\u001b\[[0-9;]*m/;

describe('detectColor: the library says whether to colour; stderr follows unless it alone is redirected', () => {
  it.each([
    // terminals (stdout, stderr), the library's verdict → colour on stdout, stderr
    [true, true, true, true, true],
    [true, false, true, true, false], // `nuwa run x 2> errors.txt`: no escapes in the file
    [false, true, true, true, true], // `nuwa run x | less`: the verdict was forced (FORCE_COLOR), and forcing colours every stream
    [false, false, true, true, true], // FORCE_COLOR into pipes
    [true, true, false, false, false], // NO_COLOR or TERM=dumb on a terminal
    [false, false, false, false, false], // pipes, nothing forced
  ])('stdout a terminal: %s, stderr: %s, verdict %s → stdout %s, stderr %s', (stdout, stderr, verdict, onStdout, onStderr) => {
    expect(detectColor({ stdout, stderr }, verdict)).toEqual({ stdout: onStdout, stderr: onStderr });
  });
});

describe('colorFlag', () => {
  it.each([
    [['x.nuwa'], undefined],
    [['x.nuwa', '--color'], true],
    [['--no-color', 'x.nuwa'], false],
    [['--color', '--no-color'], false],
    [['--no-color', '--color'], true],
    [['x.nuwa', '--', '--color'], undefined], // after `--`, a script's argument
  ])('%j → %s', (args, flag) => {
    expect(colorFlag(args)).toBe(flag);
  });
});

/** An io whose environment said "no colour" (or "colour", with `color`), as a pipe would. */
function io(cwd: string, input = '', color = false) {
  const out = { stdout: '', stderr: '' };
  const cli: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readStdin: async () => input, interactive: false, color, colorStdout: color, cwd };
  return { out, cli };
}

/** A folder with a durable run that waits for the approval of place_order, then fails once approved. */
async function pausedRun(): Promise<string> {
  const dir = tempDir('nuwa-color-');
  writeFileSync(path.join(dir, 'trade.nuwa'), 'LET order = CALL place_order { symbol: "AAPL", side: "buy", quantity: 1 }\nLET oops = order.quantity + "x"\n');
  expect(await main(['run', 'trade.nuwa', '--tools', tools, '--durable', '--run-id', 'r1'], io(dir).cli)).toBe(3);
  return dir;
}

/** Each command that colours, with the given flags: what it printed on stdout and stderr together. */
const COMMANDS: Record<string, (flags: string[], color?: boolean) => Promise<string>> = {
  run: (flags, color) => shown(['run', '-', ...flags], 'LET a = "x" + 1\n', color),
  check: (flags, color) => shown(['check', '-', ...flags], 'PRINT(undefined_name)\n', color),
  tools: (flags, color) => shown(['tools', '--tools', tools, ...flags], '', color),
  runs: async (flags, color) => shown(['runs', 'approve', 'r1', ...flags], '', color, await pausedRun()),
};

async function shown(args: string[], input: string, color = false, cwd = root): Promise<string> {
  const { out, cli } = io(cwd, input, color);
  await main(args, cli);
  const text = out.stdout + out.stderr;
  expect(text).toMatch(/\S/); // it printed what could be coloured
  return text;
}

describe.each(Object.keys(COMMANDS))('nuwa %s --color / --no-color', (command) => {
  const run = COMMANDS[command]!;

  it('--color colours where the environment said no; --no-color does not where it said yes; the later flag counts', async () => {
    expect(await run([])).not.toMatch(COLOUR);
    expect(await run(['--color'])).toMatch(COLOUR);
    expect(await run([], true)).toMatch(COLOUR);
    expect(await run(['--no-color'], true)).not.toMatch(COLOUR);
    expect(await run(['--no-color', '--color'])).toMatch(COLOUR);
    expect(await run(['--color', '--no-color'], true)).not.toMatch(COLOUR);
  });
});

describe('nuwa repl', () => {
  async function repl(args: string[], color: boolean) {
    const { out, cli } = io(root, '', color);
    const status = await replCommand(args, cli, { input: Readable.from(['"text"\nLET a = "x" + 1\n']), output: new PassThrough(), terminal: false });
    return { status, ...out };
  }

  it('colours values and errors in a pipe too when told to, and accepts both flags', async () => {
    const coloured = await repl(['--color'], true);
    expect(coloured.stdout).toMatch(COLOUR);
    expect(coloured.stderr).toMatch(COLOUR);
    const plain = await repl(['--no-color'], false);
    expect(plain.stdout).toBe('"text"\n');
    expect(plain.stderr).not.toMatch(COLOUR);
  });
});
