// `nuwa playground` in a real browser (headless Chromium, test/support/browser.ts): the page the
// server serves, driven as a person would — typing, hovering, clicking Run, Plan, Approve, Deny,
// Reset, an example, a shared link — against the tools of examples/tools.mjs and
// test/fixtures/tools-playground.mjs, whose `record` and `mark` tools write to a file, so that a
// test sees whether a call really ran on the server. One browser for the file, a page per test.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, ToolRegistry } from '../../src/index.js';
import { loadToolModule } from '../../src/providers/module.js';
import { fragmentFor } from '../../src/playground/page/fragment.js';
import { launchBrowser, type Browser } from '../support/browser.js';
import { startPlayground, type RunningPlayground } from '../support/playground.js';

// The functions given to page.evaluate run in the page: its `document` (the tests are compiled without the DOM's types).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const work = mkdtempSync(path.join(tmpdir(), 'nuwa-playground-'));
const recordFile = path.join(work, 'record.txt');
let browser: Browser;
let playground: RunningPlayground;
const started = Date.now();

beforeAll(async () => {
  [browser, playground] = await Promise.all([
    launchBrowser(),
    startPlayground(['--tools', 'examples/tools.mjs', '--tools', 'test/fixtures/tools-playground.mjs'], { NUWA_TEST_RECORD: recordFile }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  expect(await playground?.stop()).toBe(0);
  rmSync(work, { recursive: true, force: true });
  console.log(`browser tests of nuwa playground: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

/** Waits (generously: the machine may be busy) until `read` gives what the matcher that follows wants. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

const recorded = () => (existsSync(recordFile) ? readFileSync(recordFile, 'utf8') : '');

/** A new page with `script` in the editor (through the URL fragment, as a shared link opens it). */
async function open(script?: string): Promise<Page> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(playground.url + (script === undefined ? '' : fragmentFor(script)));
  await page.waitForSelector('body[data-ready]');
  expect(errors).toEqual([]);
  return page;
}

const editorText = (page: Page) => page.evaluate(() => [...document.querySelectorAll('.cm-content .cm-line')].map((line: { textContent: string }) => line.textContent).join('\n'));
const outputLines = (page: Page) => page.locator('#output .line').allTextContents();

/** Clicks Run and waits for the run to end. */
async function run(page: Page): Promise<void> {
  await page.click('#run');
  await page.waitForSelector('#output .done, #output pre.error');
}

describe('nuwa playground in a browser', () => {
  it('highlights a script as it is typed: each token class is a CSS class in the DOM', async () => {
    const page = await open('');
    await page.click('.cm-content');
    await page.keyboard.type('LET p = CALL get_price { symbol: "AAPL" } // the price');
    await page.keyboard.press('Escape'); // closes the completion popup
    const spans = await page.locator('.cm-line span').evaluateAll((elements) => elements.map((e) => [e.className, e.textContent]));
    expect(spans).toEqual(
      expect.arrayContaining([
        ['nuwa-keyword', 'LET'],
        ['nuwa-variable', 'p'],
        ['nuwa-operator', '='],
        ['nuwa-keyword', 'CALL'],
        ['nuwa-tool', 'get_price'],
        ['nuwa-key', 'symbol'],
        ['nuwa-string', '"AAPL"'],
        ['nuwa-comment', '// the price'],
      ]),
    );
    await page.close();
  });

  it("underlines the checker's problems as you type: the message on hover and in the problems list, as nuwa check gives it", async () => {
    const script = 'LET price = CALL get_pric { symbol: "AAPL" }\nPRINT(price)';
    const page = await open(script);
    const underline = page.locator('.cm-lintRange-error').first();
    await eventually(() => underline.textContent()).toBe('CALL get_pric');
    const registry = new ToolRegistry();
    await loadToolModule(registry, 'examples/tools.mjs');
    const [problem] = check(script, registry);
    expect(problem!.message).toContain('get_price'); // the suggestion
    await page.locator('#problems .problem-message').first().waitFor();
    expect(await page.locator('#problems .problem-message').first().textContent()).toBe(problem!.message);
    await underline.hover();
    await eventually(() => page.locator('.cm-tooltip-lint').textContent()).toContain(problem!.message);
    await page.close();
  });

  it('completes tool names after CALL and their arguments inside the braces', async () => {
    const page = await open('');
    await page.click('.cm-content');
    await page.keyboard.type('LET q = CALL get_q');
    await eventually(() => page.locator('.cm-completionLabel').allTextContents()).toEqual(['get_quote']);
    await page.click('.cm-completionLabel');
    await page.keyboard.type(' { s');
    await eventually(() => page.locator('.cm-completionLabel').allTextContents()).toEqual(['symbol']);
    await page.click('.cm-completionLabel');
    expect(await editorText(page)).toBe('LET q = CALL get_quote { symbol: }');
    await page.close();
  });

  it('previews the plan: every call, its risk level and bound, and what needs approval', async () => {
    const page = await open('FOR s IN ["AAPL", "MSFT"] DO\n  LET p = CALL get_price { symbol: s }\n  LET o = CALL place_order { symbol: s, side: "buy", quantity: 1 }\nEND');
    await page.click('#plan');
    const rows = await page.locator('#plan-panel tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual([
      ['2:11', 'get_price', 'none', 'data', '≤ 2'],
      ['3:11', 'place_order', 'write', 'network', '≤ 2'],
    ]);
    expect(await page.locator('#plan-panel .plan-approval').textContent()).toBe('Needs approval: place_order (write) ≤ 2');
    expect(recorded()).toBe(''); // a plan runs nothing
    await page.close();
  });

  it('runs a script: the output, tools printing through the server, the final variables; nothing loads from elsewhere', async () => {
    const requests: string[] = [];
    browser.context.on('request', (request) => requests.push(request.url()));
    const page = await open('LET p = CALL get_price { symbol: "MSFT" }\nPRINT(FORMAT("MSFT at {p}", { p: p }))\nLET s = CALL shout { text: "hi" }');
    await run(page);
    browser.context.removeAllListeners('request');
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => !url.startsWith(`${playground.origin}/`))).toEqual([]);
    expect(await outputLines(page)).toEqual(['MSFT at 415.5', 'HI']);
    expect(await page.locator('#output .note').allTextContents()).toEqual(['[shout] shouted hi']); // its context.logger
    expect(await page.locator('#variables').textContent()).toBe('p = 415.5\ns = "HI"');
    await page.close();
  });

  it('asks in the page before a call that needs approval: approved, it runs on the server', async () => {
    const page = await open('LET ok = CALL record { line: "approved in the page" }\nPRINT(ok)');
    await page.click('#run');
    await page.locator('.approval').waitFor();
    expect(await page.locator('.approval').textContent()).toContain('record needs approval: a write action (file)');
    expect(recorded()).not.toContain('approved in the page'); // nothing ran while it asked
    await page.click('.approval .approve');
    await page.waitForSelector('#output .done');
    expect(await outputLines(page)).toEqual(['true']);
    expect(recorded()).toContain('approved in the page\n');
    await page.close();
  });

  it('denied, the call never runs and the script stops with ToolDeniedError at the CALL', async () => {
    const page = await open('PRINT("before")\nLET ok = CALL record { line: "denied in the page" }\nPRINT("after")');
    await page.click('#run');
    await page.click('.approval .deny');
    await page.waitForSelector('#output pre.error');
    expect(await outputLines(page)).toEqual(['before']);
    expect(await page.locator('#output pre.error').textContent()).toMatch(/^playground:2:10: ToolDeniedError: the call to `record` \(a write action\) was denied/);
    expect(recorded()).not.toContain('denied in the page');
    await page.close();
  });

  it('asks for a call a tool makes itself (through the call stream), and a tool error shows as the server reported it', async () => {
    const page = await open('LET a = CALL record_via { line: "nested" }\nPRINT(a)\nLET b = CALL get_price { symbol: "ZZZ" }');
    await page.click('#run');
    await page.locator('.approval').waitFor();
    expect(await page.locator('.approval strong').textContent()).toBe('record');
    await page.click('.approval .approve');
    await page.waitForSelector('#output pre.error');
    expect(recorded()).toContain('nested\n');
    expect(await outputLines(page)).toEqual(['true']);
    expect(await page.locator('#output pre.error').textContent()).toMatch(/^playground:3:9: ToolExecutionError: tool `get_price` failed: unknown symbol ZZZ/);
    await page.close();
  });

  it('stops a long run with Stop, and the page stays responsive while it runs', async () => {
    // Slow steps, few of them: the run outlasts any machine's load without reaching maxSteps (10
    // million; a loop of cheap steps could end there, with the button back at Run, before it is seen).
    const page = await open('LET n = 0\nFOR a IN RANGE(0, 1000) DO\n  FOR b IN RANGE(0, 1000) DO\n    LET s = JOIN(RANGE(0, 5000), ",")\n    LET n = n + 1\n  END\nEND');
    await page.click('#run');
    await eventually(() => page.locator('#run').textContent()).toBe('Stop');
    await page.click('#run');
    await page.waitForSelector('#output pre.error');
    expect(await page.locator('#output pre.error').textContent()).toMatch(/^playground:\d+:\d+: AbortedError/);
    expect(await page.locator('#run').textContent()).toBe('Run');
    await page.close();
  });

  it('marks the line of a runtime error in the editor and shows its code frame', async () => {
    const page = await open('LET total = 120\nLET people = 0\nLET share = total / people\nPRINT(share)');
    await run(page);
    const error = await page.locator('#output pre.error').textContent();
    expect(error).toContain('playground:3:19: DivisionByZeroError');
    expect(error).toContain('3 | LET share = total / people\n  |                   ^');
    expect(await page.locator('.cm-nuwa-error-line').textContent()).toBe('LET share = total / people');
    expect(await page.locator('.cm-nuwa-error-at').textContent()).toBe('/');
    await page.close();
  });

  it('keeps the script in the URL: a link opened in a new page holds the script as written', async () => {
    const page = await open('');
    await page.click('.cm-content');
    const script = 'LET greeting = "héllo, wörld ✓"\nPRINT(greeting)';
    await page.keyboard.insertText(script);
    await eventually(() => page.url()).toContain(fragmentFor(script));
    const link = page.url();
    const other = await browser.context.newPage();
    await other.goto(link);
    await other.waitForSelector('body[data-ready]');
    expect(await editorText(other)).toBe(script);
    await other.close();
    await page.close();
  });

  it('keeps the state between runs until Reset', async () => {
    const page = await open('LET order = CALL place_order { symbol: "TSLA", side: "sell", quantity: 1 }\nLET p = CALL get_portfolio {}\nPRINT(p.positions.TSLA)');
    await page.click('#run');
    await page.click('.approval .approve');
    await page.waitForSelector('#output .done');
    expect(await outputLines(page)).toEqual(['3']);
    await page.click('#run');
    await page.click('.approval .approve');
    await page.waitForSelector('#output .done');
    expect(await outputLines(page)).toEqual(['2']); // the state carried over
    expect(await page.locator('#state').textContent()).toContain('portfolio = ');
    await page.click('#reset');
    await eventually(() => page.locator('#state').textContent()).toBe('The session state is empty.');
    await page.close();
  });

  it('opens an example from the gallery in one click', async () => {
    const page = await open('PRINT(1)');
    await page.click('#examples-button');
    await page.click('#examples [data-path="examples/take-profit.nuwa"]');
    const source = readFileSync('examples/take-profit.nuwa', 'utf8');
    expect(await editorText(page)).toBe(source);
    expect(page.url()).toContain(fragmentFor(source));
    expect(await page.locator('#examples').isHidden()).toBe(true);
    await page.close();
  });

  it('refuses other pages: one elsewhere that knows the token gets 403 for a post, a fetch or a script tag, and no tool runs', async () => {
    // An attacker's page on another port of 127.0.0.1: another origin, which even knows the token.
    const attacker = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${(attacker.address() as { port: number }).port}/`);
    const answers: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === playground.origin) answers.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    });
    const query = `?token=${playground.token}`;
    const tried = await page.evaluate(
      async ({ origin, query }) => {
        const body = JSON.stringify({ tool: 'mark', args: { line: 'from elsewhere' } });
        const outcomes: string[] = [];
        // A "simple" POST (no preflight), as any page or form can send it.
        await fetch(`${origin}/api/call${query}`, { method: 'POST', mode: 'no-cors', body }).then(() => outcomes.push('simple post sent'));
        // A JSON POST needs a preflight, which is refused: the browser never sends the POST.
        await fetch(`${origin}/api/call${query}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(
          () => outcomes.push('json post answered'),
          () => outcomes.push('json post blocked'),
        );
        // Reading the state with a GET, and loading the page's script: no Origin header, but Sec-Fetch-Site.
        await fetch(`${origin}/api/state${query}`, { mode: 'no-cors' }).then(() => outcomes.push('get sent'));
        await new Promise<void>((resolve) => {
          const script = document.createElement('script');
          script.src = `${origin}/assets/playground.js${query}`;
          script.onload = () => (outcomes.push('script loaded'), resolve());
          script.onerror = () => (outcomes.push('script refused'), resolve());
          document.head.append(script);
        });
        return outcomes;
      },
      { origin: playground.origin, query },
    );
    expect(tried).toEqual(['simple post sent', 'json post blocked', 'get sent', 'script refused']);
    // (Chromium reports no response for a script that failed to load: its onerror above says it.)
    await eventually(() => [...answers].sort()).toEqual(['GET /api/state 403', 'POST /api/call 403']);
    expect(recorded()).not.toContain('from elsewhere');
    await page.close();
    attacker.close();
  });
});
