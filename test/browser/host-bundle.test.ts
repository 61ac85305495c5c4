// "The main entry runs in browsers: nothing on its path needs Node's built-ins, and a browser bundle
// of a minimal host works in Chromium" (CLI.md, playground). A host that registers one tool and runs
// one script, bundled from the main entry by esbuild for the browser — with no stand-ins for Node's
// modules, unlike the playground page's build (scripts/playground/node-stubs.ts) — run in headless
// Chromium.
//
// EXPECTED TO FAIL until the main entry is browser-clean: today the bundle does not build (the entry
// imports node:crypto, node:fs, node:os and node:path, and the providers it installs for tools
// outside the process reach node:child_process and the MCP SDK's Node modules; run.ts also uses the
// globals setImmediate and Buffer). When it passes, `it.fails` fails: make it `it`, and remove the
// page build's stand-ins (scripts/playground/node-stubs.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';

const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(root, '.bundle-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HOST = `
import { Interpreter, ToolRegistry } from ${JSON.stringify(path.join(root, 'src', 'index.ts'))};
const registry = new ToolRegistry();
registry.register({
  name: 'double',
  description: 'Doubles n',
  parameters: [{ name: 'n', description: 'a number', type: 'number' }],
  returns: 'number',
  execute: async ({ n }) => n * 2,
});
const printed = [];
const result = await new Interpreter(registry, { print: (line) => printed.push(line) }).run('LET x = CALL double { n: 21 }\\nPRINT(FORMAT("x={x}", { x: x }))');
window.outcome = { printed, variables: result.variables };
`;

describe('a minimal host bundled for the browser from the main entry', () => {
  it.fails('builds with esbuild --platform=browser and runs a script in Chromium', async () => {
    const entry = path.join(work, 'host.mjs');
    writeFileSync(entry, HOST);
    const bundle = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    // Served from 127.0.0.1, a secure context, as a host's page would be.
    const files: Record<string, [string, string]> = {
      '/': ['text/html', '<!doctype html><title>host</title><script type="module" src="/host.js"></script>'],
      '/host.js': ['text/javascript', bundle.outputFiles[0]!.text],
    };
    const server = http.createServer((request, response) => {
      const [type, body] = files[request.url ?? ''] ?? ['text/plain', ''];
      response.writeHead(body === '' ? 404 : 200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
      await page.waitForFunction(() => 'outcome' in globalThis, undefined, { timeout: 10_000 }).catch(() => {});
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => (globalThis as unknown as { outcome?: unknown }).outcome)).toEqual({ printed: ['x=42'], variables: { x: 42 } });
    } finally {
      await browser.close();
      server.close();
    }
  });
});
