// `npm run build`: compiles src/ with tsc, bundles it for Node (scripts/bundle.ts: dist/bundle/) and
// bundles the playground page, into a fresh folder next
// to dist/ (.dist-build-*), and only then moves the new files into dist/ one by one, each with a
// rename over the old one, and removes what the build no longer makes. dist/ is never missing and
// never holds half-written files, so `nuwa` keeps working while `npm test` (which builds first)
// runs, and a build that fails leaves the last good dist/ as it was.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { replaceTree } from './build/replace-tree.js';
import { bundleEntries, goesFirst } from './bundle.js';
import { buildPlayground, ROOT } from './playground/build.js';

const DIST = path.join(ROOT, 'dist');

async function main(): Promise<number> {
  // Beside dist/, at the same depth, so that what tsc writes (declarations' relative paths) is
  // the same, and on the same file system, so that the renames are atomic.
  const staging = mkdtempSync(path.join(ROOT, '.dist-build-'));
  try {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', staging], { cwd: ROOT, stdio: 'inherit' });
    if (compiled.status !== 0) {
      console.error('the build failed: dist/ is left as it was');
      return 1;
    }
    try {
      const bundled = await bundleEntries(staging);
      console.log(`dist/bundle/  ${bundled.length} files, ${(bundled.reduce((sum, { bytes }) => sum + bytes, 0) / 1024).toFixed(1)} KB`);
    } catch (error) {
      console.error(`the package did not bundle: ${(error as Error).message}; dist/ is left as it was`);
      return 1;
    }
    try {
      const { files } = await buildPlayground(path.join(staging, 'playground'));
      for (const { file, bytes } of files) console.log(`${path.join('dist', path.relative(staging, path.resolve(ROOT, file)))}  ${(bytes / 1024).toFixed(1)} KB`);
    } catch (error) {
      console.error(`the playground page did not build: ${(error as Error).message}; dist/ is left as it was`);
      return 1;
    }
    replaceTree(staging, DIST, goesFirst);
    return 0;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

process.exitCode = await main();
