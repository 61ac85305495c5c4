// Node's build of the package: the entry points and the CLI bundled by esbuild into <dist>/bundle/,
// from tsc's output in <dist>. `npm run build` (scripts/build.ts) calls bundleEntries on its staging
// folder, before the files move into dist/; run alone, it bundles dist/ as it is:
//   tsx scripts/bundle.ts
//
// Why: loading the package module by module opens about 120 files, and resolving, reading and
// compiling them was half of what `nuwa run` spent starting up. Bundled, an entry point is one file
// and a few chunks it shares with the others.
//
// How it fits in (package.json):
// - "exports" sends the Node versions that can require() ES modules (20.19+, 22.12+: the
//   "module-sync" condition) here; everything else — bundlers, browsers with their `browser` field
//   twins, older Node — keeps the module-per-file build in dist/, as before.
// - All entry points are bundled together, with their shared code in shared chunks, so that a host
//   importing `nuwa-script` and `nuwa-script/std`, and a tools module importing `nuwa-script` into
//   the CLI, share one copy of every class (NuwaError, ToolRegistry...).
// - Every other entry point loads the main entry first (a small virtual module in front of each).
//   Left to itself, esbuild makes one chunk per set of entry points that reach a module, which for
//   seven entry points came to some 40 chunks, 26 of them loaded by `import 'nuwa-script'`; a file
//   costs its own resolution, read and compilation. With the main entry reached from everywhere, the
//   main entry's code is one chunk, and each other entry point adds one or two of its own. (Those
//   entry points are used next to the main entry anyway: `/std` tools go into its registry.)
// - The files sit flat in dist/bundle/, one level below dist/ like dist/cli/main.js, so that paths
//   the code finds from its own location (`../../package.json`, `../playground/`) stay right.
// - Packages are not bundled: they load from node_modules as they would anyway (and their licences
//   travel with them). The package's `#` imports (package.json "imports") are bundled as their
//   "module-sync" forms: Chevrotain's single file, and Ajv and MiniSearch loaded on first use.
// - No minification: a host debugging through the package sees its real names.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

const ENTRY_POINTS = {
  index: 'index.js',
  std: 'std/index.js',
  mcp: 'mcp.js',
  postgres: 'stores/postgres.js',
  plaited: 'plaited.js',
  dbos: 'dbos/index.js',
  cli: 'cli/main.js',
};

/** `#chevrotain` and the others, as package.json "imports" resolves them under "module-sync" (their `./dist/` targets, in `dist`). */
function packageImports(dist: string): Plugin {
  return {
    name: 'package-imports',
    setup(builder) {
      const imports = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, string>> }).imports;
      builder.onResolve({ filter: /^#/ }, ({ path: specifier }) => {
        const target = imports[specifier]?.['module-sync'];
        if (target === undefined || !target.startsWith('./dist/')) return { errors: [{ text: `${specifier} has no "module-sync" target in dist/ in package.json "imports"` }] };
        return { path: path.join(dist, target.slice('./dist/'.length)) };
      });
    },
  };
}

/**
 * Puts the main entry in front of every other entry point, and of every module the package loads
 * with `import()` (those are entry points to esbuild too): each becomes a small virtual module that
 * imports the main entry, then re-exports the real one.
 */
function mainEntryFirst(dist: string): Plugin {
  // Paths relative to `dist`, in the virtual modules and their names alike: the bundle of a staging
  // folder is then the same as that of dist/ (chunk names carry a hash of everything that went in).
  const relative = (from: string, to: string) => `./${path.relative(from, to).split(path.sep).join('/')}`;
  return {
    name: 'main-entry-first',
    setup(builder) {
      const front = (file: string) => ({ path: path.relative(dist, file), namespace: 'main-entry-first' });
      builder.onResolve({ filter: /^main-entry-first:/ }, ({ path: specifier }) => front(specifier.slice('main-entry-first:'.length)));
      builder.onResolve({ filter: /^\./ }, ({ path: specifier, kind, resolveDir }) => {
        const file = path.resolve(resolveDir, specifier);
        return kind === 'dynamic-import' && file.startsWith(dist + path.sep) ? front(file) : undefined;
      });
      builder.onLoad({ filter: /.*/, namespace: 'main-entry-first' }, ({ path: name }) => {
        const file = path.join(dist, name);
        const here = path.dirname(file);
        const hasDefault = /^export default /m.test(readFileSync(file, 'utf8'));
        const own = JSON.stringify(relative(here, file));
        const contents = [`import ${JSON.stringify(relative(here, path.join(dist, ENTRY_POINTS.index)))};`, `export * from ${own};`, hasDefault ? `export { default } from ${own};` : ''];
        return { contents: contents.join('\n'), resolveDir: here, loader: 'js' };
      });
    },
  };
}

/** Whether `file` (relative to dist/) is a chunk of the bundle: the entry points import them, so they go into dist/ first. */
export function isBundleChunk(file: string): boolean {
  return path.dirname(file) === 'bundle' && /-[A-Z0-9]{8}\.js$/.test(file);
}

/** Bundles the entry points of tsc's output in `dist` into `dist`/bundle/; the files written, with their sizes. */
export async function bundleEntries(dist: string): Promise<Array<{ file: string; bytes: number }>> {
  const outdir = path.join(dist, 'bundle');
  const result = await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRY_POINTS).map(([name, file]) => [name, name === 'index' ? path.join(dist, file) : `main-entry-first:${path.join(dist, file)}`]),
    ),
    outdir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [mainEntryFirst(dist), packageImports(dist)],
    metafile: true,
    // Paths in the output (its comments) are then the same for a staging folder as for dist/, and so
    // are the chunks' names, which carry a hash of their content: the same sources, the same files.
    absWorkingDir: dist,
    minify: process.env.NUWA_MINIFY === '1',
    logLevel: 'warning',
  });
  const files = Object.entries(result.metafile.outputs).map(([file, output]) => ({ file: path.resolve(dist, file), bytes: output.bytes }));
  // Chunks of an earlier build (their names carry a hash of their content) are removed after the new
  // ones are written, not before: dist/bundle/ is never missing or half-written while this runs.
  const written = new Set(files.map(({ file }) => file));
  for (const name of readdirSync(outdir)) if (!written.has(path.join(outdir, name))) rmSync(path.join(outdir, name));
  return files;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await bundleEntries(path.join(ROOT, 'dist'));
  console.log(`dist/bundle/  ${files.length} files, ${(files.reduce((sum, { bytes }) => sum + bytes, 0) / 1024).toFixed(1)} KB`);
}
