// Colour follows the usual conventions through the colour library (CLI.md v1.1, src/cli/color.ts):
// NO_COLOR, FORCE_COLOR, TERM=dumb, and --color / --no-color on every command that colours (run,
// check, repl, tools, runs). In pipes with spawnSync, and on a real pseudo-terminal (node-pty)
// where the default needs one. Each test spawns bin/nuwa (the built package).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/processes.js';
import { Terminal } from '../support/pty.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'examples', 'tools.mjs');

/** A colour (SGR) escape sequence; readline's cursor moves are not colour. */
const COLOUR = /\u001b\[[0-9;]*m/;

type Env = Record<string, string | undefined>;

/** The environment without any of the variables that decide colour, then `env`. */
function environment(env: Env): Env {
  return { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color', ...env };
}

/** A folder with a durable run that waits for the approval of place_order, then fails. */
function pausedRun(): string {
  const dir = tempDir('nuwa-color-');
  writeFileSync(path.join(dir, 'trade.nuwa'), 'LET order = CALL place_order { symbol: "AAPL", side: "buy", quantity: 1 }\nLET oops = order.quantity + "x"\n');
  const paused = spawnSync(process.execPath, [bin, 'run', 'trade.nuwa', '--tools', tools, '--durable', '--run-id', 'r1'], { cwd: dir, encoding: 'utf8', input: '', env: environment({ NO_COLOR: '1' }), timeout: 20_000 });
  expect(paused.status).toBe(3);
  return dir;
}

/** Each command that colours, run in pipes: what it printed on stdout and stderr together. */
const COMMANDS: Record<string, (flags: string[], env: Env) => string> = {
  run: (flags, env) => pipe(['run', '-', ...flags], 'LET a = "x" + 1\n', env),
  check: (flags, env) => pipe(['check', '-', ...flags], 'PRINT(undefined_name)\n', env),
  repl: (flags, env) => pipe(['repl', ...flags], '"text"\nLET a = "x" + 1\n', env),
  tools: (flags, env) => pipe(['tools', '--tools', tools, ...flags], '', env),
  runs: (flags, env) => pipe(['runs', 'approve', 'r1', ...flags], '', env, pausedRun()),
};

function pipe(args: string[], input: string, env: Env, cwd = root): string {
  const child = spawnSync(process.execPath, [bin, ...args], { cwd, input, encoding: 'utf8', env: environment(env), timeout: 20_000 });
  const shown = child.stdout + child.stderr;
  expect(shown).toMatch(/\S/); // it printed what could be coloured
  return shown;
}

describe.each(Object.keys(COMMANDS))('nuwa %s in pipes', (command) => {
  const shown = (flags: string[], env: Env = {}) => COMMANDS[command]!(flags, env);

  it('no colour by default (not a terminal), nor with NO_COLOR and FORCE_COLOR both (NO_COLOR wins)', () => {
    expect(shown([])).not.toMatch(COLOUR);
    expect(shown([], { NO_COLOR: '1', FORCE_COLOR: '1' })).not.toMatch(COLOUR);
  });

  it('colour with FORCE_COLOR, and with --color (even against NO_COLOR: the command line wins)', () => {
    expect(shown([], { FORCE_COLOR: '1' })).toMatch(COLOUR);
    expect(shown(['--color'])).toMatch(COLOUR);
    expect(shown(['--color'], { NO_COLOR: '1' })).toMatch(COLOUR);
  });

  it('no colour with --no-color, even against FORCE_COLOR; of the two flags, the later one counts', () => {
    expect(shown(['--no-color'], { FORCE_COLOR: '1' })).not.toMatch(COLOUR);
    expect(shown(['--color', '--no-color'])).not.toMatch(COLOUR);
    expect(shown(['--no-color', '--color'])).toMatch(COLOUR);
  });
});

describe('on a terminal', () => {
  const open: Terminal[] = [];
  afterEach(() => {
    for (const terminal of open.splice(0)) terminal.kill();
  });

  /**
   * `nuwa <args>` on a pseudo-terminal, in a folder with join.nuwa (a script that prints a line and
   * fails), through a shell line (`NUWA` and `NODE` name the command) that can also redirect. The
   * pty library sets TERM itself: a TERM of the test's is set by that shell.
   */
  async function onTerminal(args: string[], env: Env = {}, shell = '"$NODE" "$NUWA" "$@"'): Promise<string> {
    const dir = tempDir('nuwa-color-');
    writeFileSync(path.join(dir, 'join.nuwa'), 'PRINT("MSFT")\nLET price = 415.5\nLET message = "MSFT is at " + price\n');
    const { TERM, ...rest } = env;
    const line = `${TERM === undefined ? '' : `export TERM=${TERM}; `}${shell}`;
    const terminal = new Terminal('bash', ['-c', line, 'bash', ...args], { cwd: dir, env: environment({ ...rest, NUWA: bin, NODE: process.execPath }) });
    open.push(terminal);
    await terminal.exit();
    expect(terminal.text).toMatch(/\S/);
    return terminal.raw;
  }

  it('colours by default, and not with NO_COLOR, TERM=dumb or --no-color', async () => {
    expect(await onTerminal(['run', 'join.nuwa'])).toMatch(COLOUR);
    expect(await onTerminal(['tools', '--tools', tools])).toMatch(COLOUR);
    expect(await onTerminal(['run', 'join.nuwa'], { NO_COLOR: '1' })).not.toMatch(COLOUR);
    expect(await onTerminal(['run', 'join.nuwa'], { TERM: 'dumb' })).not.toMatch(COLOUR);
    expect(await onTerminal(['run', 'join.nuwa', '--no-color'])).not.toMatch(COLOUR);
    expect(await onTerminal(['tools', '--tools', tools, '--no-color'])).not.toMatch(COLOUR);
  });

  it('FORCE_COLOR and --color colour a dumb terminal too', async () => {
    expect(await onTerminal(['run', 'join.nuwa'], { TERM: 'dumb', FORCE_COLOR: '1' })).toMatch(COLOUR);
    expect(await onTerminal(['run', 'join.nuwa', '--color'], { TERM: 'dumb' })).toMatch(COLOUR);
  });

  it('writes no colour into a file stderr was sent to, while stdout stays on the terminal', async () => {
    const dir = tempDir('nuwa-color-');
    const errors = path.join(dir, 'errors.txt');
    expect(await onTerminal(['run', 'join.nuwa'], {}, `"$NODE" "$NUWA" "$@" 2> "${errors}"`)).toBe('MSFT\r\n');
    expect(readFileSync(errors, 'utf8')).toMatch(/^join\.nuwa:3:29: TypeError: /);
    expect(readFileSync(errors, 'utf8')).not.toMatch(COLOUR);
  });
});
