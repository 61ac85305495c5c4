// A library that prints nothing (API.md v1.1): a host that speaks a protocol over stdio (MCP, say)
// embeds the interpreter without guarding its stdout. A program that runs scripts that print, tools
// that print and log, a listener that throws and a function call, with none of the hooks given,
// writes nothing at all to stdout or stderr; the lines are in the results.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

const PROGRAM = `
import { Interpreter, ToolRegistry } from ${JSON.stringify(path.join(root, 'dist', 'index.js'))};
const registry = new ToolRegistry();
registry.register({
  name: 'chatty', description: 'prints and logs', parameters: [], returns: 'string',
  execute: (_args, context) => {
    context.print('printed by the tool');
    context.logger.warn('a warning');
    context.logger.error('an error');
    return 'done';
  },
});
registry.on('tool:registered', () => { throw new Error('a broken registry listener'); });
registry.register({ name: 'later', description: 'd', parameters: [], returns: 'number', execute: () => 1 });
const interpreter = new Interpreter(registry, { onEvent: () => { throw new Error('a broken listener'); } });
const result = await interpreter.run('PRINT("printed by the script")\\nPRINT(CALL chatty {})\\nLET many = [CALL chatty {} FOR i IN RANGE(40)]');
const called = await registry.execute('chatty', {});
const context = registry.createToolContext('chatty');
context.print('printed by host code');
context.logger.error('logged by host code');
await interpreter.run('LET x = 1 / 0').catch(() => {});
process.exitCode = result.output.length === 43 && called.success ? 0 : 7;
`;

describe('a library Interpreter is quiet', () => {
  it('writes nothing to stdout or stderr without print and logger hooks', () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', PROGRAM], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('');
    expect(child.status).toBe(0);
  });
});
