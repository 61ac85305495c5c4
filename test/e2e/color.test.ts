// Colour on the built command (CLI.md v1.1, src/cli/color.ts): the environment's conventions as the
// colour library reads them (NO_COLOR, FORCE_COLOR, TERM=dumb) in a real process, in pipes and on a
// pseudo-terminal (node-pty). The split between stdout and stderr and the --color / --no-color flags
// of each command are tested in-process in test/unit/cli/color.test.ts; one spawn per behaviour here.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/processes.js';
import { Terminal } from '../support/pty.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');

/** A colour (SGR) escape sequence; readline's cursor moves are not colour. */
const COLOUR = /\u001b\[[0-9;]*m/;

type Env = Record<string, string | undefined>;

/** The environment without any of the variables that decide colour, then `env`. */
function environment(env: Env): Env {
  return { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color', ...env };
}

function pipe(env: Env): string {
  const child = spawnSync(process.execPath, [bin, 'run', '-'], { cwd: root, input: 'PRINT("x")\nLET a = "x" + 1\n', encoding: 'utf8', env: environment(env), timeout: 20_000 });
  expect(child.stdout).toMatch(/x/);
  return child.stdout + child.stderr;
}

describe('nuwa run in pipes', () => {
  it('no colour by default', () => expect(pipe({})).not.toMatch(COLOUR));
  it('colour with FORCE_COLOR', () => expect(pipe({ FORCE_COLOR: '1' })).toMatch(COLOUR));
  it('none with NO_COLOR and FORCE_COLOR both: NO_COLOR wins', () => expect(pipe({ NO_COLOR: '1', FORCE_COLOR: '1' })).not.toMatch(COLOUR));
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

  it('colours by default', async () => expect(await onTerminal(['run', 'join.nuwa'])).toMatch(COLOUR));
  it('not with NO_COLOR', async () => expect(await onTerminal(['run', 'join.nuwa'], { NO_COLOR: '1' })).not.toMatch(COLOUR));
  it('not on a dumb terminal', async () => expect(await onTerminal(['run', 'join.nuwa'], { TERM: 'dumb' })).not.toMatch(COLOUR));

  it('writes no colour into a file stderr was sent to, while stdout stays on the terminal', async () => {
    const dir = tempDir('nuwa-color-');
    const errors = path.join(dir, 'errors.txt');
    expect(await onTerminal(['run', 'join.nuwa'], {}, `"$NODE" "$NUWA" "$@" 2> "${errors}"`)).toBe('MSFT\r\n');
    expect(readFileSync(errors, 'utf8')).toMatch(/^join\.nuwa:3:29: TypeError: /);
    expect(readFileSync(errors, 'utf8')).not.toMatch(COLOUR);
  });
});
