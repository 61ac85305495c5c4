// `nuwa repl` on a real pseudo-terminal (node-pty): prompts, continuation lines, Tab completion,
// Ctrl-C, approval questions, history across sessions and colour; and with piped stdin, as a
// script would use it. Each test spawns bin/nuwa (the built package) as a user would.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Terminal } from '../support/pty.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'test', 'e2e', 'fixtures', 'tools-repl.mjs');

const open: Terminal[] = [];
afterEach(() => {
  for (const terminal of open.splice(0)) terminal.kill();
});

function start(options: { home?: string; env?: Record<string, string>; args?: string[] } = {}): Terminal {
  const home = options.home ?? mkdtempSync(path.join(tmpdir(), 'nuwa-repl-home-'));
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env };
  const terminal = new Terminal(process.execPath, [bin, 'repl', '--tools', tools, ...(options.args ?? [])], { cwd: root, env });
  open.push(terminal);
  return terminal;
}

/** Types a line and waits for the next prompt after it (`> ` or `... `). */
async function enter(terminal: Terminal, line: string, prompt: '> ' | '... ' = '> '): Promise<string> {
  const from = terminal.mark();
  terminal.write(`${line}\r`);
  const shown = await terminal.waitFor(new RegExp(`\\n${prompt === '> ' ? '> ' : '\\.\\.\\. '}$`), from);
  return shown;
}

describe('nuwa repl on a terminal', () => {
  it('shows a banner and prompt, runs entries, continues unfinished ones with ...', async () => {
    const terminal = start();
    await terminal.waitFor(/Type \.help for help[\s\S]*> $/);
    expect(await enter(terminal, 'LET total = 0')).toBe('LET total = 0\n> ');
    await enter(terminal, 'FOR n IN [1, 2, 3] DO', '... ');
    await enter(terminal, '  LET total = total + n', '... ');
    await enter(terminal, 'END');
    expect(await enter(terminal, 'total')).toBe('total\n6\n> ');
    await enter(terminal, 'PRINT("two', '... ');
    expect(await enter(terminal, 'lines")')).toBe('lines")\ntwo\nlines\n> ');
    const error = await enter(terminal, 'LET x = total / 0');
    expect(error).toContain('<repl>:1:15: DivisionByZeroError:');
    expect(error).toContain('1 | LET x = total / 0\n  |               ^');
    terminal.write('.exit\r');
    expect(await terminal.exit()).toBe(0);
  });

  it('completes tool names after CALL (toolsets too) and argument names inside the braces', async () => {
    const terminal = start();
    await terminal.waitFor(/> $/);
    let from = terminal.mark();
    terminal.write('CALL get_p\t');
    await terminal.waitFor('get_price', from);
    terminal.write(' { sy\t');
    await terminal.waitFor('symbol', from);
    expect(await enter(terminal, ': "AAPL" }')).toMatch(/\n42\n> $/);

    from = terminal.mark();
    terminal.write('CALL ma\t'); // common prefix of math.add and math.multiply
    await terminal.waitFor('math.', from);
    terminal.write('mu\t');
    await terminal.waitFor('math.multiply', from);
    expect(await enter(terminal, ' { a: 6, b: 7 }')).toMatch(/\n42\n> $/);

    await enter(terminal, 'LET quantity = 3');
    from = terminal.mark();
    terminal.write('quan\t');
    await terminal.waitFor('quantity', from);
    expect(await enter(terminal, ' + 1')).toMatch(/\n4\n> $/);
    terminal.write('.exit\r');
    expect(await terminal.exit()).toBe(0);
  });

  it('Ctrl-C stops a running entry (the tool is aborted) and the session goes on', async () => {
    const terminal = start();
    await terminal.waitFor(/> $/);
    await enter(terminal, 'LET kept = "still here"');
    let from = terminal.mark();
    terminal.write('CALL wait_forever {}\r');
    await terminal.waitFor('waiting...', from);
    terminal.write('\u0003');
    const shown = await terminal.waitFor(/AbortedError[\s\S]*> $/, from);
    expect(shown).toContain('the tool saw the abort');
    expect(await enter(terminal, 'kept')).toContain('"still here"');

    // A tool that throws after its call has ended does not end the session either.
    from = terminal.mark();
    terminal.write('CALL throw_later {}\r');
    await terminal.waitFor("uncaught error, outside any entry (a tool's timer or event handler?): thrown after the call", from);
    expect(await enter(terminal, 'kept')).toContain('"still here"');

    // At the prompt: Ctrl-C drops the line being typed, and twice on an empty line leaves.
    from = terminal.mark();
    terminal.write('IF true THEN\r');
    await terminal.waitFor(/\.\.\. $/, from);
    terminal.write('\u0003');
    await terminal.waitFor(/\n> $/, from);
    from = terminal.mark();
    terminal.write('\u0003');
    await terminal.waitFor('(To exit, press Ctrl+C again or Ctrl+D or type .exit)', from);
    terminal.write('\u0003');
    expect(await terminal.exit()).toBe(0);
  });

  it('asks on the terminal before a call that needs approval', async () => {
    const terminal = start();
    await terminal.waitFor(/> $/);
    let from = terminal.mark();
    terminal.write('CALL remember { note: "milk" }\r');
    await terminal.waitFor('Allow remember (write) with {"note":"milk"}? [y/N] ', from);
    terminal.write('y\r');
    expect(await terminal.waitFor(/"noted"\n> $/, from)).toBeTruthy();
    from = terminal.mark();
    terminal.write('CALL remember { note: "eggs" }\r');
    await terminal.waitFor('[y/N] ', from);
    terminal.write('n\r');
    await terminal.waitFor(/ToolDeniedError[\s\S]*> $/, from);
    expect(await enter(terminal, '.state')).toContain('note = "milk"');
    terminal.write('\u0004'); // Ctrl-D
    expect(await terminal.exit()).toBe(0);
  });

  it('keeps the history in ~/.nuwa_history across sessions', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'nuwa-repl-home-'));
    const first = start({ home });
    await first.waitFor(/> $/);
    await enter(first, 'LET remembered = 7');
    first.write('.exit\r');
    expect(await first.exit()).toBe(0);
    expect(readFileSync(path.join(home, '.nuwa_history'), 'utf8')).toBe('LET remembered = 7\n.exit\n');

    const second = start({ home });
    await second.waitFor(/> $/);
    const from = second.mark();
    second.write('\u001b[A\u001b[A'); // Up, Up: back past .exit to the LET
    await second.waitFor('LET remembered = 7', from);
    await enter(second, '');
    expect(await enter(second, 'remembered')).toMatch(/\n7\n> $/);
    second.write('.exit\r');
    expect(await second.exit()).toBe(0);
  });

  it('colours values and code frames on a terminal, and not with NO_COLOR', async () => {
    const coloured = start();
    await coloured.waitFor(/> $/);
    await enter(coloured, '"text"');
    await enter(coloured, 'LET s = "a" + 1');
    expect(coloured.raw).toContain('\u001b[32m"text"\u001b[39m');
    expect(coloured.raw).toContain('\u001b[35mLET\u001b[39m s \u001b[35m=\u001b[39m \u001b[32m"a"\u001b[39m'); // the highlighted code frame
    coloured.write('.exit\r');
    await coloured.exit();

    const plain = start({ env: { NO_COLOR: '1' } });
    await plain.waitFor(/> $/);
    await enter(plain, '"text"');
    await enter(plain, 'LET s = "a" + 1');
    expect(plain.raw).not.toMatch(/\u001b\[3\dm/);
    plain.write('.exit\r');
    await plain.exit();
  });
});

describe('highlighted code frames of nuwa run', () => {
  it('colours the frame like the code on a terminal', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-run-'));
    writeFileSync(path.join(dir, 'join.nuwa'), 'LET price = 415.5 // MSFT\nLET message = "MSFT is at " + price\n');
    const terminal = new Terminal(process.execPath, [bin, 'run', 'join.nuwa'], { cwd: dir, env: { ...process.env, NO_COLOR: undefined } });
    open.push(terminal);
    expect(await terminal.exit()).toBe(1);
    expect(terminal.text).toContain('1 | LET price = 415.5 // MSFT\n2 | LET message = "MSFT is at " + price');
    expect(terminal.raw).toContain('\u001b[35mLET\u001b[39m price \u001b[35m=\u001b[39m \u001b[33m415.5\u001b[39m \u001b[90m// MSFT\u001b[39m');
    expect(terminal.raw).toContain('\u001b[35mLET\u001b[39m message \u001b[35m=\u001b[39m \u001b[32m"MSFT is at "\u001b[39m \u001b[35m+\u001b[39m price');
  });
});

describe('nuwa repl with piped stdin', () => {
  function pipe(input: string, args: string[] = []) {
    const child = spawnSync(process.execPath, [bin, 'repl', '--tools', tools, ...args], { cwd: root, input, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined } });
    return { status: child.status, stdout: child.stdout, stderr: child.stderr };
  }

  it('prints only results and errors, without prompts or colour, and exits 0 when all entries ran', () => {
    const result = pipe('LET p = CALL get_price { symbol: "X" }\nIF p > 1 THEN\n  PRINT("high")\nEND\nCALL math.add { a: p, b: 1 }\n');
    expect(result).toEqual({ status: 0, stdout: 'high\n43\n', stderr: '' });
  });

  it('exits 1 when an entry failed, after running the others', () => {
    const result = pipe('LET a = [1]\na[5]\nLEN(a)\n');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('1\n');
    expect(result.stderr).toMatch(/^<repl>:1:2: IndexOutOfBoundsError: .*\n1 \| a\[5\]\n {2}\| {2}\^\n$/);
  });

  it('takes a script on stdin that .save wrote', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-repl-'));
    const saved = path.join(dir, 'saved.nuwa');
    expect(pipe(`LET a = 20\nLET b = CALL math.multiply { a: a, b: 2 }\n.save ${saved}\n`).status).toBe(0);
    writeFileSync(path.join(dir, 'more.nuwa'), 'PRINT(b)\n');
    expect(pipe(`.load ${saved}\n.load ${path.join(dir, 'more.nuwa')}\n`)).toEqual({ status: 0, stdout: '40\n', stderr: '' });
  });
});
