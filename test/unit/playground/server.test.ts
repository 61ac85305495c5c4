// The playground server in-process (src/playground/server.ts), where a test can see what the
// process hides: a call whose page goes away while it asks for approval ends, denied and cancelled,
// without the tool running; what a tool prints outside any call goes to the fallback; the page's
// HTML carries the token only where it should; and a port taken is skipped.
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/index.js';
import { pageHtml } from '../../../src/playground/html.js';
import { startPlaygroundServer, toolOutput } from '../../../src/playground/server.js';
import type { ToolResult } from '../../../src/tools/execute.js';

const pageDir = mkdtempSync(path.join(tmpdir(), 'nuwa-playground-page-'));
mkdirSync(path.join(pageDir, 'assets'));
writeFileSync(path.join(pageDir, 'assets', 'playground.js'), 'export {};');
afterAll(() => rmSync(pageDir, { recursive: true, force: true }));

function post(port: number, token: string, pathname: string, body: unknown): http.ClientRequest {
  return http.request({ host: '127.0.0.1', port, method: 'POST', path: pathname, agent: false, headers: { 'content-type': 'application/json', 'x-nuwa-token': token } }).end(JSON.stringify(body)) as http.ClientRequest;
}

describe('the playground server', () => {
  it('cancels a call whose page went away while it was asked for approval: denied, and the tool never runs', async () => {
    const ran: string[] = [];
    const registry = new ToolRegistry();
    registry.register({ name: 'write_it', description: 'Writes.', parameters: [], returns: 'boolean', confirm: 'write', execute: () => (ran.push('write_it'), true) });
    // The call the server makes, as its registry sees it.
    const results: Array<Promise<ToolResult>> = [];
    const execute = registry.execute.bind(registry);
    registry.execute = ((...args: Parameters<ToolRegistry['execute']>) => {
      const result = execute(...args);
      results.push(result);
      return result;
    }) as ToolRegistry['execute'];
    const server = await startPlaygroundServer({ registry, pageDir, port: 0 });
    try {
      const outgoing = post(server.port, server.token, '/api/call', { tool: 'write_it', args: {} });
      await new Promise<void>((resolve) => outgoing.on('response', (response) => response.once('data', () => resolve())));
      outgoing.destroy(); // the page is closed while it is asked
      outgoing.on('error', () => {});
      expect(results).toHaveLength(1);
      const result = await results[0]!;
      expect(result).toMatchObject({ success: false, code: 'AbortedError' });
      expect(ran).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('sends what tools print and log during a call to that call, and anything else to the fallback', () => {
    const printed: string[] = [];
    const output = toolOutput({ print: (line) => printed.push(`print ${line}`), log: (level, message) => printed.push(`${level} ${message}`) });
    output.print('stray');
    output.logger.error('late');
    expect(printed).toEqual(['print stray', 'error late']);
  });

  it('writes the token into the page it serves and its asset URLs, escaped; the static page has none', () => {
    const served = pageHtml({ mode: 'server', token: 'a</script><b' }, '?token=a&b');
    expect(served).toContain('"token":"a\\u003c/script>\\u003cb"');
    expect(served).toContain('src="assets/playground.js?token=a&amp;b"');
    expect(served).not.toContain('</script><b');
    const standalone = pageHtml({ mode: 'static' });
    expect(standalone).toContain('{"mode":"static"}');
    expect(standalone).toContain('src="assets/playground.js"');
  });

  it('takes the next port when the first is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as net.AddressInfo).port;
    const server = await startPlaygroundServer({ registry: new ToolRegistry(), pageDir, port: busy });
    try {
      expect(server.port).toBeGreaterThan(busy);
    } finally {
      await server.close();
      taken.close();
    }
  });
});
