// Every example of RS-SDK's tool development guide (shared/seeds/004), against discoverTools and
// createToolExecutor. The guide's tools are real executables in fixtures/rs-sdk-tools/, as written:
// check_time and calculate_distance (bash), word_count (LuaJIT with dkjson; run where LuaJIT is
// installed), and query_bot_status, which is scaffolding around the guide's best-practice fragments.
// The Bun tool (fixtures/rs-sdk-tools/_fetch_wiki.bun) runs under Node (there is no Bun here): its
// TypeScript is stripped by esbuild and `Bun.stdin.text()` is provided by a preloaded module, its
// code otherwise unchanged.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolExecutor, discoverTools } from '../../src/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const hasLuaJit = spawnSync('luajit', ['-e', 'require("dkjson")']).status === 0;

let tools: string;
let cwd: string;
let gateway: Server;
let gatewayPort: number;
beforeAll(async () => {
  // The guide's tools folder ('./rs-sdk/tools'), with the Bun tool made runnable by Node.
  const root = mkdtempSync(path.join(tmpdir(), 'nuwa-rs-sdk-'));
  tools = path.join(root, 'rs-sdk', 'tools');
  execFileSync('mkdir', ['-p', tools]);
  for (const name of readdirSync(path.join(fixtures, 'rs-sdk-tools'))) {
    if (name === 'word_count' && !hasLuaJit) continue;
    copyFileSync(path.join(fixtures, 'rs-sdk-tools', name), path.join(tools, name));
    chmodSync(path.join(tools, name), name.startsWith('_') ? 0o644 : 0o755);
  }
  const bun = readFileSync(path.join(fixtures, 'rs-sdk-tools', '_fetch_wiki.bun'), 'utf8').replace(/^#!.*\n/, '');
  const javascript = transformSync(bun, { loader: 'ts', format: 'esm' }).code;
  writeFileSync(path.join(tools, 'fetch_wiki'), `#!/usr/bin/env -S node --import ${path.join(fixtures, 'bun-stdin.mjs')}\n${javascript}`, { mode: 0o755 });
  writeFileSync(path.join(tools, 'package.json'), '{"type": "module"}'); // not executable: not a tool

  // The game gateway query_bot_status asks, on loopback.
  gateway = createServer((request, response) => {
    const match = /^\/bots\/(\w+)$/.exec(request.url ?? '');
    if (match?.[1] !== 'idle') {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ username: 'idle', online: true, x: 3200, z: 3210 }));
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayPort = (gateway.address() as AddressInfo).port;
  cwd = process.cwd();
  process.chdir(root);
});
afterAll(async () => {
  process.chdir(cwd);
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  rmSync(path.dirname(path.dirname(tools)), { recursive: true, force: true });
});

describe('Tool Discovery', () => {
  it('discoverTools: the executable files of the folder as function-calling definitions', async () => {
    // --- example ---
    const tools = await discoverTools('./rs-sdk/tools');
    // Returns array of ToolDefinition objects
    // --- example ---
    expect(tools.map((tool) => tool.function.name)).toEqual(['calculate_distance', 'check_time', 'fetch_wiki', 'query_bot_status', ...(hasLuaJit ? ['word_count'] : [])]);
    expect(tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'calculate_distance',
        description: 'Calculate the distance between two world coordinates',
        parameters: {
          type: 'object',
          properties: {
            x1: { type: 'integer', description: 'First X coordinate' },
            z1: { type: 'integer', description: 'First Z coordinate' },
            x2: { type: 'integer', description: 'Second X coordinate' },
            z2: { type: 'integer', description: 'Second Z coordinate' },
          },
          required: ['x1', 'z1', 'x2', 'z2'],
          additionalProperties: false,
        },
      },
    });
  });
});

describe('Tool Execution', () => {
  it('the executor example: query_bot_status for "idle", through the gateway', async () => {
    process.env.GATEWAY_HOST = '127.0.0.1';
    process.env.GATEWAY_PORT = String(gatewayPort);
    try {
      // --- example ---
      const executor = createToolExecutor('./rs-sdk/tools');
      const result = await executor('query_bot_status', { username: 'idle' });
      // --- example ---
      expect(result).toEqual({ success: true, data: { username: 'idle', online: true, x: 3200, z: 3210 } });
      // The guide's own error texts come back as the tool printed them.
      expect(await executor('query_bot_status', {})).toEqual({ success: false, error: 'Missing required parameter: username' });
      expect(await executor('query_bot_status', { username: 'ghost' })).toEqual({ success: false, error: 'Failed to connect to gateway' });
    } finally {
      delete process.env.GATEWAY_HOST;
      delete process.env.GATEWAY_PORT;
    }
  });

  it('the Bash tool: a result without data gives its other fields', async () => {
    const executor = createToolExecutor('./rs-sdk/tools');
    const result = await executor('check_time', {});
    expect(result).toEqual({ success: true, data: { time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) } });
  });

  it('the Bash tool with parameters: the distance; a missing coordinate is refused before it runs', async () => {
    const executor = createToolExecutor('./rs-sdk/tools');
    expect(await executor('calculate_distance', { x1: 0, z1: 0, x2: 3, z2: 4 })).toEqual({ success: true, data: { distance: 5 } });
    expect(await executor('calculate_distance', { x1: '-3', z1: 0, x2: 0, z2: 4 })).toEqual({ success: true, data: { distance: 5 } }); // "-3" → -3
    expect(await executor('calculate_distance', { x1: 0, z1: 0 })).toEqual({
      success: false,
      error: 'invalid arguments for tool `calculate_distance`: missing required argument `x2` (integer: Second X coordinate); missing required argument `z2` (integer: Second Z coordinate)',
    });
  });

  it.skipIf(!hasLuaJit)('the Lua tool: counts words', async () => {
    const executor = createToolExecutor('./rs-sdk/tools');
    expect(await executor('word_count', { text: 'plans of tool calls' })).toEqual({ success: true, data: { count: 4 } });
  });

  it('the TypeScript/Bun tool: its stub answer, and its own error for an empty query', async () => {
    const executor = createToolExecutor('./rs-sdk/tools');
    expect(await executor('fetch_wiki', { query: 'Rune scimitar' })).toEqual({ success: true, data: { name: 'Rune scimitar', info: 'Wiki lookup not implemented' } });
    expect(await executor('fetch_wiki', { query: '' })).toEqual({ success: false, error: 'Missing query' });
  });
});

describe('Testing Tools: the guide shell checks hold for its tools', () => {
  it.each(['check_time', 'calculate_distance', 'fetch_wiki', 'query_bot_status', ...(hasLuaJit ? ['word_count'] : [])])('%s: --tool-info and a call print valid JSON', (name) => {
    const file = path.join(tools, name);
    // ./tools/my_tool --tool-info | python3 -m json.tool
    expect(execFileSync('sh', ['-c', `"${file}" --tool-info | python3 -m json.tool`]).toString()).toContain(`"name": "${name}"`);
    // echo '{}' | ./tools/my_tool | python3 -m json.tool
    expect(execFileSync('sh', ['-c', `echo '{}' | "${file}" 2>/dev/null | python3 -m json.tool`]).toString()).toContain('"success"');
  });
});
