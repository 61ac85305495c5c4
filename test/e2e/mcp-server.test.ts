// End-to-end: `nuwa mcp` driven by the MCP SDK's own client over stdio, as an MCP client (an IDE, a
// desktop assistant, another agent) would use it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, tempDir, waitFor } from '../support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'test/fixtures/mcp/tools.mjs');
const fixtureServer = `node ${path.join(root, 'test/fixtures/mcp/server.mjs')}`;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function serve(args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], cwd: root, env: { ...env, PATH: process.env.PATH ?? '' }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as {
    content: Array<{ type: string; text: string }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  return { client, transport, call, stderr: () => stderr };
}

describe('nuwa mcp', () => {
  it('lists run_script, describe_tools and each tool under its exported name with schema and annotations', async () => {
    const { client } = await serve(['--tools', tools]);
    expect(client.getServerVersion()?.name).toBe('nuwa');
    const { tools: listed } = await client.listTools();
    const byName = Object.fromEntries(listed.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName)).toEqual(['run_script', 'describe_tools', 'math__add', 'remember', 'recall', 'send_mail', 'drop_table']);
    expect(byName.math__add!.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(byName.math__add!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(byName.send_mail!.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(byName.drop_table!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(byName.run_script!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(byName.run_script!.inputSchema.required).toEqual(['script']);
  });

  it('runs scripts: the run --json object as structuredContent and text; state persists across calls', async () => {
    const { call } = await serve(['--tools', tools]);
    const first = await call('run_script', { script: 'LET s = CALL math.add { a: base, b: 2 }\nPRINT(s)\nCALL remember { key: "total", value: s }', variables: { base: 40 } });
    expect(first.isError).toBe(false);
    expect(first.structuredContent).toMatchObject({ ok: true, output: ['42'], variables: { base: 40, s: 42 }, state: { total: 42 }, stats: { toolCalls: 2 } });
    expect(JSON.parse(first.content[0]!.text)).toEqual(first.structuredContent);
    const second = await call('run_script', { script: 'PRINT(CALL recall { key: "total" } + 1)' });
    expect(second.structuredContent).toMatchObject({ ok: true, output: ['43'], state: { total: 42 } });
  });

  it('flags a failed script with isError and the error in the report', async () => {
    const { call } = await serve(['--tools', tools]);
    const syntax = await call('run_script', { script: 'LET x = \nPRINT(x' });
    expect(syntax.isError).toBe(true);
    expect(syntax.structuredContent).toMatchObject({ ok: false, error: { kind: 'SyntaxError' } });
    const runtime = await call('run_script', { script: 'PRINT("before")\nCALL math.add { a: "x", b: 1 }' });
    expect(runtime.isError).toBe(true);
    expect(runtime.structuredContent).toMatchObject({ ok: false, output: ['before'], error: { kind: 'ToolArgumentError', line: 2 } });
    const bad = await call('run_script', { variables: {} });
    expect(bad.isError).toBe(true);
  });

  it('denies calls that need approval unless started with --yes', async () => {
    const denied = await serve(['--tools', tools]);
    const viaScript = await denied.call('run_script', { script: 'CALL send_mail { to: "a@b.c" }' });
    expect(viaScript.structuredContent).toMatchObject({ ok: false, error: { kind: 'ToolDeniedError' } });
    expect((viaScript.structuredContent!.error as { message: string }).message).toMatch(/only when started with --yes/);
    const direct = await denied.call('drop_table', { table: 'users' });
    expect(direct.isError).toBe(true);
    expect(direct.content[0]!.text).toMatch(/^ToolDeniedError: the call to `drop_table` \(a destructive action\) was denied/);

    const approved = await serve(['--tools', tools, '--yes']);
    expect((await approved.call('drop_table', { table: 'users' })).content[0]!.text).toBe('dropped users');
    expect((await approved.call('run_script', { script: 'PRINT(CALL send_mail { to: "a@b.c" })' })).structuredContent).toMatchObject({ ok: true, output: ['sent to a@b.c'] });
  });

  it('calls a tool directly through the same checks: coercion, argument errors, results', async () => {
    const { call } = await serve(['--tools', tools]);
    const sum = await call('math__add', { a: '1.5', b: 2 });
    expect(sum.isError).toBeFalsy();
    expect(sum.content[0]!.text).toBe('3.5');
    const wrong = await call('math__add', { a: 1, c: 2 });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toMatch(/^ToolArgumentError: invalid arguments for tool `math.add`/);
    await call('remember', { key: 'k', value: { nested: [1] } });
    const recalled = await call('recall', { key: 'k' });
    expect(recalled.structuredContent).toEqual({ nested: [1] });
    // the state a direct call set is the session's, as seen by scripts
    expect((await call('run_script', { script: 'PRINT(CALL recall { key: "k" })' })).structuredContent).toMatchObject({ output: ['{"nested":[1]}'] });
    expect((await call('no_such_tool')).isError).toBe(true);
  });

  it('describes the loaded tools for a model', async () => {
    const { call } = await serve(['--tools', tools]);
    const text = (await call('describe_tools')).content[0]!.text;
    // The prompt of TOOLS.md §10 (buildPrompt): the language rules, then every tool's signature.
    expect(text).toMatch(/Keywords are UPPERCASE/);
    expect(text).toContain('- math.add { a: number "first", b: number "second" } → number: Adds two numbers');
    expect(text).toContain('- drop_table { table: string "name" } → any: Drops a table [asks approval: destructive]');
  });

  it('serves the tools of executables and of another MCP server, and closes that server when the client goes', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const { call, client } = await serve(['--tools-dir', 'examples/tools', '--mcp', fixtureServer], { FIXTURE_PID_FILE: pidFile });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['calculate_distance', 'slugify', 'system_info', 'fixture_server__add', 'fixture_server__get_weather']));
    const result = await call('run_script', { script: 'LET d = CALL calculate_distance { x1: 0, y1: 0, x2: 3, y2: 4 }\nLET s = CALL fixture_server.add { a: d.euclidean, b: 1 }\nPRINT(s.sum)' });
    expect(result.structuredContent).toMatchObject({ ok: true, output: ['6'] });
    expect((await call('fixture_server__add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    await waitFor(() => existsSync(pidFile));
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(serverPid)).toBe(true);
    await client.close();
    clients.length = 0;
    expect(await waitFor(() => !isAlive(serverPid))).toBe(true);
  });

  it('keeps a result key named __proto__: such a result travels as JSON text, with every key', async () => {
    const { call } = await serve(['--mcp', fixtureServer]);
    const odd = await call('fixture_server__odd_keys');
    expect(odd.isError).toBeFalsy();
    expect(odd.structuredContent).toBeUndefined();
    expect(Object.keys(JSON.parse(odd.content[0]!.text))).toEqual(['__proto__', 'constructor', 'toString', 'a']);
    const script = await call('run_script', { script: 'LET r = CALL fixture_server.odd_keys {}\nPRINT(KEYS(r))' });
    expect(script.structuredContent).toMatchObject({ ok: true, output: ['["__proto__","constructor","toString","a"]'] });
    expect(Object.keys((script.structuredContent!.variables as { r: object }).r)).toEqual(['__proto__', 'constructor', 'toString', 'a']);
  });

  it('answers a message over its 10 MiB limit with an error and goes on serving (the SDK client)', async () => {
    const { call, client, stderr } = await serve(['--tools', tools]);
    const huge = `PRINT(1) // ${'x'.repeat(11 * 1024 * 1024)}`;
    await expect(client.callTool({ name: 'run_script', arguments: { script: huge } })).rejects.toThrow(/larger than this server's limit of 10 MiB/);
    const after = await call('run_script', { script: 'PRINT(CALL math.add { a: 1, b: 2 })' });
    expect(after.structuredContent).toMatchObject({ ok: true, output: ['3'] });
    expect(stderr()).toMatch(/nuwa mcp: skipped a message of \d+ bytes \(request \d+\): over the limit of 10 MiB/);
  });

  it('skips junk and oversized lines of a raw client, says so on stderr, keeps serving, and says why it stops', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--tools', tools], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const send = (text: string) => child.stdin.write(`${text}\n`);
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    send('this is not JSON');
    send('{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"run_script","arguments":{"script":"' + 'x'.repeat(12 * 1024 * 1024) + '"}}}');
    send('{"jsonrpc":"2.0","method":"notifications/progress","params":{"junk":"' + 'y'.repeat(11 * 1024 * 1024) + '"}}');
    send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'math__add', arguments: { a: 2, b: 3 } } }));
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    expect(await waitFor(() => stdout.includes('"id":2'), 20_000)).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
    clearTimeout(kill);
    const replies = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id?: unknown; error?: { message: string }; result?: { content: Array<{ text: string }> } });
    expect(replies.find((reply) => reply.id === 'big')?.error?.message).toMatch(/larger than this server's limit of 10 MiB/);
    expect(replies.find((reply) => reply.id === 2)?.result?.content[0]?.text).toBe('5');
    expect(stderr).toMatch(/skipped a line that is not JSON: "this is not JSON"/);
    expect(stderr).toMatch(/skipped a message of more than 10 MiB \(request "big"\): over the limit of 10 MiB/);
    expect(stderr).toMatch(/skipped a message of \d+ bytes: over the limit of 10 MiB/);
    expect(stderr).not.toMatch(/stopping/); // the client closing stdin is the normal end
  });

  it('says on stderr why it stops when it is stopped other than by the client', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--tools', tools], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toBe('nuwa mcp: stopping: terminated (SIGTERM)\n');
  });

  it('exits by itself when the client closes stdin', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--tools', tools], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end();
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    expect(await exited).toBe(0);
    clearTimeout(kill);
  });

  it('has help, and refuses what it does not take with a usage error', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', input: '', timeout: 20_000 });
    const help = run(['mcp', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: nuwa mcp \[options\]/);
    expect(run(['--help']).stdout).toMatch(/nuwa mcp +\[options\]/);
    const file = run(['mcp', 'plan.nuwa']);
    expect(file.status).toBe(2);
    expect(file.stderr).toMatch(/mcp takes no file/);
    const json = run(['mcp', '--json']);
    expect(json.status).toBe(2);
    expect(json.stderr).toMatch(/--json is an option of run/);
  });
});
