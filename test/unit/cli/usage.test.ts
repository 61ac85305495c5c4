// Usage mistakes on the command line (CLI.md v1.1, issue 20), through `main` in-process: a misspelt
// command is answered with the closest commands, a usage error points at the help of the command it
// was made in, and an option given a value it cannot take (a negative limit, a missing value) is one
// line saying what the option takes, never Node's own three-line message. (The real process prints
// the same: the console examples of docs/cli.md run bin/nuwa.)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function nuwa(args: string[], input = '') {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readStdin: async () => input, interactive: false, color: false, cwd: root };
  const status = await main(args, io);
  return { status, ...out };
}

const fixtures = path.join(root, 'test', 'e2e', 'fixtures');

const COMMANDS = ['run', 'check', 'repl', 'tools', 'prompt', 'mcp', 'runs', 'playground'];

describe('a misspelt command', () => {
  it.each([
    ['runz', 'unknown command `runz`: did you mean `run` or `runs`?'],
    ['chek', 'unknown command `chek`: did you mean `check`?'],
    ['tool', 'unknown command `tool`: did you mean `tools`?'],
    ['playgrond', 'unknown command `playgrond`: did you mean `playground`?'],
    ['fly', 'unknown command `fly`: the commands are run, check, repl, tools, prompt, mcp, runs, playground, help'],
    ['--json', 'unknown option `--json`: options go after the command, as in nuwa run <file> --json'],
  ])('%s: the closest commands, and status 2', async (command, message) => {
    expect(await nuwa([command])).toEqual({ status: 2, stdout: '', stderr: `nuwa: ${message}\nRun \`nuwa --help\` for usage.\n` });
  });

  it('also in `nuwa help <command>` and `nuwa runs <command>`', async () => {
    expect((await nuwa(['help', 'runz'])).stderr).toBe('nuwa: unknown command `runz`: did you mean `run` or `runs`?\nRun `nuwa --help` for usage.\n');
    expect((await nuwa(['runs', 'lst', '--store', path.join(root, 'no-such-store')])).stderr).toBe(
      'nuwa: unknown runs command `lst`: did you mean `list`?\nRun `nuwa runs --help` for usage.\n',
    );
  });
});

describe('a usage error points at the help of its command', () => {
  it.each(COMMANDS)('nuwa %s', async (command) => {
    const result = await nuwa([command, '--frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^nuwa: unknown option \`--frobnicate\`.*\\nRun \`nuwa ${command} --help\` for usage\\.\\n$`));
    // ... and that help exists: the command's own usage, also through `nuwa help <command>`.
    const help = await nuwa([command, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: nuwa ${command}\\b`));
    expect((await nuwa(['help', command])).stdout).toBe(help.stdout);
  });
});

describe('options that take a number', () => {
  it.each([
    [['run', '-', '--max-steps', '-1'], '--max-steps -1: expected a whole number, 0 or more', 'run'],
    [['run', '-', '--max-tool-calls', '-2'], '--max-tool-calls -2: expected a whole number, 0 or more', 'run'],
    [['run', '-', '--timeout', '-5'], '--timeout -5: expected a whole number of milliseconds, 0 or more', 'run'],
    [['run', '-', '--timeout=-5'], '--timeout -5: expected a whole number of milliseconds, 0 or more', 'run'],
    [['run', '-', '--timeout', '1.5'], '--timeout 1.5: expected a whole number of milliseconds, 0 or more', 'run'],
    [['run', '-', '--max-source-bytes', '-1'], '--max-source-bytes -1: expected a whole number of bytes, 0 or more', 'run'],
    [['run', '-', '--max-steps', 'lots'], '--max-steps lots: expected a whole number, 0 or more', 'run'],
    [['run', '-', '--max-steps'], '--max-steps needs a value: a whole number, 0 or more', 'run'],
    [['repl', '--timeout', '-1'], '--timeout -1: expected a whole number of milliseconds, 0 or more', 'repl'],
    [['mcp', '--max-steps', '-1'], '--max-steps -1: expected a whole number, 0 or more', 'mcp'],
    [['playground', '--port', '-1'], '--port -1: expected a port number from 0 to 65535', 'playground'],
    [['playground', '--port', '70000'], '--port 70000: expected a port number from 0 to 65535', 'playground'],
    [['playground', '--max-tool-calls', '-3'], '--max-tool-calls -3: expected a whole number, 0 or more', 'playground'],
  ])('%j: one line saying what the option takes, status 2', async (args, message, command) => {
    expect(await nuwa(args)).toEqual({ status: 2, stdout: '', stderr: `nuwa: ${message}\nRun \`nuwa ${command} --help\` for usage.\n` });
  });

  it('other options without their value, or with one they do not take', async () => {
    expect((await nuwa(['run', '-', '--tools', 'a.mjs', '--tools', '--yes'])).stderr).toBe(
      'nuwa: --tools needs a value, and --yes is an option (a value that starts with - is written --tools=--yes)\nRun `nuwa run --help` for usage.\n',
    );
    expect((await nuwa(['run', '-', '--trace'])).stderr).toBe('nuwa: --trace needs a value\nRun `nuwa run --help` for usage.\n');
    expect((await nuwa(['run', '-', '--yes=1'])).stderr).toBe('nuwa: --yes takes no value\nRun `nuwa run --help` for usage.\n');
  });
});

describe('usage errors exit 2', () => {
  it.each([
    ['an unknown option', ['run', '-', '--frobnicate'], /^nuwa: unknown option `--frobnicate`\n/],
    ['a misspelt option', ['run', '-', '--tool', 'x.mjs'], /unknown option `--tool`: did you mean `--tools`, `--root` or `--tools-dir`\?/],
    ["another command's option", ['check', '-', '--chek'], /unknown option `--chek`(?!: did you mean `--check`)/],
    ['a missing script file', ['run', 'no/such/file.nuwa'], /cannot read no\/such\/file\.nuwa: no such file/],
    ['no script at all', ['run'], /needs a script file/],
    ['a tools module that throws while loading', ['run', '-', '--tools', path.join(fixtures, 'tools-broken.mjs')], /cannot load tools from .*cannot reach the tool server/],
    ['a tools module with a bad export', ['run', '-', '--tools', path.join(fixtures, 'tools-bad-export.mjs')], /default export must be a list/],
    ['a missing tools module', ['run', '-', '--tools', 'nope.mjs'], /cannot load tools from nope\.mjs: no such file/],
    ['a malformed --var', ['run', '-', '--var', 'novalue'], /--var novalue: write --var name=<json>/],
    ['a missing --state file', ['run', '-', '--state', 'missing.json'], /--state missing\.json: no such file/],
  ])('%s', async (_name, args, message) => {
    const result = await nuwa(args, 'PRINT(1)');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|node:internal|file:\/\//); // one line and a pointer, no stack
  });

  it('rejects a --state file that is not a JSON object', async () => {
    const state = path.join(mkdtempSync(path.join(tmpdir(), 'nuwa-usage-')), 'state.json');
    writeFileSync(state, '[1, 2]');
    const result = await nuwa(['run', '-', '--state', state], 'PRINT(1)');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/must hold a JSON object/);
  });
});
