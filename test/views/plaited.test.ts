// Unit tests of the Plaited view (views/plaited/): the registry's execute in Plaited's shape over the
// one call path, the core tools' confinement to outputDir, and the tool discovery — ranking, weights,
// filters, hostile input, and an index file shared by real processes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCoreTools, createToolDiscovery, createToolRegistry, type IndexedTool } from '../../src/plaited.js';
import type { NuwaEvent } from '../../src/index.js';
import { runChild, src } from '../support/child.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nuwa-plaited-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const noArgs = (name: string) => ({ name, description: `the ${name} tool`, parameters: { type: 'object' as const, properties: {} } });

describe('createToolRegistry().execute', () => {
  it('never rejects, whatever it is given', async () => {
    const registry = createToolRegistry();
    registry.register('t', async () => ({ success: true, data: 1 }), noArgs('t'));
    const hostile: unknown[] = [null, undefined, 42, 'text', {}, { name: 5 }, { name: '' }, { name: 't', arguments: '[1, 2]' }, { name: 't', arguments: 7 }, { name: 't', arguments: '"just a string"' }];
    for (const call of hostile) {
      const result = await (registry.execute as (call: unknown) => Promise<unknown>)(call);
      expect(result).toMatchObject({ success: false, error: expect.any(String) });
      expect(Object.keys(result as object).sort()).toEqual(['error', 'success']);
    }
  });

  it('answers exactly { success, data } or { success, error }: no code, no metadata', async () => {
    const registry = createToolRegistry();
    registry.register('t', async () => ({ success: true, data: { n: 1 } }), noArgs('t'));
    expect(await registry.execute({ name: 't', arguments: '{}' })).toStrictEqual({ success: true, data: { n: 1 } });
    expect(await registry.execute({ name: 't', arguments: '{"extra": 1}' })).toStrictEqual({ success: false, error: 'invalid arguments for tool `t`: unknown argument `extra` (this tool takes no arguments)' });
  });

  it('a failure envelope passes through as the handler wrote it: an empty error, its data', async () => {
    const registry = createToolRegistry();
    registry.register('empty', async () => ({ success: false, error: '' }), noArgs('empty'));
    registry.register('partial', async () => ({ success: false, error: 'only 2 of 3 done', data: { done: [1, 2] } }), noArgs('partial'));
    registry.register('object', async () => ({ success: false, error: { message: 'quota exceeded', code: 'QUOTA' } }) as never, noArgs('object'));
    expect(await registry.execute({ name: 'empty', arguments: '{}' })).toStrictEqual({ success: false, error: '' });
    expect(await registry.execute({ name: 'partial', arguments: '{}' })).toStrictEqual({ success: false, error: 'only 2 of 3 done', data: { done: [1, 2] } });
    expect(await registry.execute({ name: 'object', arguments: '{}' })).toStrictEqual({ success: false, error: 'quota exceeded' });
  });

  it("what is not the handler's doing keeps Nuwa's message: an answer that is not an envelope", async () => {
    const registry = createToolRegistry();
    registry.register('bare', async () => 42 as never, noArgs('bare'));
    expect(await registry.execute({ name: 'bare', arguments: '{}' })).toStrictEqual({
      success: false,
      error: 'tool `bare` failed: it returned number 42 where a Plaited-style tool returns { success: true, data } or { success: false, error }',
    });
  });

  it('a thrown value that is not an Error: its text', async () => {
    const registry = createToolRegistry();
    registry.register('throws', async () => {
      throw 'plain text'; // eslint-disable-line no-throw-literal
    }, noArgs('throws'));
    expect(await registry.execute({ name: 'throws', arguments: '{}' })).toStrictEqual({ success: false, error: 'plain text' });
  });

  it('goes through the registry policy and events: a write tool is denied without approval, allowed with it', async () => {
    const events: NuwaEvent[] = [];
    const registry = createToolRegistry({ onEvent: (event) => events.push(event) });
    let runs = 0;
    registry.register('save', async () => ({ success: true, data: ++runs }), { ...noArgs('save'), confirm: 'write' });
    expect(await registry.execute({ name: 'save', arguments: '{}' })).toStrictEqual({
      success: false,
      error: 'the call to `save` (a write action) was denied: no approval hook is configured',
    });
    expect(runs).toBe(0);
    expect(await registry.execute({ name: 'save', arguments: '{}' }, { approve: () => true })).toStrictEqual({ success: true, data: 1 });
    expect(events.map((event) => event.type)).toEqual(['tool:denied', 'tool:invoking', 'tool:invoked', 'tool:completed']);
  });

  it('takes the name and arguments separately too, and arguments as an object', async () => {
    const registry = createToolRegistry();
    registry.register('echo', async (args) => ({ success: true, data: args }), { name: 'echo', description: 'echo', parameters: { type: 'object', properties: { n: { type: 'number' } } } });
    expect(await registry.execute('echo', { n: '3' })).toStrictEqual({ success: true, data: { n: 3 } });
    expect(await registry.execute({ name: 'echo', arguments: { n: 4 } })).toStrictEqual({ success: true, data: { n: 4 } });
  });

  it('schemas: the parameters as registered, as copies', () => {
    const registry = createToolRegistry();
    const parameters = { type: 'object' as const, properties: { q: { type: 'string', description: 'query', minLength: 1 } }, required: ['q'] };
    registry.register('find', async () => ({ success: true }), { name: 'find', description: 'finds', parameters });
    registry.register({ name: 'listed', description: 'Nuwa list form', parameters: [{ name: 'n', description: 'a number', type: 'number' }], returns: 'any', execute: () => 1 });
    const [find, listed] = registry.schemas;
    expect(find).toEqual({ name: 'find', description: 'finds', parameters });
    find!.parameters.properties.q!.description = 'changed';
    expect(registry.schemas[0]!.parameters.properties.q!.description).toBe('query');
    expect(listed!.parameters).toMatchObject({ type: 'object', properties: { n: { type: 'number', description: 'a number' } }, required: ['n'] });
  });
});

describe('createCoreTools', () => {
  const write = (tools: ReturnType<typeof createCoreTools>, file: string, content = 'x') => tools.execute({ name: 'writeTemplate', arguments: JSON.stringify({ path: file, content }) });

  it('writes inside outputDir, making folders, with no approval asked', async () => {
    const out = path.join(dir, 'out');
    const tools = createCoreTools({ outputDir: out });
    expect(await write(tools, 'ui/forms/input.tsx', 'export const Input = 1')).toStrictEqual({ success: true, data: { path: 'ui/forms/input.tsx' } });
    expect(readFileSync(path.join(out, 'ui/forms/input.tsx'), 'utf8')).toBe('export const Input = 1');
    expect(tools.lookup('writeTemplate')!.confirm).toBe('none');
  });

  it.each([
    ['../escape.tsx', /leads outside/],
    ['ui/../../escape.tsx', /leads outside/],
    ['/etc/passwd', /absolute path/],
    ['', /relative path/],
    ['a\0b', /NUL/],
  ])('refuses %j', async (file, message) => {
    const tools = createCoreTools({ outputDir: path.join(dir, 'out') });
    const result = await write(tools, file);
    expect(result).toMatchObject({ success: false, error: expect.stringMatching(message) });
    expect(existsSync(path.join(dir, 'escape.tsx'))).toBe(false);
  });

  it('refuses a path through a symbolic link that leads out', async () => {
    const out = path.join(dir, 'out');
    const outside = path.join(dir, 'outside');
    mkdirSync(out);
    mkdirSync(outside);
    symlinkSync(outside, path.join(out, 'link'));
    const tools = createCoreTools({ outputDir: out });
    expect(await write(tools, 'link/evil.tsx')).toMatchObject({ success: false, error: expect.stringMatching(/symbolic link/) });
    expect(existsSync(path.join(outside, 'evil.tsx'))).toBe(false);
  });

  it('bad arguments are refused before the tool runs', async () => {
    const tools = createCoreTools({ outputDir: path.join(dir, 'out') });
    expect(await tools.execute({ name: 'writeStory', arguments: '{"path": "a.tsx"}' })).toStrictEqual({ success: false, error: expect.stringMatching(/missing required argument `content`/) });
  });

  it('runStory: the runner failing is a failure result; without a runner there is no runStory', async () => {
    const out = path.join(dir, 'out');
    const tools = createCoreTools({ outputDir: out, runStory: () => { throw new Error('story crashed'); } });
    expect(await tools.execute({ name: 'runStory', arguments: '{"path": "a.stories.tsx"}' })).toStrictEqual({ success: false, error: 'story crashed' });
    expect(createCoreTools({ outputDir: out }).has('runStory')).toBe(false);
  });

  it('a bad configuration is a TypeError', () => {
    expect(() => createCoreTools(null as never)).toThrow(TypeError);
    expect(() => createCoreTools({} as never)).toThrow(/outputDir/);
    expect(() => createCoreTools({ outputDir: dir, runStory: 'no' as never })).toThrow(/runStory/);
  });
});

// --- tool discovery ------------------------------------------------------------------------------

const tool = (name: string, description: string, source: IndexedTool['source'] = 'local', keywords: string[] = []): IndexedTool => ({
  name,
  description,
  keywords,
  source,
  schema: { name, description, parameters: { type: 'object', properties: {} } },
});

const TOOLS = [
  tool('send_email', 'Sends an email message to a recipient', 'local', ['mail', 'notify']),
  tool('read_file', 'Reads a text file from disk', 'mcp', ['fs']),
  tool('book_flight', 'Books a flight with a travel agent', 'a2a', ['travel']),
  tool('search_web', 'Searches the web for pages', 'mcp'),
];

describe('createToolDiscovery: keywords', () => {
  it('finds tools by their words, best first, with a keyword rank and a 0..1 score', async () => {
    const discovery = createToolDiscovery();
    await discovery.indexBatch(TOOLS);
    const [first, ...rest] = await discovery.search('send a mail');
    expect(first).toMatchObject({ tool: { name: 'send_email' }, score: 1, ftsRank: 1 });
    expect(first!.vectorDistance).toBeUndefined();
    for (const match of rest) expect(match.score).toBeLessThan(1);
    expect((await discovery.search('fligt')).map((m) => m.tool.name)).toEqual(['book_flight']); // a typo
  });

  it('filters by source; bySource, clearSource, remove, unregister and stats', async () => {
    const discovery = createToolDiscovery();
    await discovery.indexBatch(TOOLS);
    expect((await discovery.search('web file', { source: 'mcp' })).map((m) => m.tool.name).sort()).toEqual(['read_file', 'search_web']);
    expect(discovery.bySource('a2a').map((t) => t.name)).toEqual(['book_flight']);
    expect(discovery.stats()).toEqual({ total: 4, bySource: { local: 1, mcp: 2, a2a: 1 } });
    discovery.clearSource('mcp');
    expect(discovery.stats()).toEqual({ total: 2, bySource: { local: 1, a2a: 1 } });
    expect(await discovery.search('file')).toEqual([]);
    expect(discovery.remove('send_email')).toBe(true);
    expect(discovery.unregister('send_email')).toBe(false);
    expect(discovery.all().map((t) => t.name)).toEqual(['book_flight']);
  });

  it('indexing a name again replaces the tool', async () => {
    const discovery = createToolDiscovery();
    await discovery.index(tool('t', 'Converts currencies'));
    await discovery.index(tool('t', 'Translates languages'));
    expect(discovery.all()).toHaveLength(1);
    expect(await discovery.search('currencies')).toEqual([]);
    expect((await discovery.search('translate')).map((m) => m.tool.description)).toEqual(['Translates languages']);
  });

  it('limit and minScore', async () => {
    const discovery = createToolDiscovery();
    await discovery.indexBatch(TOOLS);
    expect(await discovery.search('sends reads books searches', { limit: 2 })).toHaveLength(2);
    const all = await discovery.search('sends reads books searches', { minScore: 0 });
    expect(all.length).toBeGreaterThan(2);
    expect(await discovery.search('sends reads books searches', { minScore: 1.01 })).toEqual([]);
  });

  it('the tools it returns are frozen copies', async () => {
    const discovery = createToolDiscovery();
    const given = tool('t', 'a tool');
    await discovery.index(given);
    given.description = 'changed';
    const [stored] = discovery.all();
    expect(stored!.description).toBe('a tool');
    expect(Object.isFrozen(stored)).toBe(true);
  });

  it('hostile input: clear errors', async () => {
    const discovery = createToolDiscovery();
    await expect(discovery.index(null as never)).rejects.toThrow(TypeError);
    await expect(discovery.index({ ...tool('t', 'd'), source: 'cloud' as never })).rejects.toThrow(/source must be one of local, module, executable, mcp, a2a/);
    await expect(discovery.index({ ...tool('t', 'd'), keywords: [1] as never })).rejects.toThrow(/keywords/);
    await expect(discovery.index({ ...tool('t', 'd'), schema: { parameters: () => 1 } as never })).rejects.toThrow(/plain data/);
    await expect(discovery.indexBatch('x' as never)).rejects.toThrow(/list/);
    await expect(discovery.search(5 as never)).rejects.toThrow(/string/);
    await expect(discovery.search('x', { limit: 0 })).rejects.toThrow(/limit/);
    await expect(discovery.search('x', { ftsWeight: -1 })).rejects.toThrow(/ftsWeight/);
    await expect(discovery.search('x', { ftsWeight: 0, vectorWeight: 0 })).rejects.toThrow(/both be 0/);
    expect(() => discovery.bySource('cloud' as never)).toThrow(/source/);
    expect(() => createToolDiscovery({ vectorDimensions: 0 })).toThrow(/vectorDimensions/);
    expect(() => createToolDiscovery({ embedder: 'no' as never })).toThrow(/embedder/);
    expect(discovery.all()).toEqual([]);
  });

  it('close ends its use', async () => {
    const discovery = createToolDiscovery();
    await discovery.index(tool('t', 'd'));
    discovery.close();
    expect(() => discovery.all()).toThrow(/closed/);
    await expect(discovery.search('t')).rejects.toThrow(/closed/);
  });
});

describe('createToolDiscovery: vectors and weights', () => {
  // A report-writing pair: the keywords favour report_builder (the word is in its name), the
  // embedder favours summary_tool (its text is about beta, the query's direction).
  const pair = [tool('report_builder', 'Builds an alpha summary'), tool('summary_tool', 'Writes a beta report')];
  const embedder = async (text: string) => (text.includes('beta') ? new Float32Array([1, 0, 0]) : text.includes('alpha') ? new Float32Array([0, 1, 0]) : new Float32Array([0.9, 0.1, 0]));

  it('the weights change the ranking', async () => {
    const discovery = createToolDiscovery({ embedder, vectorDimensions: 3 });
    await discovery.indexBatch(pair);
    const order = async (ftsWeight: number, vectorWeight: number) => (await discovery.search('report', { ftsWeight, vectorWeight })).map((m) => m.tool.name);
    expect(await order(0.9, 0.1)).toEqual(['report_builder', 'summary_tool']);
    expect(await order(0.1, 0.9)).toEqual(['summary_tool', 'report_builder']);
  });

  it('a match carries its keyword rank and its vector distance; a query with no word in common still finds by vector', async () => {
    const discovery = createToolDiscovery({ embedder, vectorDimensions: 3 });
    await discovery.indexBatch(pair);
    const [best, second] = await discovery.search('report', { ftsWeight: 0.1, vectorWeight: 0.9 });
    expect(best).toMatchObject({ tool: { name: 'summary_tool' }, ftsRank: 2 });
    expect(best!.vectorDistance).toBeCloseTo(1 - 0.9 / Math.hypot(0.9, 0.1), 5);
    expect(second!.vectorDistance).toBeGreaterThan(best!.vectorDistance!);
    const semantic = await discovery.search('zzz unrelated');
    expect(semantic[0]).toMatchObject({ tool: { name: 'summary_tool' } });
    expect(semantic[0]!.ftsRank).toBeUndefined();
  });

  it('vectors of the wrong size are refused; enableVectorSearch: false leaves the embedder unused', async () => {
    await expect(createToolDiscovery({ embedder, vectorDimensions: 384 }).index(pair[0]!)).rejects.toThrow(/returned 3 dimensions for tool "report_builder", but vectorDimensions is 384/);
    let asked = 0;
    const off = createToolDiscovery({ embedder: async (text) => (asked++, embedder(text)), enableVectorSearch: false, vectorDimensions: 3 });
    await off.indexBatch(pair);
    expect((await off.search('report'))[0]!.vectorDistance).toBeUndefined();
    expect(asked).toBe(0);
  });

  it('an embedder that fails rejects index and search with its message', async () => {
    const discovery = createToolDiscovery({ embedder: async () => { throw new Error('model offline'); }, vectorDimensions: 3 });
    await expect(discovery.index(pair[0]!)).rejects.toThrow(/the embedder failed on tool "report_builder": model offline/);
    expect(discovery.all()).toEqual([]);
  });
});

describe('createToolDiscovery: an index file (dbPath)', () => {
  it('persists across processes: one indexes and exits, another searches', async () => {
    const dbPath = path.join(dir, 'tools.json');
    const indexer = await runChild(`
      import { createToolDiscovery } from ${JSON.stringify(src('plaited.ts'))};
      const discovery = createToolDiscovery({ dbPath: ${JSON.stringify(dbPath)} });
      await discovery.indexBatch(${JSON.stringify(TOOLS)});
      discovery.close();
    `);
    expect(indexer.stderr).toBe('');
    expect(indexer.status).toBe(0);
    const searcher = await runChild(`
      import { createToolDiscovery } from ${JSON.stringify(src('plaited.ts'))};
      const discovery = createToolDiscovery({ dbPath: ${JSON.stringify(dbPath)} });
      const matches = await discovery.search('read a file');
      console.log(JSON.stringify({ first: matches[0].tool.name, stats: discovery.stats() }));
    `);
    expect(searcher.stderr).toBe('');
    expect(JSON.parse(searcher.stdout)).toEqual({ first: 'read_file', stats: { total: 4, bySource: { local: 1, mcp: 2, a2a: 1 } } });
  });

  it('two processes indexing at once both keep their tools', async () => {
    const dbPath = path.join(dir, 'shared.json');
    const indexer = (prefix: string) =>
      runChild(`
        import { createToolDiscovery } from ${JSON.stringify(src('plaited.ts'))};
        const discovery = createToolDiscovery({ dbPath: ${JSON.stringify(dbPath)} });
        for (let i = 0; i < 40; i++) {
          await discovery.index({ name: '${prefix}_' + i, description: 'tool number ' + i, keywords: [], source: 'local', schema: { name: '${prefix}_' + i, description: 'd', parameters: { type: 'object', properties: {} } } });
        }
      `);
    const [one, two] = await Promise.all([indexer('one'), indexer('two')]);
    expect([one.status, one.stderr, two.status, two.stderr]).toEqual([0, '', 0, '']);
    expect(createToolDiscovery({ dbPath }).stats()).toEqual({ total: 80, bySource: { local: 80 } });
  });

  it('an index sees what another index on the same file changed', async () => {
    const dbPath = path.join(dir, 'tools.json');
    const a = createToolDiscovery({ dbPath });
    const b = createToolDiscovery({ dbPath });
    await a.indexBatch(TOOLS);
    expect((await b.search('flight')).map((m) => m.tool.name)).toEqual(['book_flight']);
    b.clearSource('a2a');
    expect(await a.search('flight')).toEqual([]);
    expect(a.stats().total).toBe(3);
  });

  it('keeps the vectors, so a later process with the embedder does not embed the tools again', async () => {
    const dbPath = path.join(dir, 'vectors.json');
    const embedder = async (text: string) => new Float32Array([text.length % 7, 1, 2]);
    await createToolDiscovery({ dbPath, embedder, vectorDimensions: 3 }).indexBatch(TOOLS);
    const asked: string[] = [];
    const later = createToolDiscovery({ dbPath, embedder: async (text) => (asked.push(text), embedder(text)), vectorDimensions: 3 });
    const matches = await later.search('email');
    expect(asked).toEqual(['email']);
    expect(matches.every((m) => typeof m.vectorDistance === 'number')).toBe(true);
  });

  it('a file that is not an index is an error, and is left as it was', () => {
    const dbPath = path.join(dir, 'notes.json');
    writeFileSync(dbPath, '{"my": "notes"}');
    expect(() => createToolDiscovery({ dbPath })).toThrow(/is not a tool discovery index/);
    writeFileSync(dbPath, 'plain text');
    expect(() => createToolDiscovery({ dbPath })).toThrow(/not JSON/);
    expect(readFileSync(dbPath, 'utf8')).toBe('plain text');
    expect(() => createToolDiscovery({ dbPath: path.join(dir, 'missing', 'x.json') }).clearSource('local')).toThrow(/folder does not exist/);
  });

  it(':memory: writes no file', async () => {
    const discovery = createToolDiscovery({ dbPath: ':memory:' });
    await discovery.indexBatch(TOOLS);
    expect(existsSync(':memory:')).toBe(false);
    expect(discovery.stats().total).toBe(4);
  });
});
