// Every code example of sdkwork-agent's Tool API (shared/seeds/003), run through asSdkworkRegistry,
// asserting what the document says they do. The examples' code is in seeds/sdkwork.ts (as written,
// import line changed); the scaffolding here is the host: an `agent` whose `tools` is the view, a
// working directory with the file the example reads, a loopback server for the HTTP tool.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asSdkworkRegistry, defineTool, Interpreter, ToolRegistry, type Sdkwork } from '../../src/index.js';
import { confirmLevelExamples, defineToolExamples, registryExample } from './seeds/sdkwork.js';

let dir: string;
let cwd: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nuwa-sdkwork-'));
  cwd = process.cwd();
  process.chdir(dir);
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** The host: an agent whose tools are the sdkwork view of a registry. */
function agentWith(registry = new ToolRegistry()) {
  return { tools: asSdkworkRegistry(registry), registry };
}

describe('defineTool: the file-read example', () => {
  it('reads a file: data { content, size }, the encoding default filled in', async () => {
    writeFileSync('notes.txt', 'hello, sdkwork');
    const { tools } = agentWith();
    tools.register(defineToolExamples().fileReadTool);
    const result = await tools.execute('file-read', { path: './notes.txt' });
    expect(result).toMatchObject({ success: true, data: { content: 'hello, sdkwork', size: 14 } });
    expect(await tools.execute('file-read', { path: './notes.txt', encoding: 'base64' })).toMatchObject({ success: true, data: { content: Buffer.from('hello, sdkwork').toString('base64') } });
  });

  it("a failure keeps the tool's own message and code", async () => {
    const { tools } = agentWith();
    tools.register(defineToolExamples().fileReadTool);
    const result = await tools.execute('file-read', { path: './missing.txt' });
    expect(result.success).toBe(false);
    expect(result.error).toEqual({ message: expect.stringMatching(/^Failed to read file: ENOENT: no such file or directory/), code: 'FILE_READ_ERROR' });
    expect(result.metadata).toMatchObject({ toolId: 'file-read', toolName: 'File Read' });
  });

  it('an encoding outside its enum is refused before the tool runs', async () => {
    const { tools } = agentWith();
    tools.register(defineToolExamples().fileReadTool);
    const result = await tools.execute('file-read', { path: './notes.txt', encoding: 'latin1' });
    expect(result.error).toEqual({ message: 'invalid arguments for tool `file_read`: `encoding`: expected one of "utf8", "base64", received string "latin1"', code: 'ToolArgumentError' });
  });
});

describe('defineTool: the HTTP request example (against a loopback server)', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method: string; body: string; header: string | undefined }> = [];
  beforeEach(async () => {
    seen.length = 0;
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method!, body, header: request.headers['x-trace'] as string | undefined });
        response.statusCode = request.url === '/missing' ? 404 : 200;
        response.setHeader('x-served-by', 'loopback');
        response.end(request.url === '/missing' ? 'not here' : `ok ${request.method}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('GET by default; POST with headers and a body', async () => {
    const { tools } = agentWith();
    tools.register(defineToolExamples().httpTool);
    const got = await tools.execute('http-request', { url: `${base}/a` });
    expect(got).toMatchObject({ success: true, data: { status: 200, statusText: 'OK', body: 'ok GET', headers: { 'x-served-by': 'loopback' } } });
    const posted = await tools.execute('http-request', { url: `${base}/b`, method: 'POST', headers: { 'x-trace': 't-1' }, body: 'payload' });
    expect(posted).toMatchObject({ success: true, data: { status: 200, body: 'ok POST' } });
    expect(seen).toEqual([
      { method: 'GET', body: '', header: undefined },
      { method: 'POST', body: 'payload', header: 't-1' },
    ]);
  });

  it('a 404: success false, with the data the tool returned', async () => {
    const { tools } = agentWith();
    tools.register(defineToolExamples().httpTool);
    const result = await tools.execute('http-request', { url: `${base}/missing` });
    expect(result).toMatchObject({ success: false, data: { status: 404, statusText: 'Not Found', body: 'not here' } });
    // The tool said no more than success: false; the error still has a message to show.
    expect(result.error).toEqual({ message: 'the tool reported a failure without saying why' });
  });
});

describe('ToolRegistry: the registry example', () => {
  it('registers, lists by category, executes and prints the content', async () => {
    writeFileSync('data.txt', 'line one');
    const { tools } = agentWith();
    const agent = { tools };
    const { fileReadTool } = defineToolExamples();
    // scaffolding: the fileWriteTool the example registers
    const fileWriteTool = defineTool({
      id: 'file-write',
      name: 'File Write',
      description: 'Write file content',
      category: 'file',
      confirm: 'write',
      input: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
      execute: async () => ({ success: true }),
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { fileTools, result } = await registryExample(agent, fileReadTool, fileWriteTool);
    expect(fileTools.map((tool: Sdkwork.Tool) => tool.id)).toEqual(['file-read', 'file-write']);
    expect(result).toMatchObject({ success: true, data: { content: 'line one', size: 8 } });
    expect(log.mock.calls).toEqual([['Content:', 'line one']]);
  });

  it('prints the error message when the file is missing', async () => {
    const { tools } = agentWith();
    const { fileReadTool } = defineToolExamples();
    const fileWriteTool = defineTool({ id: 'file-write', name: 'File Write', description: 'Write', category: 'file', confirm: 'write', execute: async () => ({ success: true }) });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await registryExample({ tools }, fileReadTool, fileWriteTool);
    expect(error.mock.calls).toEqual([['Error:', expect.stringMatching(/^Failed to read file: ENOENT/)]]);
  });
});

describe('ToolExecutionContext, ToolResult and the registry interface', () => {
  it("the caller's context reaches the tool's: executionId, agentId, sessionId, toolId, toolName, logger, signal", async () => {
    const { tools } = agentWith();
    let seen: Record<string, unknown> = {};
    tools.register(
      defineTool({
        id: 'whoami',
        name: 'Who Am I',
        description: 'Reports its context',
        category: 'custom',
        confirm: 'none',
        execute: async (_input, context) => {
          seen = { executionId: context.executionId, agentId: context.agentId, sessionId: context.sessionId, toolId: context.toolId, toolName: context.toolName, aborted: context.signal.aborted };
          context.logger.info('looked', { at: 'context' });
          return { success: true, data: 'ok' };
        },
      }),
    );
    const logged: unknown[][] = [];
    const logger = { debug: () => {}, info: (...args: unknown[]) => void logged.push(args), warn: () => {}, error: () => {} };
    const controller = new AbortController();
    const result = await tools.execute('whoami', {}, { executionId: 'exec-42', agentId: 'agent-7', sessionId: 'session-3', logger, signal: controller.signal });
    expect(seen).toEqual({ executionId: 'exec-42', agentId: 'agent-7', sessionId: 'session-3', toolId: 'whoami', toolName: 'whoami', aborted: false });
    expect(logged).toEqual([['looked', { at: 'context' }]]);
    expect(result.metadata).toEqual({ executionId: 'exec-42', toolId: 'whoami', toolName: 'Who Am I', startTime: expect.any(Number), endTime: expect.any(Number), duration: expect.any(Number) });
  });

  it('ToolResult: { success, data, metadata: { executionId, toolId, toolName, startTime, endTime, duration } }', async () => {
    const { tools } = agentWith();
    tools.register(defineTool({ id: 'one', name: 'One', description: 'one', category: 'data', confirm: 'none', execute: async () => ({ success: true, data: 1 }) }));
    const before = Date.now();
    const result: Sdkwork.ToolResult = await tools.execute('one', {});
    expect(Object.keys(result)).toEqual(['success', 'data', 'metadata']);
    const meta: Sdkwork.ToolExecutionMeta = result.metadata;
    expect(meta.startTime).toBeGreaterThanOrEqual(before);
    expect(meta.endTime).toBeGreaterThanOrEqual(meta.startTime);
    expect(meta.duration).toBeGreaterThanOrEqual(0);
    expect(meta.executionId).toMatch(/:1$/);
  });

  it('the registry has every method of the interface', () => {
    const registry: Sdkwork.ToolRegistry = agentWith().tools;
    for (const method of ['register', 'unregister', 'get', 'getByName', 'list', 'listByCategory', 'search', 'clear', 'execute'] as const) expect(registry[method]).toBeTypeOf('function');
  });
});

describe('confirm levels', () => {
  const rest = (id: string) => ({ name: id, description: `the ${id} tool`, category: 'file' as const, execute: async () => ({ success: true, data: id }) });

  it('none and read run at once; write and destructive ask the host, and are denied without an answer', async () => {
    const { tools } = agentWith();
    const levels = confirmLevelExamples(rest);
    for (const tool of Object.values(levels)) tools.register(tool);
    expect(tools.list().map((tool) => [tool.id, tool.confirm])).toEqual([
      ['calculator', 'none'],
      ['file-read', 'read'],
      ['file-write', 'write'],
      ['file-delete', 'destructive'],
    ]);
    expect(await tools.execute('calculator', {})).toMatchObject({ success: true, data: 'calculator' });
    expect(await tools.execute('file-read', {})).toMatchObject({ success: true, data: 'file-read' });
    expect(await tools.execute('file-write', {})).toMatchObject({ success: false, error: { message: expect.stringMatching(/^the call to `file_write` \(a write action\) was denied/), code: 'ToolDeniedError' } });
    const asked: string[] = [];
    const approve = ({ toolName, confirm }: { toolName: string; confirm: string }) => (asked.push(`${toolName}:${confirm}`), confirm === 'write');
    expect(await tools.execute('file-write', {}, undefined, { approve })).toMatchObject({ success: true, data: 'file-write' });
    expect(await tools.execute('file-delete', {}, undefined, { approve })).toMatchObject({ success: false, error: { code: 'ToolDeniedError' } });
    expect(asked).toEqual(['file_write:write', 'file_delete:destructive']);
  });
});

describe('the view and scripts share the tools', () => {
  it('a tool registered through the view is called from a script by its callable name', async () => {
    writeFileSync('data.txt', 'from a script');
    const { tools, registry } = agentWith();
    tools.register(defineToolExamples().fileReadTool);
    const { variables } = await new Interpreter(registry).run('LET f = CALL file_read { path: "./data.txt" }');
    expect(variables.f).toEqual({ content: 'from a script', size: 13 });
  });
});
