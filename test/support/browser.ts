// A real browser for tests: the system's Chromium (/usr/bin/chromium, Debian's package; never a
// downloaded one), headless, driven by playwright-core, with a new empty profile and without
// Chromium's background connections (this machine's network refuses them, which slows it down).
// Launch one per test file and open a page per test: starting Chromium is the slow part.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the browser tests need Chromium at ${CHROMIUM}: install it with apt-get install -y chromium (.ci/run does)`);
  const profile = mkdtempSync(path.join(tmpdir(), 'nuwa-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 800 } });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
