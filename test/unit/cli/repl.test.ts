// `nuwa repl` driven in-process through its streams, as with piped stdin: no prompts, no colour,
// results on stdout, errors on stderr, exit status 1 when any entry failed. (The terminal side —
// completion, continuation prompts, Ctrl-C, history — is tested on a real pseudo-terminal in
// test/e2e/repl.test.ts.)
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { replCommand } from '../../../src/cli/repl.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const replTools = path.join(root, 'test/e2e/fixtures/tools-repl.mjs');

function io(cwd: string) {
  const out = { stdout: '', stderr: '' };
  const cli: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readStdin: async () => '', interactive: false, color: false, cwd };
  return { out, cli };
}

async function repl(input: string, args: string[] = [], cwd = root) {
  const { out, cli } = io(cwd);
  const status = await replCommand(args, cli, { input: Readable.from([input]), output: new PassThrough(), terminal: false });
  return { status, ...out };
}

describe('nuwa repl with piped input', () => {
  it('keeps variables across entries and shows the value of a bare expression', async () => {
    const result = await repl(['LET x = 1', 'x + 1', 'LET x = x + 10', 'x', 'PRINT(FORMAT("x is {x}", { x: x }))', '"text"', '{ a: [1, true, null], "b c": "d" }', ''].join('\n'));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(['2', '11', 'x is 11', '"text"', '{ a: [1, true, null], "b c": "d" }', ''].join('\n'));
    expect(result.status).toBe(0);
  });

  it('continues an entry over lines while an IF, FOR, bracket or string is open', async () => {
    const input = ['LET total = 0', 'FOR n IN [1, 2,', '  3] DO', '  IF n > 1 THEN', '    LET total = total + n', '  END', 'END', 'total', 'PRINT("two', 'lines")', 'LET x =', '  5', 'x', ''].join('\n');
    const result = await repl(input);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('5\ntwo\nlines\n5\n');
  });

  it('reports an error like run does, at once, and goes on with the state it had', async () => {
    const input = ['LET a = 1 LET b = a / 0', 'LET c = )', 'a', 'b', ''].join('\n');
    const result = await repl(input);
    expect(result.stderr).toBe(
      [
        '<repl>:1:21: DivisionByZeroError: `/` by zero: check the divisor before dividing',
        '1 | LET a = 1 LET b = a / 0',
        '  |                     ^',
        '<repl>:1:9: SyntaxError: ' + result.stderr.split('\n')[3]!.split('SyntaxError: ')[1],
        '1 | LET c = )',
        '  |         ^',
        '<repl>:1:1: UndefinedVariableError: ' + result.stderr.split('\n')[6]!.split('UndefinedVariableError: ')[1],
        '1 | b',
        '  | ^',
        '',
      ].join('\n'),
    );
    expect(result.stdout).toBe('1\n'); // a kept its value from the failed entry
    expect(result.status).toBe(1);
  });

  it('reports an entry left unfinished at the end of the input', async () => {
    const result = await repl('IF true THEN\n  PRINT("never")\n');
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^<repl>:2:\d+: SyntaxError: .*\n1 \| IF true THEN\n2 \|   PRINT\("never"\)\n/);
    expect(result.status).toBe(1);
  });

  it('lists and describes tools', async () => {
    const result = await repl('.tools\n.tools get_price\n.tools get_prise\n', ['--tools', replTools]);
    expect(result.stdout).toContain('get_price      none         data     module      The price of a symbol.\n');
    expect(result.stdout).toContain('math.add       none         custom   module      Adds two numbers.\n');
    expect(result.stdout).toContain('remember       write        custom   module      Stores a note in the session state.\n');
    expect(result.stdout).toContain(
      [
        'get_price: The price of a symbol. Always 42 here.',
        '  risk level: none',
        '  category: data, source: module',
        '  arguments:',
        '    symbol (string, required): a ticker',
        '    currency (string, optional, default "USD", one of "USD", "EUR")',
        '  result: number',
        '  call: CALL get_price { symbol: … }',
      ].join('\n'),
    );
    expect(result.stderr).toBe('there is no tool named get_prise: did you mean `get_price`? (.tools lists them)\n');
    expect(result.status).toBe(1);
  });

  it('shows variables and state, and .reset goes back to --var and --state', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-repl-'));
    writeFileSync(path.join(dir, 'state.json'), '{"mood": "calm"}');
    const input = ['.vars', '.state', 'LET limit = 10', 'LET extra = [1, 2]', 'CALL remember { note: "hi" }', '.vars', '.state', '.reset', '.vars', '.state', 'extra', ''].join('\n');
    const result = await repl(input, ['--tools', replTools, '--var', 'limit=3', '--state', 'state.json', '--yes'], dir);
    expect(result.stdout).toBe(
      [
        'limit = 3',
        'mood = "calm"',
        '"noted"',
        'limit = 10',
        'extra = [1, 2]',
        'mood = "calm"',
        'note = "hi"',
        'The variables, state and entries are reset.',
        'limit = 3',
        'mood = "calm"',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toMatch(/^<repl>:1:1: UndefinedVariableError: /);
  });

  it('.save writes the entries that ran as a script, and .load runs a file as one entry', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-repl-'));
    const input = ['LET a = 2', 'LET b = a / 0', 'FOR i IN [1, 2] DO', '  LET a = a * 10', 'END', 'a', '.save session.nuwa', '.reset', '.load session.nuwa', 'a', '.load missing.nuwa', ''].join('\n');
    const result = await repl(input, [], dir);
    expect(readFileSync(path.join(dir, 'session.nuwa'), 'utf8')).toBe('LET a = 2\nFOR i IN [1, 2] DO\n  LET a = a * 10\nEND\na\n');
    expect(result.stdout).toBe('200\nSaved 3 entries to session.nuwa.\nThe variables, state and entries are reset.\n200\n200\n');
    expect(result.stderr).toContain('.load missing.nuwa: no such file\n');
  });

  it('reports errors of a loaded file at their place in the file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-repl-'));
    writeFileSync(path.join(dir, 'broken.nuwa'), 'LET ok = 1\nLET bad = ok.name\n');
    const result = await repl('.load broken.nuwa\nok\n', [], dir);
    expect(result.stderr).toMatch(/^broken\.nuwa:2:14: MemberAccessError: .*\n1 \| LET ok = 1\n2 \| LET bad = ok\.name\n {2}\| {14}\^\n$/);
    expect(result.stdout).toBe('1\n');
  });

  it('.exit stops reading; an unknown command is an error', async () => {
    const result = await repl('.nope\n.exit\nPRINT("not run")\n');
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('unknown command .nope: .help lists the commands\n');
    expect(result.status).toBe(1);
  });

  it('.help describes the commands', async () => {
    const result = await repl('.help\n');
    for (const command of ['.help', '.tools', '.tools <name>', '.vars', '.state', '.reset', '.load <file>', '.save <file>', '.exit']) expect(result.stdout).toContain(`  ${command} `);
    expect(result.status).toBe(0);
  });

  it('denies calls that need approval without a terminal, and approves them with --yes', async () => {
    const denied = await repl('CALL remember { note: "x" }\n', ['--tools', replTools]);
    expect(denied.stderr).toContain('ToolDeniedError: the call to `remember` (a write action) was denied: nuwa repl approves such calls only when asked on a terminal, or with --yes');
    const approved = await repl('CALL remember { note: "x" }\n', ['--tools', replTools, '-y']);
    expect(approved.stdout).toBe('"noted"\n');
  });

  it('applies the limits to each entry', async () => {
    const result = await repl('LET x = 0\nFOR i IN [1, 2, 3, 4, 5, 6, 7, 8, 9] DO LET x = i END\nFOR i IN [1, 2] DO LET x = i END\nx\n', ['--max-steps', '8']);
    expect(result.stderr).toMatch(/LimitExceededError/);
    expect(result.stdout).toBe('2\n');
  });

  it('writes the events of every entry with --trace', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-repl-'));
    await repl('LET a = 1\nLET b = )\n', ['--trace', 'trace.jsonl'], dir);
    const types = readFileSync(path.join(dir, 'trace.jsonl'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['script:started', 'script:completed', 'script:started', 'script:failed']);
  });
});

describe('the README', () => {
  it('shows a REPL session as it really goes', async () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const transcript = /```\n\$ nuwa repl --tools examples\/tools\.mjs\n([\s\S]*?)```/.exec(readme)![1]!.split('\n').slice(1, -1);
    const input = transcript.filter((line) => /^(> |\.\.\. )/.test(line)).map((line) => line.replace(/^(> |\.\.\. )/, ''));
    const expected = transcript.filter((line) => !/^(> |\.\.\. )/.test(line));
    let shown = '';
    const cli: CliIO = { stdout: (t) => void (shown += t), stderr: (t) => void (shown += t), readStdin: async () => '', interactive: false, color: false, cwd: root };
    await replCommand(['--tools', 'examples/tools.mjs'], cli, { input: Readable.from([`${input.join('\n')}\n`]), output: new PassThrough(), terminal: false });
    expect(shown).toBe(`${expected.join('\n')}\n`);
  });
});

describe('nuwa repl usage', () => {
  it('refuses a file argument and --json with exit status 2', async () => {
    for (const args of [['repl', 'script.nuwa'], ['repl', '--json'], ['repl', '--bogus']]) {
      const { out, cli } = io(root);
      expect(await main(args, cli)).toBe(2);
      expect(out.stderr).toMatch(/^nuwa: /);
    }
  });

  it('prints its help', async () => {
    const { out, cli } = io(root);
    expect(await main(['repl', '--help'], cli)).toBe(0);
    expect(out.stdout).toMatch(/^Usage: nuwa repl \[options\]/);
  });
});
