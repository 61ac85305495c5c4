// The MCP client (TOOLS.md §9) against a real MCP server written with the SDK
// (test/fixtures/mcp/server.mjs): names, risk levels, schemas, results, errors, cancellation,
// timeouts, a server that dies, and closing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { McpConnection, McpConnectOptions } from '../../../src/tools/outside.js';
import { failure } from '../../support/harness.js';
import { isAlive, tempDir, waitFor } from '../../support/processes.js';
import { installProviders } from '../../../src/providers/install.js';

// The registry finds its providers through the package's entry, which these tests bypass.
installProviders();

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/mcp/server.mjs');
const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connect(options: Partial<McpConnectOptions> = {}) {
  const dir = tempDir();
  const log = path.join(dir, 'log');
  const registry = new ToolRegistry();
  const connection = await registry.connectMcp({ command: process.execPath, args: [server], env: { FIXTURE_LOG: log }, ...options });
  open.push(connection);
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), approve: () => true });
  const logged = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  return { registry, connection, interpreter, printed, logged };
}

describe('connecting', () => {
  it('registers the tools as <server>.<tool>, with identifier names, their schemas and risk levels', async () => {
    const { registry, connection } = await connect();
    expect(connection.name).toBe('fixture_server');
    expect(connection.server).toEqual({ name: 'fixture-server', version: '1.2.3' });
    expect(connection.tools).toContain('fixture_server.get_weather');
    expect(connection.failures).toEqual([]);
    expect(isAlive(connection.pid!)).toBe(true);
    const weather = registry.lookup('fixture_server.get_weather')!;
    expect(weather.source).toBe('mcp');
    expect(weather.confirm).toBe('write'); // no annotations
    expect(weather.parametersSchema.required).toEqual(['city']);
    expect(registry.lookup('fixture_server.add')!.confirm).toBe('read');
    expect(registry.lookup('fixture_server.wipe')!.confirm).toBe('destructive');
    expect(registry.lookup('fixture_server.add')!.timeoutMs).toBe(60_000);
  });

  it('uses the name, risk level and timeout the host gives', async () => {
    const { registry, connection } = await connect({ name: 'fx', confirm: 'none', timeoutMs: 1234 });
    expect(connection.name).toBe('fx');
    expect(registry.lookup('fx.get_weather')!.confirm).toBe('none');
    expect(registry.lookup('fx.wipe')!.confirm).toBe('destructive'); // the server's own hint still counts
    expect(registry.lookup('fx.echo')!.timeoutMs).toBe(1234);
  });

  it('reports each tool it cannot use in one line, and registers the others', async () => {
    const { connection } = await connect({ env: { FIXTURE_BROKEN_TOOLS: '1' } });
    expect(connection.tools).toContain('fixture_server.add');
    expect(connection.tools).not.toContain('fixture_server.cyclic');
    const shown = `${process.execPath} ${server}`;
    expect(connection.failures).toEqual([
      { source: `${shown} (tool stringly)`, reason: 'its inputSchema has type "string"; the arguments of an MCP tool are an object (type "object")' },
      { source: `${shown} (tool schemaless)`, reason: 'its inputSchema is not a JSON Schema object (it is missing)' },
      { source: `${shown} (tool (without a name))`, reason: 'it has no name' },
      { source: `${shown} (tool cyclic)`, reason: 'tool "fixture_server.cyclic": its parameters schema has a $ref cycle at #/properties/a' },
    ]);
    for (const failure of connection.failures) expect(failure.reason).not.toContain('\n');
  });

  it('gives a second server of the same name its own toolset', async () => {
    const { registry } = await connect();
    const second = await registry.connectMcp({ command: process.execPath, args: [server] });
    open.push(second);
    expect(second.name).toBe('fixture_server_2');
    expect(registry.has('fixture_server_2.add')).toBe(true);
  });

  it('fails clearly when the server cannot start or exits before answering', async () => {
    const registry = new ToolRegistry();
    await expect(registry.connectMcp({ command: 'no-such-mcp-server-command' })).rejects.toThrow(/cannot use the MCP server `no-such-mcp-server-command`: no such command/);
    await expect(registry.connectMcp({ command: process.execPath, args: ['-e', 'console.error("missing API key"); process.exit(1)'] })).rejects.toThrow(
      /the server exited before it answered; its stderr: missing API key/,
    );
    expect(registry.names()).toEqual([]);
  });
});

describe('calls', () => {
  it('maps results: structuredContent, JSON text, plain text, several content items', async () => {
    const { interpreter, printed } = await connect();
    await interpreter.run(
      [
        'LET s = CALL fixture_server.add { a: 2, b: "3" }',
        'PRINT(s.sum)',
        'LET w = CALL fixture_server.get_weather { city: "Oslo" }',
        'PRINT(w.celsius)',
        'PRINT(CALL fixture_server.echo { text: "plain words" })',
        'LET m = CALL fixture_server.mixed {}',
        'PRINT(LEN(m))',
        'PRINT(m[1].mimeType)',
      ].join('\n'),
    );
    expect(printed).toEqual(['5', '21', 'plain words', '2', 'image/png']);
  });

  it('keeps every key of a result, __proto__ and constructor included, in structuredContent and in JSON text', async () => {
    const { registry, interpreter, printed } = await connect();
    await interpreter.run(
      [
        'LET r = CALL fixture_server.odd_keys {}',
        'PRINT(KEYS(r))',
        'PRINT(r["__proto__"])',
        'PRINT(KEYS(r.a))',
      ].join('\n'),
    );
    expect(printed).toEqual(['["__proto__","constructor","toString","a"]', '{"polluted":true}', '["__proto__"]']);
    const direct = await registry.execute({ name: 'fixture_server.odd_keys', arguments: {} });
    expect(direct.success).toBe(true);
    expect(Object.keys(direct.data as object)).toEqual(['__proto__', 'constructor', 'toString', 'a']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('fails a call whose answer is over maxMessageBytes with an error naming the limit, and stays connected', async () => {
    const { registry, connection, interpreter, printed } = await connect();
    const big = await registry.execute({ name: 'fixture_server.big', arguments: { bytes: 5_000_000 } });
    expect(big).toMatchObject({ success: false, code: 'ToolExecutionError' });
    expect(big.error).toMatch(/the server's answer \(\d+ bytes\) is larger than the client's limit of 4 MiB \(maxMessageBytes\); it was not read$/);
    // An answer whose id is in neither end still fails the call in flight, the same way.
    const hidden = await registry.execute({ name: 'fixture_server.big', arguments: { bytes: 5_000_000, idInTheMiddle: true } });
    expect(hidden.error).toMatch(/larger than the client's limit of 4 MiB/);
    // The connection is still there: the next call works.
    await interpreter.run('PRINT(CALL fixture_server.echo { text: "still here" })');
    expect(printed).toEqual(['still here']);
    expect(isAlive(connection.pid!)).toBe(true);
  });

  it('takes a larger answer when maxMessageBytes allows it', async () => {
    const { registry } = await connect({ maxMessageBytes: 8 * 1024 * 1024 });
    const big = await registry.execute({ name: 'fixture_server.big', arguments: { bytes: 5_000_000 } });
    expect(big.success).toBe(true);
    expect((big.data as string).length).toBe(5_000_000);
  });

  it('checks arguments against the server schema before sending anything', async () => {
    const { interpreter, logged } = await connect();
    const error = await failure(interpreter.run('CALL fixture_server.get_weather { town: "Oslo" }'));
    expect(error.kind).toBe('ToolArgumentError');
    expect(error.message).toMatch(/city/);
    expect(logged()).not.toContain('get-weather');
  });

  it('sends the original tool name, and raises ToolExecutionError with the text of an isError result', async () => {
    const { interpreter, logged } = await connect();
    await interpreter.run('CALL fixture_server.get_weather { city: "Rome" }');
    expect(logged()).toContain('call get-weather {"city":"Rome"}');
    const error = await failure(interpreter.run('CALL fixture_server.fail {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toBe('tool `fixture_server.fail` failed: the database is down');
  });

  it('asks for approval as for any tool', async () => {
    const { registry } = await connect();
    const strict = new Interpreter(registry);
    expect((await failure(strict.run('CALL fixture_server.wipe {}'))).kind).toBe('ToolDeniedError');
    expect((await failure(strict.run('CALL fixture_server.get_weather { city: "Oslo" }'))).kind).toBe('ToolDeniedError');
    await strict.run('CALL fixture_server.echo { text: "reads are fine" }');
  });

  it('passes the host environment through, plus env', async () => {
    process.env.NUWA_TEST_INHERITED = 'inherited';
    try {
      const { interpreter, printed } = await connect();
      await interpreter.run('PRINT(CALL fixture_server.env { name: "NUWA_TEST_INHERITED" })\nPRINT(CALL fixture_server.env { name: "FIXTURE_LOG" } != "(unset)")');
      expect(printed).toEqual(['inherited', 'true']);
    } finally {
      delete process.env.NUWA_TEST_INHERITED;
    }
  });
});

describe('cancellation, timeouts and failures', () => {
  it('cancels a call at the server when its timeout passes', async () => {
    const { interpreter, logged } = await connect({ timeoutMs: 1_000 });
    const error = await failure(interpreter.run('CALL fixture_server.slow { ms: 30000 }'));
    expect(error.kind).toBe('LimitExceededError');
    expect(await waitFor(() => logged().includes('cancelled slow'))).toBe(true);
  });

  it('cancels a call at the server when the run is cancelled', async () => {
    const { interpreter, logged } = await connect();
    const controller = new AbortController();
    const running = failure(interpreter.run('CALL fixture_server.slow { ms: 30000 }', { signal: controller.signal }));
    await waitFor(() => logged().includes('call slow'));
    controller.abort();
    expect((await running).kind).toBe('AbortedError');
    expect(await waitFor(() => logged().includes('cancelled slow'))).toBe(true);
  });

  it('raises ToolExecutionError at once when the server dies mid-call, and for every later call', async () => {
    const { interpreter, connection } = await connect();
    const pid = connection.pid!;
    const started = Date.now();
    const error = await failure(interpreter.run('CALL fixture_server.die {}'));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/the MCP server "fixture_server" stopped during the call; its stderr: .*fixture: fatal: giving up/);
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    const later = await failure(interpreter.run('CALL fixture_server.echo { text: "x" }'));
    expect(later.kind).toBe('ToolExecutionError');
    expect(later.message).toMatch(/is not running/);
  });

  it('sends no cancellation for calls already answered when a run ends', async () => {
    const { interpreter, logged } = await connect();
    await interpreter.run('CALL fixture_server.echo { text: "a" }\nCALL fixture_server.echo { text: "b" }');
    // Messages are handled in order: once this run's call is answered, anything the end of the
    // first run sent has been seen.
    await interpreter.run('CALL fixture_server.echo { text: "c" }');
    expect(logged()).toContain('call echo {"text":"c"}');
    expect(logged()).not.toContain('cancel-notification');
  });

  it('close() stops the server and unregisters its tools', async () => {
    const { registry, connection } = await connect();
    const pid = connection.pid!;
    await connection.close();
    await connection.close(); // twice is fine
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    expect(connection.pid).toBeNull();
    expect(registry.names()).toEqual([]);
  });
});
