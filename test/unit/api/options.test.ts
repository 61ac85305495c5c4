// Every option of the API is checked where it comes in (src/util/options.ts): a bad one, of
// whatever kind, is a NuwaError of kind TypeError that names it, raised (or, for registry.execute,
// returned as a failed ToolResult) before anything runs. Each option is read once, so a getter that
// throws is a bad option too, and one that answers differently on each read cannot slip past.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPrompt, check, Interpreter, isNuwaError, plan, ToolRegistry } from '../../../src/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const examples = path.join(root, 'examples', 'tools');

/** An object whose `key` getter throws. */
function throwing(key: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.defineProperty({ ...extra }, key, {
    enumerable: true,
    get() {
      throw new Error(`no ${key} for you`);
    },
  });
}

/** A signal that is not one: an AbortSignal's prototype without its internals, and a Proxy of a real one. */
const fakeSignals: unknown[] = [{}, 'stop', { aborted: false, addEventListener() {} }, Object.create(AbortSignal.prototype), new Proxy(new AbortController().signal, {})];

/** What a call did with a bad option: the NuwaError it threw or rejected with, or the failed ToolResult. */
async function outcome(call: () => unknown): Promise<{ kind: string; message: string }> {
  let value: unknown;
  try {
    value = await call();
  } catch (error) {
    if (!isNuwaError(error)) throw new Error(`expected a NuwaError, got ${String(error)}`);
    return { kind: error.kind, message: error.message };
  }
  const result = value as { success?: boolean; code?: string; error?: string };
  if (result?.success === false) return { kind: result.code ?? '', message: result.error ?? '' };
  throw new Error('expected the bad option to be refused');
}

const registry = new ToolRegistry();
registry.register('echo', { description: 'echo', parameters: [{ name: 'text', description: 'text', type: 'string' }], returns: 'string' }, ({ text }) => text as string);

type Case = [api: string, option: string, bad: unknown, call: (bad: unknown) => unknown];

const interpreterCases: Case[] = [
  ...[null, 'x', 5, []].map((bad): Case => ['new Interpreter', 'options', bad, (value) => new Interpreter(registry, value as never)]),
  ['new Interpreter', 'registry', {}, (value) => new Interpreter(value as never)],
  ['new Interpreter', 'print', 'stdout', (value) => new Interpreter(registry, { print: value as never })],
  ['new Interpreter', 'session', {}, (value) => new Interpreter(registry, { session: value as never })],
  ['new Interpreter', 'limits', 'x', (value) => new Interpreter(registry, { limits: value as never })],
  ['new Interpreter', 'limits', [1], (value) => new Interpreter(registry, { limits: value as never })],
  ...['maxSteps', 'maxToolCalls', 'timeoutMs', 'maxOutputBytes', 'maxCallDepth', 'maxValueSize', 'maxStringLength', 'maxSourceBytes'].flatMap((limit) =>
    [-1, Number.NaN, '5', null].map((bad): Case => ['new Interpreter', `limits.${limit}`, bad, (value) => new Interpreter(registry, { limits: { [limit]: value } })]),
  ),
  ['new Interpreter', 'approve', true, (value) => new Interpreter(registry, { approve: value as never })],
  ['new Interpreter', 'needsApproval', 'write', (value) => new Interpreter(registry, { needsApproval: value as never })],
  ['new Interpreter', 'needsApproval', ['sometimes'], (value) => new Interpreter(registry, { needsApproval: value as never })],
  ['new Interpreter', 'onEvent', {}, (value) => new Interpreter(registry, { onEvent: value as never })],
  ['new Interpreter', 'sandboxDir', 5, (value) => new Interpreter(registry, { sandboxDir: value as never })],
  ['new Interpreter', 'sandboxDir', '', (value) => new Interpreter(registry, { sandboxDir: value as never })],
  ['new Interpreter', 'logger', 'console', (value) => new Interpreter(registry, { logger: value as never })],
  ['new Interpreter', 'logger.warn', 5, (value) => new Interpreter(registry, { logger: { warn: value as never } })],
  ['new Interpreter', 'print', 'a getter that throws', () => new Interpreter(registry, throwing('print'))],
  ['new Interpreter', 'limits.timeoutMs', 'a getter that throws', () => new Interpreter(registry, { limits: throwing('timeoutMs') })],
];

const interpreter = new Interpreter(registry, { print: () => {} });
const runCases: Case[] = [
  ...[null, 5, 'x', []].map((bad): Case => ['run', 'options', bad, (value) => interpreter.run('PRINT(1)', value as never)]),
  ...fakeSignals.map((bad): Case => ['run', 'signal', bad, (value) => interpreter.run('PRINT(1)', { signal: value as never })]),
  ['run', 'variables', 'x', (value) => interpreter.run('PRINT(1)', { variables: value as never })],
  ['run', 'variables', [1], (value) => interpreter.run('PRINT(1)', { variables: value as never })],
  ['run', 'fileName', 5, (value) => interpreter.run('PRINT(1)', { fileName: value as never })],
  ['run', 'approvedPlan', 'yes', (value) => interpreter.run('PRINT(1)', { approvedPlan: value as never })],
  ['run', 'signal', 'a getter that throws', () => interpreter.run('PRINT(1)', throwing('signal') as never)],
  ['interpreter.plan', 'options', null, (value) => interpreter.plan('PRINT(1)', value as never)],
  ['interpreter.plan', 'variables', 5, (value) => interpreter.plan('PRINT(1)', { variables: value as never })],
  ['plan', 'options', 'x', (value) => plan('PRINT(1)', registry, value as never)],
  ['plan', 'registry', null, (value) => plan('PRINT(1)', value as never)],
  ['plan', 'variables', 5, (value) => plan('PRINT(1)', registry, { variables: value as never })],
  ['plan', 'variables', [1, 2], (value) => plan('PRINT(1)', registry, { variables: value as never })],
  ['plan', 'needsApproval', ['maybe'], (value) => plan('PRINT(1)', registry, { needsApproval: value as never })],
  ['check', 'options', null, (value) => check('PRINT(1)', registry, value as never)],
  ['check', 'registry', {}, (value) => check('PRINT(1)', value as never)],
  ['check', 'variables', 'x', (value) => check('PRINT(1)', registry, { variables: value as never })],
];

const toolCases: Case[] = [
  ...[null, 5].map((bad): Case => ['registry.execute', 'options', bad, (value) => registry.execute({ name: 'echo', arguments: { text: 'a' } }, value as never)]),
  ...fakeSignals.map((bad): Case => ['registry.execute', 'signal', bad, (value) => registry.execute('echo', { text: 'a' }, { signal: value as never })]),
  ['registry.execute', 'timeoutMs', -1, (value) => registry.execute('echo', { text: 'a' }, { timeoutMs: value as never })],
  ['registry.execute', 'approve', 1, (value) => registry.execute('echo', { text: 'a' }, { approve: value as never })],
  ['registry.execute', 'needsApproval', 'write', (value) => registry.execute('echo', { text: 'a' }, { needsApproval: value as never })],
  ['registry.execute', 'onEvent', 'log', (value) => registry.execute('echo', { text: 'a' }, { onEvent: value as never })],
  ['registry.execute', 'session', {}, (value) => registry.execute('echo', { text: 'a' }, { session: value as never })],
  ['registry.execute', 'timeoutMs', 'a getter that throws', () => registry.execute('echo', { text: 'a' }, throwing('timeoutMs') as never)],
  ['new ToolRegistry', 'options', 'x', (value) => new ToolRegistry(value as never)],
  ['new ToolRegistry', 'embedder', 'openai', (value) => new ToolRegistry({ embedder: value as never })],
  ['new ToolRegistry', 'print', 5, (value) => new ToolRegistry({ print: value as never })],
  ['new ToolRegistry', 'logger', 5, (value) => new ToolRegistry({ logger: value as never })],
  ['new ToolRegistry', 'sandboxDir', 5, (value) => new ToolRegistry({ sandboxDir: value as never })],
  ['registry.search', 'options', null, (value) => registry.search('echo', value as never)],
  ['registry.search', 'limit', 0, (value) => registry.search('echo', { limit: value as never })],
  ['buildPrompt', 'options', null, (value) => buildPrompt(registry, value as never)],
  ['buildPrompt', 'registry', {}, (value) => buildPrompt(value as never)],
  ['buildPrompt', 'state', 'yes', (value) => buildPrompt(registry, { state: value as never })],
  ['buildPrompt', 'session', {}, (value) => buildPrompt(registry, { state: true, session: value as never })],
  ['buildPrompt', 'examples', 'LET x = 1', (value) => buildPrompt(registry, { examples: value as never })],
  ['buildPrompt', 'examples', [1], (value) => buildPrompt(registry, { examples: value as never })],
  ['buildPrompt', 'examples', ['let x = 1'], (value) => buildPrompt(registry, { examples: value as never })],
];

const providerCases: Case[] = [
  ['loadExecutables', 'dir', 5, (value) => new ToolRegistry().loadExecutables(value as never)],
  ['loadExecutables', 'options', 'x', (value) => new ToolRegistry().loadExecutables(examples, value as never)],
  ...['timeoutMs', 'probeTimeoutMs', 'maxOutputBytes'].flatMap((key) =>
    [0, -1, 'x'].map((bad): Case => ['loadExecutables', key, bad, (value) => new ToolRegistry().loadExecutables(examples, { [key]: value })]),
  ),
  ['loadExecutables', 'env', 'PATH=/bin', (value) => new ToolRegistry().loadExecutables(examples, { env: value as never })],
  ['loadExecutables', 'env.DEBUG', 1, (value) => new ToolRegistry().loadExecutables(examples, { env: { DEBUG: value } as never })],
  ...fakeSignals.map((bad): Case => ['loadExecutables', 'signal', bad, (value) => new ToolRegistry().loadExecutables(examples, { signal: value as never })]),
  ['connectMcp', 'options', undefined, (value) => new ToolRegistry().connectMcp(value as never)],
  ['connectMcp', 'options', 'node server.js', (value) => new ToolRegistry().connectMcp(value as never)],
  ['connectMcp', 'command', '', (value) => new ToolRegistry().connectMcp({ command: value as never })],
  ['connectMcp', 'command', undefined, () => new ToolRegistry().connectMcp({} as never)],
  ['connectMcp', 'args', 'server.js', (value) => new ToolRegistry().connectMcp({ command: 'node', args: value as never })],
  ['connectMcp', 'args', [1], (value) => new ToolRegistry().connectMcp({ command: 'node', args: value as never })],
  ['connectMcp', 'env', [], (value) => new ToolRegistry().connectMcp({ command: 'node', env: value as never })],
  ['connectMcp', 'name', 5, (value) => new ToolRegistry().connectMcp({ command: 'node', name: value as never })],
  ['connectMcp', 'cwd', 5, (value) => new ToolRegistry().connectMcp({ command: 'node', cwd: value as never })],
  ['connectMcp', 'timeoutMs', 0, (value) => new ToolRegistry().connectMcp({ command: 'node', timeoutMs: value as never })],
  ['connectMcp', 'startTimeoutMs', 'soon', (value) => new ToolRegistry().connectMcp({ command: 'node', startTimeoutMs: value as never })],
  ['connectMcp', 'maxMessageBytes', 0, (value) => new ToolRegistry().connectMcp({ command: 'node', maxMessageBytes: value as never })],
  ['connectMcp', 'confirm', 'maybe', (value) => new ToolRegistry().connectMcp({ command: 'node', confirm: value as never })],
  ['connectMcp', 'category', 'misc', (value) => new ToolRegistry().connectMcp({ command: 'node', category: value as never })],
  ...fakeSignals.map((bad): Case => ['connectMcp', 'signal', bad, (value) => new ToolRegistry().connectMcp({ command: 'node', signal: value as never })]),
  ['connectMcp', 'command', 'a getter that throws', () => new ToolRegistry().connectMcp(throwing('command') as never)],
];

describe('every option is checked: a bad one is a NuwaError (TypeError) that names it', () => {
  it.each([...interpreterCases, ...runCases, ...toolCases, ...providerCases])('%s: %s = %j', async (_api, option, bad, call) => {
    const { kind, message } = await outcome(() => call(bad));
    expect(kind).toBe('TypeError');
    // The option is named: `limits.timeoutMs`, `signal`, or, for the options object itself, "options".
    const named = option === 'options' ? /options/ : option === 'registry' || option === 'dir' ? new RegExp(`\\b${option}\\b`) : new RegExp(`\`${option.replace('.', '\\.')}\``);
    expect(message).toMatch(named);
  });
});

describe('options are read once', () => {
  it('a getter that answers differently on each read is seen once, and its first answer is the one used', async () => {
    let reads = 0;
    const options = {
      print: () => {},
      get limits() {
        reads++;
        return reads === 1 ? { maxSteps: 3 } : { maxSteps: -1 };
      },
    };
    const limited = new Interpreter(registry, options);
    expect(reads).toBe(1);
    const error = await limited.run('FOR i IN RANGE(10) DO\n  LET x = i\nEND').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'LimitExceededError' });
    expect(reads).toBe(1);
  });

  it('a signal getter is read once per run', async () => {
    let reads = 0;
    const controller = new AbortController();
    const options = {
      get signal() {
        reads++;
        return reads === 1 ? controller.signal : ('nonsense' as never);
      },
    };
    await interpreter.run('PRINT(1)', options);
    expect(reads).toBe(1);
  });

  it('options the version does not know are kept, not refused', () => {
    expect(() => new Interpreter(registry, { print: () => {}, someFutureOption: 1 } as never)).not.toThrow();
  });

  it("an Interpreter's options are those of a class's instance too (its getters read once), not of what Object.prototype holds", async () => {
    let reads = 0;
    const printed: string[] = [];
    class Settings {
      get print() {
        reads++;
        return (line: string) => printed.push(line);
      }
    }
    const fromClass = new Interpreter(registry, new Settings() as never);
    expect(reads).toBe(1);
    await fromClass.run('PRINT("from a class")');
    expect(printed).toEqual(['from a class']);
    expect(reads).toBe(1);

    // Something a library added to Object.prototype is no option of a plain object.
    const polluted = Object.prototype as { limits?: unknown };
    polluted.limits = { maxSteps: -1 };
    try {
      expect(() => new Interpreter(registry, { print: () => {} })).not.toThrow();
    } finally {
      delete polluted.limits;
    }
  });
});
