// Chains (sdkwork's executeChain, TOOLS.md §11, DURABLE.md §4): sequential with {{prev...}}, parallel
// up to maxConcurrentCalls, dag with dependencies and skipped nodes; node states, the tool's own
// errors, tool:chain:* events; every node through the one call path (approval, events).
import { describe, expect, it } from 'vitest';
import { asSdkworkRegistry, defineTool, ToolRegistry, type NuwaEvent } from '../../src/index.js';

function files() {
  const written: Record<string, string> = {};
  const tools = [
    defineTool({
      id: 'file-read', name: 'File Read', description: 'Reads a file', category: 'file', confirm: 'read',
      input: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: async ({ path }) => (path === './input.txt' ? { success: true, data: { content: 'hello chains', size: 12 } } : { success: false, error: { message: `no such file ${String(path)}`, code: 'ENOENT', details: { path } } }),
    }),
    defineTool({
      id: 'data-process', name: 'Data Process', description: 'Shouts', category: 'data',
      input: { type: 'object', properties: { data: { type: 'string' } }, required: ['data'] },
      execute: async ({ data }) => ({ success: true, data: String(data).toUpperCase() }),
    }),
    defineTool({
      id: 'file-write', name: 'File Write', description: 'Writes a file', category: 'file', confirm: 'write',
      input: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
      execute: async ({ path, content }) => ((written[String(path)] = String(content)), { success: true, data: { path, size: String(content).length } }),
    }),
  ];
  const registry = new ToolRegistry({ approve: () => true });
  const sdk = asSdkworkRegistry(registry);
  for (const tool of tools) sdk.register(tool);
  return { registry, sdk, written };
}

describe('executeChain', () => {
  it("runs sdkwork's example: each node reads the one before through {{prev...}}", async () => {
    const { sdk, written } = files();
    const chainResult = await sdk.executeChain([
      { toolId: 'file-read', input: { path: './input.txt' } },
      { toolId: 'data-process', input: { data: '{{prev.data.content}}' } },
      { toolId: 'file-write', input: { path: './output.txt', content: '{{prev.data}}' } },
    ]);
    expect(chainResult.success).toBe(true);
    expect(written).toEqual({ './output.txt': 'HELLO CHAINS' });
    expect(chainResult.nodes.map((node) => [node.id, node.state])).toEqual([['0', 'completed'], ['1', 'completed'], ['2', 'completed']]);
    expect(chainResult.results['2']).toMatchObject({ success: true, data: { path: './output.txt', size: 12 }, metadata: { toolId: 'file-write', toolName: 'File Write' } });
  });

  it("a failed node keeps the tool's own error; the nodes after it are skipped", async () => {
    const { sdk, written } = files();
    const result = await sdk.executeChain([
      { id: 'read', toolId: 'file-read', input: { path: './missing.txt' } },
      { id: 'write', toolId: 'file-write', input: { path: './out', content: '{{prev.data.content}}' } },
    ]);
    expect(result.success).toBe(false);
    expect(result.nodes.map((node) => node.state)).toEqual(['failed', 'skipped']);
    expect(result.results.read!.error).toEqual({ message: 'no such file ./missing.txt', code: 'ENOENT', details: { path: './missing.txt' } });
    expect(result.nodes[1]!.error).toBe('skipped: read failed');
    expect(result.results.write).toBeUndefined();
    expect(written).toEqual({});
  });

  it('parallel: all at once up to maxConcurrentCalls; writes never overlap', async () => {
    let reading = 0;
    let mostReading = 0;
    let writing = 0;
    const overlaps: string[] = [];
    const registry = new ToolRegistry({ approve: () => true });
    registry.register({ name: 'slow_read', description: 'd', parameters: [{ name: 'i', description: 'i', type: 'number' }], returns: 'number', confirm: 'read',
      execute: async ({ i }) => { reading++; mostReading = Math.max(mostReading, reading); await new Promise((r) => setTimeout(r, 5)); reading--; return i; } });
    registry.register({ name: 'slow_write', description: 'd', parameters: [{ name: 'i', description: 'i', type: 'number' }], returns: 'number', confirm: 'write',
      execute: async ({ i }) => { if (writing > 0) overlaps.push(String(i)); writing++; await new Promise((r) => setTimeout(r, 2)); writing--; return i; } });
    const nodes = [...Array.from({ length: 12 }, (_, i) => ({ toolId: 'slow_read', input: { i } })), ...Array.from({ length: 4 }, (_, i) => ({ toolId: 'slow_write', input: { i } }))];
    const result = await registry.executeChain(nodes, { strategy: 'parallel' });
    expect(result.success).toBe(true);
    expect(mostReading).toBeGreaterThan(1);
    expect(mostReading).toBeLessThanOrEqual(8);
    expect(overlaps).toEqual([]);
    expect(Object.values(result.results).map((r) => r.data)).toEqual([...Array.from({ length: 12 }, (_, i) => i), 0, 1, 2, 3]);
  });

  it('dag: a node starts when its dependencies completed, reads them through {{nodes...}}, and is skipped after a failed one', async () => {
    const { sdk, written } = files();
    const result = await sdk.executeChain(
      {
        id: 'report',
        strategy: 'dag',
        nodes: [
          { id: 'write', toolId: 'file-write', input: { path: './report.txt', content: 'report: {{nodes.shout.data}}' }, dependencies: ['shout'] },
          { id: 'shout', toolId: 'data-process', input: { data: '{{nodes.read.data.content}}' }, dependencies: ['read'] },
          { id: 'read', toolId: 'file-read', input: { path: './input.txt' } },
          { id: 'bad', toolId: 'file-read', input: { path: './nope' } },
          { id: 'after-bad', toolId: 'data-process', input: { data: 'x' }, dependencies: ['bad'] },
        ],
      },
      { strategy: 'dag' },
    );
    expect(written).toEqual({ './report.txt': 'report: HELLO CHAINS' });
    expect(Object.fromEntries(result.nodes.map((node) => [node.id, node.state]))).toEqual({ write: 'completed', shout: 'completed', read: 'completed', bad: 'failed', 'after-bad': 'skipped' });
    expect(result.success).toBe(false);
  });

  it('emits tool:chain:started and completed (or failed) to registry.on and onEvent, with the tool events of each node', async () => {
    const { registry } = files();
    const seen: string[] = [];
    registry.on('tool:chain:started', (event) => seen.push(`registry ${event.type} ${event.chainId}`));
    registry.on('tool:chain:completed', (event) => seen.push(`registry ${event.type}`));
    const events: NuwaEvent[] = [];
    await registry.executeChain({ id: 'c1', nodes: [{ toolId: 'data-process', input: { data: 'a' } }] }, { onEvent: (event) => events.push(event) });
    expect(seen).toEqual(['registry tool:chain:started c1', 'registry tool:chain:completed']);
    expect(events.map((event) => event.type)).toEqual(['tool:chain:started', 'tool:invoking', 'tool:invoked', 'tool:completed', 'tool:chain:completed']);
    expect(events[1]).toMatchObject({ callId: 'c1/0', toolId: 'data-process' });
  });

  it('refuses a chain it cannot run, without throwing: a circle, an unknown dependency, two nodes with one id', async () => {
    const { sdk } = files();
    const circle = await sdk.executeChain({ id: 'c', strategy: 'dag', nodes: [{ id: 'a', toolId: 'data-process', dependencies: ['b'] }, { id: 'b', toolId: 'data-process', dependencies: ['a'] }] }, { strategy: 'dag' });
    expect(circle.success).toBe(false);
    expect(circle.error).toMatch(/go round in a circle: a → b → a/);
    expect(circle.nodes.map((node) => node.state)).toEqual(['skipped', 'skipped']);
    const unknown = await sdk.executeChain([{ toolId: 'data-process', dependencies: ['zz'] }]);
    expect(unknown.error).toMatch(/depends on "zz"/);
    const twice = await sdk.executeChain([{ id: 'x', toolId: 'data-process' }, { id: 'x', toolId: 'data-process' }]);
    expect(twice.error).toMatch(/two nodes have the id/);
  });
});
