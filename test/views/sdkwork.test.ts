// Unit tests of the sdkwork view (views/sdkwork.ts): each method, what survives registration, and
// hostile input to execute, which always resolves to sdkwork's result shape.
import { describe, expect, it } from 'vitest';
import { asSdkworkRegistry, defineTool, ToolRegistry, type RegistryEvent } from '../../src/index.js';

function view() {
  const registry = new ToolRegistry();
  return { tools: asSdkworkRegistry(registry), registry };
}

const reader = defineTool({
  id: 'file-read',
  name: 'File Read',
  description: 'Reads a file from the disk',
  version: '2.1.0',
  category: 'file',
  confirm: 'read',
  input: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  output: { type: 'object', properties: { content: { type: 'string' } } },
  meta: { author: 'ops', tags: ['fs'] },
  execute: async (input) => ({ success: true, data: { content: `content of ${String(input.path)}` } }),
});

describe('registration', () => {
  it('version, meta, id and the human name survive registration', () => {
    const { tools, registry } = view();
    const shown = tools.register(reader);
    expect(shown).toMatchObject({ id: 'file-read', name: 'File Read', version: '2.1.0', category: 'file', confirm: 'read', meta: { author: 'ops', tags: ['fs'] } });
    expect(shown.input).toMatchObject({ type: 'object', required: ['path'] });
    expect(shown.output).toMatchObject({ type: 'object' });
    expect(registry.lookup('file_read')).toMatchObject({ id: 'file-read', version: '2.1.0', meta: { author: 'ops', tags: ['fs'] } });
    expect(tools.get('file-read')).toBe(shown);
  });

  it('takes an sdkwork tool written as a plain object, and any Nuwa definition', async () => {
    const { tools } = view();
    tools.register({
      id: 'word-count',
      name: 'Word Count',
      description: 'Counts words',
      category: 'data',
      confirm: 'none',
      input: { type: 'object', properties: { text: { type: 'string' } } },
      execute: async (input: Record<string, unknown>) => ({ success: true, data: String(input.text).split(' ').length }),
    });
    tools.register({ name: 'add', description: 'Adds', parameters: [{ name: 'a', description: 'a', type: 'number' }, { name: 'b', description: 'b', type: 'number' }], returns: 'number', execute: (args: Record<string, unknown>) => (args.a as number) + (args.b as number) });
    expect(await tools.execute('word-count', { text: 'a b c' })).toMatchObject({ success: true, data: 3 });
    expect(await tools.execute('add', { a: 1, b: 2 })).toMatchObject({ success: true, data: 3, metadata: { toolId: 'add', toolName: 'add' } });
    expect(tools.get('add')).toMatchObject({ id: 'add', name: 'add', category: 'custom', confirm: 'none' });
    expect(tools.get('add')!.version).toBeUndefined();
  });

  it('refuses a taken id, and what is not a tool', () => {
    const { tools } = view();
    tools.register(reader);
    expect(() => tools.register(reader)).toThrow(/already registered/);
    expect(() => tools.register(null as never)).toThrow(/defineTool/);
    expect(() => tools.register({ id: 'x' } as never)).toThrow(/execute must be a function/);
    expect(() => tools.register(defineTool({ ...reader, id: 'v', version: 3 as never }))).toThrow(/version must be a string/);
  });
});

describe('finding tools', () => {
  const filled = () => {
    const { tools, registry } = view();
    tools.register(reader);
    tools.register(defineTool({ id: 'file-write', name: 'File Write', description: 'Writes a file to the disk', category: 'file', confirm: 'write', execute: async () => ({ success: true }) }));
    tools.register(defineTool({ id: 'http-request', name: 'HTTP Request', description: 'Makes an HTTP request to a server', category: 'network', confirm: 'none', execute: async () => ({ success: true }) }));
    return { tools, registry };
  };

  it('get by id (or the name scripts use), getByName by human name, list, listByCategory', () => {
    const { tools } = filled();
    expect(tools.get('file-write')!.name).toBe('File Write');
    expect(tools.get('file_write')!.id).toBe('file-write');
    expect(tools.get('nope')).toBeUndefined();
    expect(tools.get(7 as never)).toBeUndefined();
    expect(tools.getByName('HTTP Request')!.id).toBe('http-request');
    expect(tools.getByName('nope')).toBeUndefined();
    expect(tools.getByName(null as never)).toBeUndefined();
    expect(tools.list().map((tool) => tool.id)).toEqual(['file-read', 'file-write', 'http-request']);
    expect(tools.listByCategory('file').map((tool) => tool.id)).toEqual(['file-read', 'file-write']);
    expect(tools.listByCategory('llm')).toEqual([]);
  });

  it('search is synchronous and keyword-based, and answers tools', () => {
    const { tools } = filled();
    const found = tools.search('write a file');
    expect(Array.isArray(found)).toBe(true);
    expect(found[0]!.id).toBe('file-write');
    expect(tools.search('http').map((tool) => tool.id)).toEqual(['http-request']);
    expect(tools.search('network').map((tool) => tool.id)).toEqual(['http-request']); // its category
    expect(tools.search('zebra')).toEqual([]);
    expect(tools.search('')).toEqual([]);
    expect(() => tools.search(5 as never)).toThrow(/intent must be a string/);
  });

  it('search follows registration', () => {
    const { tools } = filled();
    expect(tools.search('http')).toHaveLength(1);
    tools.unregister('http-request');
    expect(tools.search('http')).toEqual([]);
    tools.register(defineTool({ id: 'http-get', name: 'HTTP Get', description: 'Fetches a page', category: 'network', confirm: 'none', execute: async () => ({ success: true }) }));
    expect(tools.search('http').map((tool) => tool.id)).toEqual(['http-get']);
  });

  it('unregister by id or name; clear unregisters every tool, each announced', () => {
    const { tools, registry } = filled();
    expect(tools.unregister('file-read')).toBe(true);
    expect(tools.unregister('File Write')).toBe(true);
    expect(tools.unregister('file-read')).toBe(false);
    expect(tools.unregister(undefined as never)).toBe(false);
    const events: RegistryEvent[] = [];
    registry.on('tool:unregistered', (event) => events.push(event));
    tools.clear();
    expect(tools.list()).toEqual([]);
    expect(events.map((event) => event.toolName)).toEqual(['http_request']);
  });
});

describe('execute', () => {
  it('a tool is found by id, callable name, exported name or human name', async () => {
    const { tools } = view();
    tools.register(reader);
    for (const name of ['file-read', 'file_read', 'File Read']) {
      expect(await tools.execute(name, { path: 'a' })).toMatchObject({ success: true, data: { content: 'content of a' }, metadata: { toolId: 'file-read', toolName: 'File Read' } });
    }
  });

  it("a tool's own error keeps its message, code and details; a thrown error its message", async () => {
    const { tools } = view();
    tools.register(defineTool({ id: 'pay', name: 'Pay', description: 'Pays', category: 'network', confirm: 'none', execute: async () => ({ success: false, error: { message: 'card declined', code: 'CARD_DECLINED', details: { retryAfter: 30, issuer: 'bank' } } }) }));
    tools.register(defineTool({ id: 'crash', name: 'Crash', description: 'Throws', category: 'custom', confirm: 'none', execute: async () => { throw new Error('disk on fire'); } }));
    tools.register(defineTool({ id: 'plain', name: 'Plain', description: 'A string error', category: 'custom', confirm: 'none', execute: async () => ({ success: false, error: 'just text' }) as never }));
    expect((await tools.execute('pay', {})).error).toEqual({ message: 'card declined', code: 'CARD_DECLINED', details: { retryAfter: 30, issuer: 'bank' } });
    expect((await tools.execute('crash', {})).error).toEqual({ message: 'disk on fire' });
    expect((await tools.execute('plain', {})).error).toEqual({ message: 'just text' });
  });

  it('the Tool objects execute through the registry too', async () => {
    const { tools } = view();
    const shown = tools.register(reader);
    expect(await shown.execute({ path: 'x' }, { agentId: 'a' })).toMatchObject({ success: true, data: { content: 'content of x' } });
    expect(await shown.execute({})).toMatchObject({ success: false, error: { code: 'ToolArgumentError' } });
  });

  it('never rejects: hostile names, inputs, contexts and options are failure results', async () => {
    const { tools } = view();
    tools.register(reader);
    const cases: Array<[unknown, unknown, unknown, unknown, RegExp, string]> = [
      [42, {}, undefined, undefined, /a function call needs the name of a tool/, 'ToolNotFoundError'],
      ['nope', {}, undefined, undefined, /^Unknown tool: nope$/, 'ToolNotFoundError'],
      ['file-read', 'not json', undefined, undefined, /JSON/, 'ToolArgumentError'],
      ['file-read', [1, 2], undefined, undefined, /must be an object/, 'ToolArgumentError'],
      ['file-read', { path: 'a' }, 'ctx', undefined, /context must be an object/, 'TypeError'],
      ['file-read', { path: 'a' }, { agentId: 7 }, undefined, /context.agentId must be a string/, 'TypeError'],
      ['file-read', { path: 'a' }, { logger: { info: 1 } }, undefined, /context.logger/, 'TypeError'],
      ['file-read', { path: 'a' }, { signal: 'stop' }, undefined, /context.signal must be an AbortSignal/, 'TypeError'],
      ['file-read', { path: 'a' }, undefined, { approve: 'yes' }, /`approve` must be a function/, 'TypeError'],
    ];
    for (const [name, input, context, options, message, code] of cases) {
      const result = await (tools.execute as (...args: unknown[]) => Promise<{ success: boolean; error?: { message: string; code?: string }; metadata: object }>)(name, input, context, options);
      expect(result.success).toBe(false);
      expect(result.error!.message).toMatch(message);
      expect(result.error!.code).toBe(code);
      expect(Object.keys(result.metadata).sort()).toEqual(['duration', 'endTime', 'executionId', 'startTime', 'toolId', 'toolName']);
    }
  });

  it("a cancelled caller's signal aborts the call", async () => {
    const { tools } = view();
    tools.register(defineTool({ id: 'wait', name: 'Wait', description: 'Waits', category: 'custom', confirm: 'none', execute: (_input, context) => new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ success: true, data: 'late' }))) }));
    const controller = new AbortController();
    const pending = tools.execute('wait', {}, { signal: controller.signal });
    controller.abort();
    expect((await pending).error).toMatchObject({ code: 'AbortedError' });
  });

  it('outside an sdkwork call, a tool sees its own context (no caller overlay leaks)', async () => {
    const { tools, registry } = view();
    let agentId: unknown = 'unset';
    tools.register(defineTool({ id: 'who', name: 'Who', description: 'who', category: 'custom', confirm: 'none', execute: async (_input, context) => ((agentId = context.agentId), { success: true }) }));
    await tools.execute('who', {}, { agentId: 'agent-1' });
    expect(agentId).toBe('agent-1');
    await registry.execute('who', {});
    expect(agentId).toBeUndefined();
  });
});
