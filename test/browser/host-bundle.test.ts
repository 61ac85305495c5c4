// "The main entry runs in browsers: nothing on its path needs Node's built-ins, and a browser bundle
// of a minimal host works in Chromium" (CLI.md, playground). A host that imports the package by its
// name, registers one tool and runs one script, bundled by esbuild for the browser as an application
// would be (the package's `browser` field puts its few Node-only modules' browser twins in their
// place), run in headless Chromium.
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
import { Interpreter, ToolRegistry } from 'nuwa-script';
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
  it('builds with esbuild --platform=browser and runs a script in Chromium', async () => {
    const entry = path.join(work, 'host.mjs');
    writeFileSync(entry, HOST);
    const bundle = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', metafile: true });
    // Nothing of Node's on the way: no built-in module, and none of the modules that have a browser twin.
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs.filter((input) => /^node:|(sandbox|install|file-store|core-tools|discovery-file)\.js$/.test(input))).toEqual([]);
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
