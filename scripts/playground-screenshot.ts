// Takes the README's picture of the playground (docs/playground.png): `nuwa playground` with the
// example tools and the README's take-profit plan, planned, then run up to the approval it asks for,
// in headless Chromium.
//   npm run build && tsx scripts/playground-screenshot.ts
import path from 'node:path';
import { launchBrowser } from '../test/support/browser.js';
import { startPlayground } from '../test/support/playground.js';
import { fragmentFor } from '../src/playground/page/fragment.js';
import { readFileSync } from 'node:fs';
import { ROOT } from './playground/build.js';

const playground = await startPlayground(['--tools', 'examples/tools.mjs']);
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 760 });
  await page.goto(playground.url + fragmentFor(readFileSync(path.join(ROOT, 'examples', 'take-profit.nuwa'), 'utf8')));
  await page.waitForSelector('body[data-ready]');
  await page.click('#plan');
  await page.click('#run');
  await page.waitForSelector('#output .approval');
  await page.locator('.approval .approve').blur();
  await page.screenshot({ path: path.join(ROOT, 'docs', 'playground.png') });
  console.log('wrote docs/playground.png');
} finally {
  await browser.close();
  await playground.stop();
}
