// Unit tests for the NeuroScript view (src/views/neuroscript.ts, TOOLS.md §11) beyond the seed's own
// examples (neuroscript-seed.test.ts): every argument type, the runtime's edges, toolsets, plugins.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { addToolsetRegistration, createRegistrationFunc, defineNeuroTool, registerExtendedTools, type NeuroArgType, type NeuroRuntime } from '../../../src/views/neuroscript.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import type { InterpreterOptions } from '../../../src/api/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolDefinition } from '../../../src/tools/types.js';
import { failure } from '../../support/harness.js';
import { tempDir } from '../../support/processes.js';

function setup(tools: ToolDefinition[], options: InterpreterOptions = {}) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const printed: string[] = [];
  return { registry, printed, interpreter: new Interpreter(registry, { print: (line) => printed.push(line), ...options }) };
}

/** A tool with one argument of `type` that returns what it received. */
const echo = (type: NeuroArgType, required = true) =>
  defineNeuroTool({ spec: { name: `echo_${type}`, args: [{ name: 'value', type, required }] }, func: (_rt, [value]) => ({ value, kind: Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value }) });

describe('defineNeuroTool: argument types', () => {
  it.each([
    ['string', '12', 'value: 12', { value: '12', kind: 'string' }],
    ['int', '"7"', 'value: "7"', { value: 7, kind: 'number' }],
    ['float', '"2.5"', 'value: "2.5"', { value: 2.5, kind: 'number' }],
    ['bool', '"true"', 'value: "true"', { value: true, kind: 'boolean' }],
    ['slice_string', '[1, true]', 'value: [1, true]', { value: ['1', 'true'], kind: 'list' }],
    ['slice_int', '["1", 2]', 'value: ["1", 2]', { value: [1, 2], kind: 'list' }],
    ['slice_any', '[1, "a", null]', 'value: [1, "a", null]', { value: [1, 'a', null], kind: 'list' }],
    ['map', '{ a: 1 }', 'value: { a: 1 }', { value: { a: 1 }, kind: 'object' }],
    ['any', '"x"', 'value: "x"', { value: 'x', kind: 'string' }],
  ] as Array<[NeuroArgType, string, string, unknown]>)('%s: %s arrives as its declared type', async (type, _shown, args, expected) => {
    const { interpreter } = setup([echo(type)]);
    expect((await interpreter.run(`LET r = CALL echo_${type} { ${args} }`)).variables.r).toEqual(expected);
  });

  it.each([
    ['int', '2.5'],
    ['int', '"seven"'],
    ['bool', '"yes"'],
    ['slice_int', '[1, "x"]'],
    ['map', '[1]'],
  ] as Array<[NeuroArgType, string]>)('%s refuses %s with ToolArgumentError', async (type, value) => {
    const { interpreter } = setup([echo(type)]);
    expect((await failure(interpreter.run(`CALL echo_${type} { value: ${value} }`))).kind).toBe('ToolArgumentError');
  });

  it('fills a missing optional argument with its defaultValue, and makes the schema the prompt and function calling show', () => {
    const tool = defineNeuroTool({
      spec: {
        name: 'search',
        group: 'docs',
        description: 'Searches the docs.',
        args: [
          { name: 'query', type: 'string', required: true, description: 'what to look for' },
          { name: 'limit', type: 'int', defaultValue: 5 },
        ],
        returnType: 'slice_string',
      },
      func: () => [],
    });
    expect(tool.name).toBe('docs.search');
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { query: { type: 'string', description: 'what to look for' }, limit: { type: 'integer', default: 5 } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(tool.returns).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('passes the default through central validation to the function', async () => {
    const seen: unknown[][] = [];
    const tool = defineNeuroTool({ spec: { name: 'page', args: [{ name: 'size', type: 'int', defaultValue: 20 }] }, func: (_rt, args) => (seen.push(args), null) });
    await setup([tool]).interpreter.run('CALL page {}');
    expect(seen).toEqual([[20]]);
  });

  it('checks the result against returnType; nil means null', async () => {
    const wrong = defineNeuroTool({ spec: { name: 'wrong', returnType: 'int' }, func: () => 'text' });
    const nothing = defineNeuroTool({ spec: { name: 'nothing', returnType: 'nil' }, func: () => undefined });
    const { interpreter } = setup([wrong, nothing]);
    expect((await failure(interpreter.run('CALL wrong {}'))).kind).toBe('ToolResultError');
    expect((await interpreter.run('LET n = CALL nothing {}')).variables.n).toBeNull();
  });

  it('keeps Nuwa’s risk level: a destructive NeuroScript tool needs approval', async () => {
    const wipe = defineNeuroTool({ spec: { name: 'wipe' }, func: () => 'wiped', confirm: 'destructive' });
    expect((await failure(setup([wipe]).interpreter.run('CALL wipe {}'))).kind).toBe('ToolDeniedError');
    expect((await setup([wipe], { approve: () => true }).interpreter.run('LET w = CALL wipe {}')).variables.w).toBe('wiped');
  });

  const one = (): number => 1;
  it.each<[unknown, string]>([
    [{ spec: { name: 'x', args: [{ name: 'a', type: 'integer' }] }, func: one }, 'argument "a" has type "integer"; use one of string, int, float'],
    [{ spec: { name: 'x', returnType: 'void' }, func: one }, 'returnType "void"'],
    [{ spec: { name: 'x' } }, 'needs a func'],
    [{ spec: { name: '' }, func: one }, 'spec.name must be a non-empty string'],
    [{ func: one }, 'spec is missing'],
    [{ spec: { name: 'x', args: 'a' }, func: one }, 'spec.args must be a list'],
    [{ spec: { name: 'x', args: [{ type: 'string' }] }, func: one }, 'every argument needs a name'],
  ])('refuses a bad definition: %j', (definition, message) => {
    expect(() => defineNeuroTool(definition as never)).toThrow(message);
  });

  it('registers through the one registry path: a bad name is refused as for any tool', () => {
    expect(() => new ToolRegistry().register(defineNeuroTool({ spec: { name: 'my-tool' }, func: () => 1 }))).toThrow(/not a valid tool name/);
  });

  it('works through function calling (registry.execute) too', async () => {
    const { registry } = setup([echo('int')]);
    expect(await registry.execute({ name: 'echo_int', arguments: '{"value": "3"}' })).toMatchObject({ success: true, data: { value: 3 } });
  });
});

describe('the runtime rt', () => {
  const withRuntime = (use: (rt: NeuroRuntime) => unknown) => defineNeuroTool({ spec: { name: 'use_rt' }, func: (rt) => use(rt) });

  it('println shows values as text, one line per call', async () => {
    const { interpreter, printed } = setup([withRuntime((rt) => (rt.println('n =', 3, true, null, { a: [1] }), rt.println(), null))]);
    await interpreter.run('CALL use_rt {}');
    expect(printed).toEqual(['n = 3 true null {"a":[1]}', '']);
  });

  it('the logger turns key/value pairs into one meta object, a lone key mapping to null, and omits meta without pairs', async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const tool = withRuntime((rt) => {
      const log = rt.getLogger();
      log.info('plain');
      log.warn('odd', 'path', '/x', 'size');
      log.error('numbers', 1, 2);
      return null;
    });
    await setup([tool], { logger }).interpreter.run('CALL use_rt {}');
    expect(logger.info).toHaveBeenCalledWith('[use_rt] plain', undefined);
    expect(logger.warn).toHaveBeenCalledWith('[use_rt] odd', { path: '/x', size: null });
    expect(logger.error).toHaveBeenCalledWith('[use_rt] numbers', { 1: 2 });
  });

  it('llm() is a client whose complete goes to the host’s llm hook', async () => {
    const tool = withRuntime((rt) => rt.llm().complete({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 5 }));
    const llm = vi.fn(() => 'Hello');
    const result = await setup([tool], { llm }).interpreter.run('LET r = CALL use_rt {}');
    expect(result.variables.r).toBe('Hello');
    expect(llm).toHaveBeenCalledWith({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 5 }, expect.objectContaining({ toolName: 'use_rt' }));
  });

  it('promptUser without an ask hook fails with the clear ToolExecutionError', async () => {
    const error = await failure(setup([withRuntime((rt) => rt.promptUser('Name?'))]).interpreter.run('CALL use_rt {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('context.ask: the host has no ask hook');
  });

  it('callTool maps positions to the target’s parameters (any tool), leaves out nulls, and refuses too many', async () => {
    const target = {
      name: 'join',
      description: 'joins',
      parameters: { type: 'object' as const, properties: { a: { type: 'string' }, b: { type: 'string' }, sep: { type: 'string', default: '-' } }, required: ['a', 'b'] },
      returns: 'string' as const,
      execute: ({ a, b, sep }: Record<string, unknown>) => `${String(a)}${String(sep)}${String(b)}`,
    };
    const { interpreter } = setup([
      target,
      withRuntime(async (rt): Promise<unknown> => [await rt.callTool('join', ['x', 'y']), await rt.callTool('join', ['x', 'y', '+']), await rt.callTool('join', ['x', 'y', null])]),
    ]);
    expect((await interpreter.run('LET r = CALL use_rt {}')).variables.r).toEqual(['x-y', 'x+y', 'x-y']);

    const tooMany = await failure(setup([target, withRuntime((rt) => rt.callTool('join', [1, 2, 3, 4]))]).interpreter.run('CALL use_rt {}'));
    expect(tooMany.message).toContain('rt.callTool("join"): join takes 3 arguments (a, b, sep), got 4');
  });

  it('callTool of an unknown tool fails as any unknown tool does, with its suggestion', async () => {
    const error = await failure(setup([echo('int'), withRuntime((rt) => rt.callTool('echo_itn', [1]))]).interpreter.run('CALL use_rt {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toBe('tool `use_rt` failed: there is no tool `echo_itn`: did you mean `echo_int`?');
  });

  it('callTool counts as a tool calling a tool: the call depth limit holds', async () => {
    const loop = defineNeuroTool({ spec: { name: 'loop' }, func: (rt) => rt.callTool('loop', []) });
    const error = await failure(setup([loop], { limits: { maxCallDepth: 4 } }).interpreter.run('CALL loop {}'));
    expect(error.kind).toBe('LimitExceededError');
  });

  it('the runtime is frozen: a tool cannot swap a method for the next one', async () => {
    const tool = withRuntime((rt) => {
      expect(Object.isFrozen(rt)).toBe(true);
      return null;
    });
    await setup([tool]).interpreter.run('CALL use_rt {}');
  });
});

describe('toolsets and plugins', () => {
  it('registerExtendedTools tries every toolset, keeps what registered, and names each failure', () => {
    addToolsetRegistration('good_set', createRegistrationFunc('good_set', [{ spec: { name: 'ok', group: 'good_set' }, func: () => 1 }]));
    addToolsetRegistration('bad_set', createRegistrationFunc('bad_set', [{ spec: { name: 'bad-name', group: 'bad_set' }, func: () => 1 }]));
    const registry = new ToolRegistry();
    expect(() => registerExtendedTools(registry)).toThrow(/toolset bad_set: tool "bad-name" of toolset bad_set: .*not a valid tool name/);
    expect(registry.has('good_set.ok')).toBe(true);
    // Replace the failing one, as a later add of the same name does.
    addToolsetRegistration('bad_set', () => {});
  });

  it('refuses a registration function that returns a promise', () => {
    addToolsetRegistration('async_set', (async () => {}) as never);
    try {
      expect(() => registerExtendedTools(new ToolRegistry())).toThrow(/toolset async_set: its registration function returned a promise/);
    } finally {
      addToolsetRegistration('async_set', () => {});
    }
  });

  it('refuses bad registrations with TypeErrors', () => {
    expect(() => addToolsetRegistration('', () => {})).toThrow(TypeError);
    expect(() => addToolsetRegistration('x', 'f' as never)).toThrow(/registerFn must be a function/);
    expect(() => createRegistrationFunc('x', 'tools' as never)).toThrow(/tools must be a list/);
  });

  it('loadPlugin reports a module without register, a missing file, and a register that throws, as load errors', async () => {
    const dir = tempDir('nuwa-plugin-');
    const registry = new ToolRegistry();
    writeFileSync(path.join(dir, 'none.mjs'), 'export const other = 1;\n');
    await expect(registry.loadPlugin(path.join(dir, 'none.mjs'))).rejects.toThrow(/cannot load the plugin .*none\.mjs: it exports no register\(registrar\) function/);
    await expect(registry.loadPlugin(path.join(dir, 'missing.mjs'))).rejects.toThrow(/cannot load the plugin .*missing\.mjs: no such file/);
    writeFileSync(path.join(dir, 'throws.mjs'), 'export function register() { throw new Error("no licence"); }\n');
    await expect(registry.loadPlugin(path.join(dir, 'throws.mjs'))).rejects.toThrow(/no licence/);
  });

  it('a plugin needs no import: its registrar takes plain { spec, func } objects', async () => {
    const dir = tempDir('nuwa-plugin-');
    const file = path.join(dir, 'plain.mjs');
    writeFileSync(
      file,
      `export async function register(registrar) {
  await null;
  registrar.registerTool({ spec: { name: 'times', group: 'plain', args: [{ name: 'a', type: 'int', required: true }, { name: 'b', type: 'int', required: true }], returnType: 'int' }, func: (rt, [a, b]) => a * b });
}
`,
    );
    const registry = new ToolRegistry();
    expect(await registry.loadPlugin(file)).toEqual(['plain.times']);
    const printed: string[] = [];
    await new Interpreter(registry, { print: (line) => printed.push(line) }).run('PRINT(CALL plain.times { a: "6", b: 7 })');
    expect(printed).toEqual(['42']);
  });
});
