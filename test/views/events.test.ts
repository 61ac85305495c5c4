// The events sdkwork's Tool API documents (shared/seeds/003, "Tool 事件"): every tool event carries
// the tool's id (`toolId`) and what it is about (`payload`), and there is `tool:invoked` between
// `tool:invoking` and `tool:completed` (TOOLS.md §8, v1.1); the registry's own events too.
import { describe, expect, it } from 'vitest';
import { asSdkworkRegistry, defineTool, ToolRegistry, type NuwaEvent, type RegistryEvent } from '../../src/index.js';


const reader = defineTool({
  id: 'file-read',
  name: 'File Read',
  description: 'Reads a file',
  category: 'file',
  confirm: 'read',
  input: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: async (input) => (input.path === 'missing' ? { success: false, error: { message: 'no such file', code: 'ENOENT' } } : { success: true, data: { content: 'text' } }),
});

/** An event as sdkwork documents it: type, timestamp, payload, toolId, executionId. */
type ToolEvent = NuwaEvent & { toolId: string; payload: unknown };

describe('tool events of a call made through the sdkwork view', () => {
  it('invoking, invoked, completed: each with the tool id and its payload', async () => {
    const events: ToolEvent[] = [];
    const tools = asSdkworkRegistry(new ToolRegistry({ onEvent: (event) => events.push(event as ToolEvent) }));
    tools.register(reader);
    const result = await tools.execute('file-read', { path: 'a.txt' });
    expect(events.map((event) => event.type)).toEqual(['tool:invoking', 'tool:invoked', 'tool:completed']);
    for (const event of events) {
      expect(event.toolId).toBe('file-read');
      expect(event.timestamp).toBeTypeOf('number');
      expect(event.executionId).toBe(result.metadata.executionId);
    }
    expect(events[0]!.payload).toEqual({ path: 'a.txt' });
    expect(events[2]!.payload).toEqual({ content: 'text' });
  });

  it("failed: the payload is the tool's error, code kept", async () => {
    const events: ToolEvent[] = [];
    const tools = asSdkworkRegistry(new ToolRegistry({ onEvent: (event) => events.push(event as ToolEvent) }));
    tools.register(reader);
    await tools.execute('file-read', { path: 'missing' });
    const failed = events.find((event) => event.type === 'tool:failed')!;
    expect(failed.toolId).toBe('file-read');
    expect(failed.payload).toMatchObject({ message: expect.stringContaining('no such file'), code: 'ENOENT' });
  });

  it('a tool without an id: toolId is its name', async () => {
    const events: ToolEvent[] = [];
    const registry = new ToolRegistry({ onEvent: (event) => events.push(event as ToolEvent) });
    registry.register({ name: 'one', description: 'one', parameters: [], returns: 'number', execute: () => 1 });
    await registry.execute('one', {});
    expect(events.every((event) => event.toolId === 'one')).toBe(true);
  });
});

describe('registry events', () => {
  it('tool:registered and tool:unregistered carry toolId and the tool as payload', () => {
    const registry = new ToolRegistry();
    const events: Array<RegistryEvent & { toolId: string; payload: unknown }> = [];
    registry.on('tool:registered', (event) => events.push(event as never));
    registry.on('tool:unregistered', (event) => events.push(event as never));
    const tools = asSdkworkRegistry(registry);
    tools.register(reader);
    tools.unregister('file-read');
    expect(events.map((event) => [event.type, event.toolId])).toEqual([
      ['tool:registered', 'file-read'],
      ['tool:unregistered', 'file-read'],
    ]);
    expect(events[0]!.payload).toMatchObject({ id: 'file-read' });
  });
});
