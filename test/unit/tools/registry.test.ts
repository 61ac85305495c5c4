// Unit tests for src/tools/registry.ts: registration, lookup, the function-calling export, sessions,
// the default session's state and detached tool contexts (TOOLS.md §1, §4, §5; API.md).
import { rmSync, statSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { isNuwaError, NuwaError } from '../../../src/errors.js';
import type { JsonObject } from '../../../src/values/json.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { createToolRegistry } from '../../../src/views/plaited/registry.js';
import { Session } from '../../../src/tools/session.js';
import type { ToolContext, ToolDefinition, ToolSchema } from '../../../src/tools/types.js';

const addSchema: Omit<ToolSchema, 'name'> = {
  description: 'Adds two numbers',
  parameters: [
    { name: 'a', description: 'first', type: 'number' },
    { name: 'b', description: 'second', type: 'number' },
  ],
  returns: 'number',
};
const add = (args: JsonObject) => (args.a as number) + (args.b as number);

function definition(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: `the ${name} tool`, parameters: [], returns: 'any', execute: () => name, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<NuwaError> {
  try {
    await promise;
  } catch (error) {
    if (isNuwaError(error)) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

describe('registration forms', () => {
  it('registers with the Nuwa form register(name, schema, fn)', () => {
    const registry = new ToolRegistry();
    const tool = registry.register('add', addSchema, add);
    expect(tool.name).toBe('add');
    expect(tool.description).toBe('Adds two numbers');
    expect(tool.execute).toBe(add);
    expect(tool.category).toBe('custom');
    expect(tool.confirm).toBe('none');
    expect(tool.keywords).toEqual([]);
    expect(tool.timeoutMs).toBeUndefined();
    expect(registry.has('add')).toBe(true);
  });

  it('registers with the one-object form, keeping category, confirm, keywords and timeoutMs', () => {
    const registry = new ToolRegistry();
    const execute = () => null;
    const tool = registry.register({
      name: 'delete_file',
      description: 'Deletes a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      returns: 'null',
      execute,
      category: 'file',
      confirm: 'destructive',
      keywords: ['remove', 'rm'],
      timeoutMs: 500,
    });
    expect(tool).toMatchObject({ name: 'delete_file', category: 'file', confirm: 'destructive', keywords: ['remove', 'rm'], timeoutMs: 500 });
    expect(tool.execute).toBe(execute);
    expect(registry.lookup('delete_file')).toBe(tool);
  });

  it('both forms produce a tool a script can call', async () => {
    const registry = new ToolRegistry();
    registry.register('add', addSchema, add);
    registry.register({ ...addSchema, name: 'add2', execute: add });
    const result = await new Interpreter(registry, { print: () => {} }).run('LET x = CALL add { a: 1, b: 2 } LET y = CALL add2 { a: x, b: 10 }');
    expect(result.variables).toEqual({ x: 3, y: 13 });
  });

  it('refuses a Nuwa-form schema whose name differs from the name given', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register('add', { ...addSchema, name: 'plus' } as never, add)).toThrow(/the schema is named "plus"/);
  });

  it('refuses a tool without an execute function or a description', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register('t', addSchema)).toThrow(/execute must be a function/);
    expect(() => registry.register({ name: 't', parameters: [], returns: 'any', execute: () => 1 } as unknown as ToolDefinition)).toThrow(/description/);
  });

  it('refuses a bad category, confirm level, timeoutMs or keywords', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(definition('a', { category: 'misc' as never }))).toThrow(/category must be one of file, network, system, data, llm, custom/);
    expect(() => registry.register(definition('b', { confirm: 'maybe' as never }))).toThrow(/confirm must be one of none, read, write, destructive/);
    expect(() => registry.register(definition('c', { timeoutMs: 0 }))).toThrow(/timeoutMs must be a positive number/);
    expect(() => registry.register(definition('d', { keywords: [1] as never }))).toThrow(/keywords must be a list of strings/);
    expect(registry.names()).toEqual([]);
  });

  it('refuses a name that is already registered, keeping the first tool', () => {
    const registry = new ToolRegistry();
    const first = registry.register('add', addSchema, add);
    expect(() => registry.register('add', addSchema, () => 0)).toThrow(/a tool named "add" is already registered: unregister it first/);
    expect(() => registry.register(definition('add'))).toThrow(/already registered/);
    expect(registry.lookup('add')).toBe(first);
  });

  it('is case-sensitive: add and Add are different tools', () => {
    const registry = new ToolRegistry();
    registry.register('add', addSchema, add);
    registry.register('Add', addSchema, add);
    expect(registry.names()).toEqual(['add', 'Add']);
  });

  it('clear unregisters every tool, each announced; the state stays', () => {
    const registry = new ToolRegistry();
    registry.register('add', addSchema, add);
    registry.register('sub', addSchema, add);
    registry.setState('kept', 1);
    const gone: string[] = [];
    registry.on('tool:unregistered', (event) => gone.push(event.toolName));
    registry.clear();
    expect(registry.names()).toEqual([]);
    expect(gone).toEqual(['add', 'sub']);
    expect(registry.getStateValue('kept')).toBe(1);
    registry.register('add', addSchema, add);
    expect(registry.names()).toEqual(['add']);
  });

  it('allows re-registering after unregister', () => {
    const registry = new ToolRegistry();
    registry.register('add', addSchema, add);
    expect(registry.unregister('add')).toBe(true);
    expect(registry.has('add')).toBe(false);
    expect(registry.unregister('add')).toBe(false);
    const replacement = () => 42;
    registry.register('add', addSchema, replacement);
    expect(registry.lookup('add')?.execute).toBe(replacement);
  });

  it.each([
    ['', /needs a name/],
    ['has space', /is not a valid tool name/],
    ['1st', /is not a valid tool name/],
    ['dash-name', /is not a valid tool name/],
    ['a..b', /is not a valid tool name/],
    ['.a', /is not a valid tool name/],
    ['IF', /IF is a keyword of the language/],
    ['LET', /LET is a keyword/],
    ['CALL', /CALL is a keyword/],
    ['group.END', /END is a keyword/],
    ['true', /keyword/],
    ['null', /keyword/],
  ])('refuses the name %j', (name, message) => {
    const registry = new ToolRegistry();
    expect(() => registry.register(name, addSchema, add)).toThrow(TypeError);
    expect(() => registry.register(name, addSchema, add)).toThrow(message);
    expect(registry.names()).toEqual([]);
  });

  it('accepts lowercase keywords and underscores, which are identifiers', () => {
    const registry = new ToolRegistry();
    registry.register('let', addSchema, add);
    registry.register('_private_2', addSchema, add);
    expect(registry.names()).toEqual(['let', '_private_2']);
  });
});

describe('registerToolset', () => {
  it('registers tools under dotted names a script can CALL', async () => {
    const registry = new ToolRegistry();
    const tools = registry.registerToolset('math', [
      { name: 'add', ...addSchema, execute: add },
      { name: 'neg', description: 'negates', parameters: [{ name: 'x', description: 'x', type: 'number' }], returns: 'number', execute: (args) => -(args.x as number) },
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['math.add', 'math.neg']);
    expect(registry.names()).toEqual(['math.add', 'math.neg']);
    expect(registry.has('add')).toBe(false);
    const result = await new Interpreter(registry, { print: () => {} }).run('LET s = CALL math.add { a: 2, b: 3 } LET n = CALL math.neg { x: s }');
    expect(result.variables).toEqual({ s: 5, n: -5 });
  });

  it('refuses a bad group name', () => {
    const registry = new ToolRegistry();
    expect(() => registry.registerToolset('my tools', [definition('a')])).toThrow(/not a valid toolset name/);
    expect(() => registry.registerToolset('FOR', [definition('a')])).toThrow(/FOR is a keyword/);
  });

  it('registers nothing when one name is taken', () => {
    const registry = new ToolRegistry();
    registry.registerToolset('g', [definition('b')]);
    expect(() => registry.registerToolset('g', [definition('a'), definition('b')])).toThrow(/"g\.b" is already registered/);
    expect(registry.names()).toEqual(['g.b']);
  });
});

describe('lookup and listing', () => {
  function populated(): ToolRegistry {
    const registry = new ToolRegistry();
    registry.register(definition('read_file', { category: 'file', confirm: 'read' }));
    registry.register('add', addSchema, add);
    registry.register(definition('fetch', { category: 'network' }));
    registry.register(definition('write_file', { category: 'file', confirm: 'write' }));
    return registry;
  }

  it('lookup returns the registered tool or undefined', () => {
    const registry = populated();
    expect(registry.lookup('fetch')?.category).toBe('network');
    expect(registry.lookup('nope')).toBeUndefined();
    expect(registry.lookup('Fetch')).toBeUndefined();
  });

  it('getSchema returns the schema as registered', () => {
    const registry = populated();
    expect(registry.getSchema('add')).toEqual({ name: 'add', ...addSchema });
    expect(registry.getSchema('nope')).toBeUndefined();
  });

  it('has, names and list follow registration order', () => {
    const registry = populated();
    expect(registry.has('add')).toBe(true);
    expect(registry.has('ADD')).toBe(false);
    expect(registry.names()).toEqual(['read_file', 'add', 'fetch', 'write_file']);
    expect(registry.list().map((tool) => tool.name)).toEqual(['read_file', 'add', 'fetch', 'write_file']);
  });

  it('listByCategory filters, with custom as the default category', () => {
    const registry = populated();
    expect(registry.listByCategory('file').map((tool) => tool.name)).toEqual(['read_file', 'write_file']);
    expect(registry.listByCategory('custom').map((tool) => tool.name)).toEqual(['add']);
    expect(registry.listByCategory('llm')).toEqual([]);
  });

  it('schemas is the JSON-Schema function-calling form of every tool', () => {
    const registry = new ToolRegistry();
    registry.register('add', addSchema, add);
    registry.register({
      name: 'search',
      description: 'Searches',
      parameters: { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'], additionalProperties: true },
      returns: 'array',
      execute: () => [],
    });
    expect(registry.schemas).toEqual([
      {
        name: 'add',
        description: 'Adds two numbers',
        parameters: {
          type: 'object',
          properties: { a: { type: 'number', description: 'first' }, b: { type: 'number', description: 'second' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
      },
      {
        name: 'search',
        description: 'Searches',
        parameters: { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'], additionalProperties: true },
      },
    ]);
    expect(Object.keys(registry.schemas[0]!)).toEqual(['name', 'description', 'parameters']);
  });

  it('createToolRegistry makes an empty ToolRegistry', () => {
    const registry = createToolRegistry();
    expect(registry).toBeInstanceOf(ToolRegistry);
    expect(registry.names()).toEqual([]);
  });
});

describe('sessions and the default session', () => {
  it('createSession gives isolated state', () => {
    const registry = new ToolRegistry();
    const one = registry.createSession();
    const two = registry.createSession('second');
    expect(one).toBeInstanceOf(Session);
    expect(two.id).toBe('second');
    expect(one.id).not.toBe(registry.defaultSession.id);
    one.setState('k', 1);
    two.setState('k', 2);
    expect(one.getStateValue('k')).toBe(1);
    expect(two.getStateValue('k')).toBe(2);
    expect(registry.hasState('k')).toBe(false);
    registry.setState('k', 0);
    expect(one.getStateValue('k')).toBe(1);
  });

  it("the registry's state methods act on the default session", () => {
    const registry = new ToolRegistry();
    registry.setState('user', { name: 'Ada' }, { description: 'the user' });
    expect(registry.defaultSession.getStateValue('user')).toEqual({ name: 'Ada' });
    expect(registry.getStateValue('user')).toEqual({ name: 'Ada' });
    expect(registry.hasState('user')).toBe(true);
    expect([...registry.getAllState().keys()]).toEqual(['user']);
    expect(registry.getStateMetadata('user')).toEqual({ description: 'the user' });
    registry.registerStateMetadata('other', { description: 'x' });
    expect([...registry.getAllStateMetadata().keys()]).toEqual(['user', 'other']);
    registry.defaultSession.setState('direct', 1);
    expect(registry.getStateValue('direct')).toBe(1);
    registry.clearState();
    expect(registry.hasState('user')).toBe(false);
    expect(registry.defaultSession.hasState('direct')).toBe(false);
  });

  it('state stored through the registry is a copy', () => {
    const registry = new ToolRegistry();
    const value = { list: [1] };
    registry.setState('v', value);
    value.list.push(2);
    (registry.getStateValue('v') as { list: number[] }).list.push(3);
    expect(registry.getStateValue('v')).toEqual({ list: [1] });
  });

  it('formatStateForPrompt writes "key: value (description)" lines, using formatters', () => {
    const registry = new ToolRegistry();
    registry.setState('city', 'Paris', { description: 'where the user is' });
    registry.setState('temp', 21.5, { description: 'temperature', formatter: (value) => `${String(value)} °C` });
    registry.setState('ids', [1, 2]);
    expect(registry.formatStateForPrompt()).toBe('city: Paris (where the user is)\ntemp: 21.5 °C (temperature)\nids: [1,2]');
  });

  it('formatStateForPrompt survives a formatter that throws', () => {
    const registry = new ToolRegistry();
    registry.setState('n', 1, {
      description: 'd',
      formatter: () => {
        throw new Error('nope');
      },
    });
    expect(registry.formatStateForPrompt()).toMatch(/^n: 1 .*nope.*\(d\)$/);
  });
});

describe('createToolContext', () => {
  function withTools(): { registry: ToolRegistry; calls: JsonObject[] } {
    const registry = new ToolRegistry();
    const calls: JsonObject[] = [];
    registry.register('add', addSchema, (args) => {
      calls.push(args);
      return add(args);
    });
    registry.register(definition('remove', { confirm: 'write', execute: () => 'removed' }));
    return { registry, calls };
  }

  it('callTool calls a tool with checked and coerced arguments', async () => {
    const { registry, calls } = withTools();
    const context = registry.createToolContext();
    await expect(context.callTool('add', { a: '1', b: 2 })).resolves.toBe(3);
    expect(calls).toEqual([{ a: 1, b: 2 }]);
  });

  it('callTool rejects bad arguments with ToolArgumentError and does not invoke the tool', async () => {
    const { registry, calls } = withTools();
    const error = await rejection(registry.createToolContext().callTool('add', { a: 'one', c: 1 }));
    expect(error.kind).toBe('ToolArgumentError');
    expect(error.problems!.map((problem) => problem.path).sort()).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([]);
  });

  it('callTool names the closest tool for an unknown name', async () => {
    const { registry } = withTools();
    const error = await rejection(registry.createToolContext().callTool('ad', {}));
    expect(error.kind).toBe('ToolNotFoundError');
    expect(error.message).toMatch(/did you mean `add`\?/);
  });

  it('callTool applies the default approval policy: a write tool is denied without a hook', async () => {
    const { registry } = withTools();
    const error = await rejection(registry.createToolContext().callTool('remove', {}));
    expect(error.kind).toBe('ToolDeniedError');
  });

  it('callTool refuses arguments that are not JSON', async () => {
    const { registry } = withTools();
    await expect(registry.createToolContext().callTool('add', { a: new Date() as never, b: 1 })).rejects.toThrow(/not JSON/);
  });

  it('setVar and getVar work on a detached context, with copies', () => {
    const context = new ToolRegistry().createToolContext();
    expect(context.getVar('x')).toBeUndefined();
    const value = { list: [1] };
    context.setVar('x', value);
    value.list.push(2);
    expect(context.getVar('x')).toEqual({ list: [1] });
    (context.getVar('x') as { list: number[] }).list.push(3);
    expect(context.getVar('x')).toEqual({ list: [1] });
    expect(() => context.setVar('not valid', 1)).toThrow(/not a valid variable name/);
  });

  it("its state is the registry's default session", () => {
    const registry = new ToolRegistry();
    const context: ToolContext = registry.createToolContext();
    context.setState('k', [1]);
    expect(registry.getStateValue('k')).toEqual([1]);
    registry.setState('j', 2);
    expect(context.getStateValue('j')).toBe(2);
    expect(context.sessionId).toBe(registry.defaultSession.id);
  });

  it('has a tool name, an executionId, a live signal and a sandbox', () => {
    const context = new ToolRegistry().createToolContext('my_tool');
    expect(context.toolName).toBe('my_tool');
    expect(typeof context.executionId).toBe('string');
    expect(context.executionId.length).toBeGreaterThan(0);
    expect(context.signal.aborted).toBe(false);
    const dir = context.sandboxDir;
    try {
      expect(statSync(dir).isDirectory()).toBe(true);
      expect(() => context.resolvePath('../x')).toThrow(/outside/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the context a tool receives from callTool has its own toolName', async () => {
    const registry = new ToolRegistry();
    const seen = vi.fn();
    registry.register(definition('inner', { execute: (_args, context) => seen(context.toolName) }));
    await registry.createToolContext().callTool('inner', {});
    expect(seen).toHaveBeenCalledWith('inner');
  });
});
