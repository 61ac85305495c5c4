// `nuwa run` answering a tool's context.ask: on a real pseudo-terminal (node-pty) the question is
// shown and the line typed is the answer; through pipes there is no one to ask, and the tool is told
// so. Each test spawns bin/nuwa (the built package) as a user would.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/processes.js';
import { Terminal } from '../support/pty.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'test', 'e2e', 'fixtures', 'tools-ask.mjs');

const open: Terminal[] = [];
afterEach(() => {
  for (const terminal of open.splice(0)) terminal.kill();
});

function script(source: string): string {
  const file = path.join(tempDir('nuwa-ask-'), 'plan.nuwa');
  writeFileSync(file, source);
  return file;
}

function onTerminal(file: string, args: string[] = []): Terminal {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined };
  const terminal = new Terminal(process.execPath, [bin, 'run', file, '--tools', tools, ...args], { cwd: root, env });
  open.push(terminal);
  return terminal;
}

describe('nuwa run: context.ask on a terminal', () => {
  it('shows the question, reads the answer, and the script goes on with it', async () => {
    const terminal = onTerminal(script('LET name = CALL ask_name {}\nPRINT(FORMAT("Hello, {n}!", { n: name }))\n'));
    await terminal.waitFor('ask_name asks: What is your name?\n> ');
    terminal.write('Ada Lovelace\r');
    await terminal.waitFor('Hello, Ada Lovelace!');
    expect(await terminal.exit()).toBe(0);
  });

  it('numbers the choices, takes a number or a choice’s text, and asks again after anything else', async () => {
    const terminal = onTerminal(script('PRINT(CALL ask_size {})\nPRINT(CALL ask_size {})\n'));
    await terminal.waitFor('ask_size asks: Which size?\n  1) small\n  2) medium\n  3) large\nChoose 1-3: ');
    let from = terminal.mark();
    terminal.write('3\r');
    await terminal.waitFor(/\nlarge\nask_size asks: Which size\?\n[\s\S]*Choose 1-3: $/, from);
    from = terminal.mark();
    terminal.write('huge\r');
    await terminal.waitFor('Answer with a number from 1 to 3, or one of the choices as written: ', from);
    terminal.write('Medium\r');
    await terminal.waitFor('\nmedium\n', from);
    expect(await terminal.exit()).toBe(0);
  });

  it('Ctrl-C while a question waits stops the run as interrupted', async () => {
    const terminal = onTerminal(script('PRINT("before")\nLET name = CALL ask_name {}\nPRINT("after")\n'));
    await terminal.waitFor('What is your name?\n> ');
    terminal.write('\u0003');
    await terminal.waitFor(/AbortedError: .*interrupted \(Ctrl-C\)/);
    expect(await terminal.exit()).toBe(1);
    expect(terminal.text).not.toContain('after');
  });

  it('the run’s timeout ends a question nobody answers', async () => {
    const terminal = onTerminal(script('LET name = CALL ask_name {}\n'), ['--timeout', '300']);
    await terminal.waitFor('What is your name?');
    await terminal.waitFor(/LimitExceededError: the run took longer than timeoutMs \(300 ms\)/);
    expect(await terminal.exit()).toBe(1);
  });
});

describe('nuwa repl: context.ask', () => {
  it('asks on the REPL’s own line, and the entry goes on with the answer', async () => {
    const env = { ...process.env, HOME: tempDir('nuwa-ask-home-'), NO_COLOR: '1', FORCE_COLOR: undefined };
    const terminal = new Terminal(process.execPath, [bin, 'repl', '--tools', tools], { cwd: root, env });
    open.push(terminal);
    await terminal.waitFor(/> $/);
    let from = terminal.mark();
    terminal.write('LET size = CALL ask_size {}\r');
    await terminal.waitFor('Choose 1-3: ', from);
    from = terminal.mark();
    terminal.write('1\r');
    await terminal.waitFor(/\n> $/, from);
    from = terminal.mark();
    terminal.write('size\r');
    await terminal.waitFor(/"small"\n> $/, from);
    terminal.write('.exit\r');
    expect(await terminal.exit()).toBe(0);
  });

  it('without a terminal, the entry fails with the refusal and the session goes on', () => {
    const child = spawnSync(process.execPath, [bin, 'repl', '--tools', tools], { cwd: root, input: 'CALL ask_name {}\nPRINT("still here")\n', encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toContain('context.ask needs a terminal to ask on; nuwa repl has none here');
    expect(child.stdout).toContain('still here');
    expect(child.status).toBe(1);
  });
});

describe('nuwa run: context.ask without a terminal', () => {
  const run = (args: string[], input = '') => spawnSync(process.execPath, [bin, 'run', ...args, '--tools', tools], { cwd: root, input, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });

  it('refuses with a ToolExecutionError that says a terminal is needed', () => {
    const child = run([script('LET name = CALL ask_name {}\n')]);
    expect(child.status).toBe(1);
    expect(child.stderr).toContain('ToolExecutionError: tool `ask_name` failed: context.ask needs a terminal to ask on; nuwa run has none here');
  });

  it('lets the tool catch the refusal and go on', () => {
    const child = run(['-'], 'PRINT(CALL ask_or_default {})\n');
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('(no answer: context.ask needs a terminal to ask on; nuwa run has none here (stdin and stderr are not both terminals), so the question cannot be answered)\ngrey\n');
  });

  it('with --json, reports the refusal in the error object', () => {
    const child = run([script('CALL ask_size {}\n'), '--json']);
    expect(child.status).toBe(1);
    const report = JSON.parse(child.stdout) as { ok: boolean; error: { kind: string; message: string } };
    expect(report.ok).toBe(false);
    expect(report.error.kind).toBe('ToolExecutionError');
    expect(report.error.message).toMatch(/context\.ask needs a terminal to ask on/);
  });
});
