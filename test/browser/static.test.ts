// The static playground (npm run playground:build): built into a temporary folder, served by a
// plain file server, opened in headless Chromium. It runs scripts with the example tools defined in
// the page — no `nuwa playground` behind it — asks for approvals itself, and loads nothing from
// anywhere but its own folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlayground } from '../../scripts/playground/build.js';
import { fragmentFor } from '../../src/playground/page/fragment.js';
import { launchBrowser, type Browser } from '../support/browser.js';

const site = mkdtempSync(path.join(tmpdir(), 'nuwa-playground-static-'));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
let browser: Browser;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  const [, launched] = await Promise.all([buildPlayground(site, { standalone: true }), launchBrowser()]);
  browser = launched;
  // Any static file server does; this one serves the folder and nothing else.
  server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const file = path.join(site, pathname === '/' ? 'index.html' : pathname);
    try {
      if (!file.startsWith(site)) throw new Error('outside');
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(site, { recursive: true, force: true });
});

describe('the static playground', () => {
  it('runs a script with the tools defined in the page, asks for approval itself, and loads nothing from elsewhere', async () => {
    const page = await browser.context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready]');
    expect(await page.locator('.where').textContent()).toMatch(/example tools, running in this page/);

    // The default script is the course's quick start, whose tools the page has.
    await page.click('#run');
    await page.waitForSelector('#output .done');
    expect(await page.locator('#output .line').allTextContents()).toEqual([
      'AAPL trades at $189.84',
      'That is above our 150 threshold.',
      '  MSFT: 415.5',
      '  NVDA: 121.4',
      '  TSLA: 248.23',
      'Average of the watchlist: 261.71',
    ]);

    // A call that needs approval, asked in the page; its effect stays in the page's session until Reset.
    await page.goto(`${origin}/${fragmentFor('LET o = CALL place_order { symbol: "AAPL", side: "sell", quantity: 4 }\nLET p = CALL get_portfolio {}\nPRINT(p.positions.AAPL)')}`);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await page.click('#run');
    await page.click('.approval .approve');
    await page.waitForSelector('#output .done');
    expect(await page.locator('#output .line').allTextContents()).toEqual(['6']);
    expect(await page.locator('#state').textContent()).toContain('portfolio = { cash: 10759.36');
    await page.click('#reset');
    await expect.poll(() => page.locator('#state').textContent(), { timeout: 10_000 }).not.toContain('portfolio');

    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    await page.close();
  });
});
