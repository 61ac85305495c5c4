// Unit tests of the RS-SDK view (views/rs-sdk.ts): discoverTools and createToolExecutor over a folder
// of small tools made here, with what can go wrong — a missing folder, a broken tool, an unknown
// name, bad arguments, a crash, output that is not JSON, a timeout — and the approval hook.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolExecutor, discoverTools, type ApprovalRequest, type RsSdk } from '../../src/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nuwa-rs-sdk-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A shell tool: its --tool-info, and the body that handles a call. */
function tool(folder: string, name: string, info: object, body: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, name), `#!/bin/sh\nif [ "$1" = "--tool-info" ]; then echo '${JSON.stringify({ name, ...info })}'; exit 0; fi\n${body}\n`, { mode: 0o755 });
}
const NO_PARAMETERS = { description: 'a tool', parameters: { type: 'object', properties: {} } };

describe('discoverTools', () => {
  it('a folder that does not exist is a clear rejection', async () => {
    await expect(discoverTools(path.join(dir, 'nope'))).rejects.toThrow(/cannot load tools from .*nope: no such directory/);
    await expect(discoverTools('' as never)).rejects.toThrow(TypeError);
  });

  it('a tool that cannot be loaded is reported, and the others are found', async () => {
    tool(dir, 'good', NO_PARAMETERS, 'echo \'{"success": true}\'');
    writeFileSync(path.join(dir, 'broken'), '#!/bin/sh\necho not json\n', { mode: 0o755 });
    const failures: unknown[] = [];
    const found: RsSdk.ToolDefinition[] = await discoverTools(dir, { onFailure: (failure) => failures.push(failure) });
    expect(found.map((t) => t.function.name)).toEqual(['good']);
    expect(failures).toEqual([{ source: path.join(dir, 'broken'), reason: expect.stringMatching(/printed no JSON schema/) }]);
  });
});

describe('createToolExecutor', () => {
  it('never rejects: a missing folder, an unknown tool, bad arguments', async () => {
    const folder = path.join(dir, 'later');
    const executor = createToolExecutor(folder);
    expect(await executor('anything', {})).toEqual({ success: false, error: expect.stringMatching(/no such directory/) });
    // The folder is read again on the next call: made now, its tools are there.
    tool(folder, 'hello', { description: 'greets', parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] } }, 'echo \'{"success": true, "data": "hi"}\'');
    expect(await executor('hello', { who: 'me' })).toEqual({ success: true, data: 'hi' });
    expect(await executor('nope', {})).toEqual({ success: false, error: 'Unknown tool: nope' });
    expect(await executor(42 as never, {})).toEqual({ success: false, error: 'a function call needs the name of a tool, got 42' });
    expect(await executor('hello', [1] as never)).toEqual({ success: false, error: expect.stringMatching(/must be an object/) });
    expect(await executor('hello', { who: 'me', extra: 1 })).toEqual({ success: false, error: expect.stringMatching(/unknown argument `extra`/) });
    expect(await executor('hello')).toEqual({ success: false, error: expect.stringMatching(/missing required argument `who`/) });
  });

  it("the tool's own error as printed, even an empty one; a crash, non-JSON output and a timeout in Nuwa's words", async () => {
    tool(dir, 'fails', NO_PARAMETERS, 'echo \'{"success": false, "error": "Bot is offline"}\'');
    tool(dir, 'silent_failure', NO_PARAMETERS, 'echo \'{"success": false, "error": ""}\'');
    tool(dir, 'crashes', NO_PARAMETERS, 'echo "segfault in module" >&2; exit 3');
    tool(dir, 'chatty', NO_PARAMETERS, 'echo "Debug: starting"');
    tool(dir, 'slow', { ...NO_PARAMETERS, timeoutMs: 300 }, 'sleep 5; echo \'{"success": true}\'');
    const executor = createToolExecutor(dir);
    expect(await executor('fails', {})).toEqual({ success: false, error: 'Bot is offline' });
    expect(await executor('silent_failure', {})).toEqual({ success: false, error: '' });
    expect(await executor('crashes', {})).toEqual({ success: false, error: 'tool `crashes` failed: exited with status 3; stderr: segfault in module' });
    expect(await executor('chatty', {})).toEqual({ success: false, error: 'tool `chatty` failed: it printed something that is not JSON: "Debug: starting"' });
    expect(await executor('slow', {})).toEqual({ success: false, error: expect.stringMatching(/`slow`.*300 ms/) });
  });

  it('asks no approval by default; with a hook, write and destructive tools ask it', async () => {
    tool(dir, 'deploy', { ...NO_PARAMETERS, confirm: 'destructive' }, 'echo \'{"success": true, "data": "deployed"}\'');
    tool(dir, 'peek', { ...NO_PARAMETERS, confirm: 'read' }, 'echo \'{"success": true, "data": "seen"}\'');
    tool(dir, 'note', NO_PARAMETERS, 'echo \'{"success": true, "data": "noted"}\''); // no confirm: taken as write
    expect(await createToolExecutor(dir)('deploy', {})).toEqual({ success: true, data: 'deployed' });
    const asked: ApprovalRequest[] = [];
    const executor = createToolExecutor(dir, { approve: (request) => (asked.push(request), request.confirm !== 'destructive') });
    expect(await executor('deploy', {})).toEqual({ success: false, error: 'the call to `deploy` (a destructive action) was denied: the host did not approve it' });
    expect(await executor('note', {})).toEqual({ success: true, data: 'noted' });
    expect(await executor('peek', {})).toEqual({ success: true, data: 'seen' });
    expect(asked.map((request) => [request.toolName, request.confirm])).toEqual([['deploy', 'destructive'], ['note', 'write']]);
  });

  it('passes env to the tools; bad options are a TypeError at once', async () => {
    tool(dir, 'env', NO_PARAMETERS, 'echo "{\\"success\\": true, \\"data\\": \\"$GATEWAY_HOST\\"}"');
    expect(await createToolExecutor(dir, { env: { GATEWAY_HOST: 'gw.local' } })('env', {})).toEqual({ success: true, data: 'gw.local' });
    expect(() => createToolExecutor(dir, { approve: 'yes' as never })).toThrow(/approve must be a function/);
    expect(() => createToolExecutor(dir, null as never)).toThrow(/options must be an object/);
  });
});
