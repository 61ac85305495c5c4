// Node's build of the package: the entry points and the CLI bundled by esbuild into dist/bundle/
// (part of `npm run build`, after tsc, from tsc's output in dist/).
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
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');

const ENTRY_POINTS = {
  index: 'index.js',
  std: 'std/index.js',
  mcp: 'mcp.js',
  postgres: 'stores/postgres.js',
  plaited: 'plaited.js',
  dbos: 'dbos/index.js',
  cli: 'cli/main.js',
};

/** `#chevrotain` and the others, as package.json "imports" resolves them under "module-sync". */
const packageImports: Plugin = {
  name: 'package-imports',
  setup(builder) {
    const imports = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, string>> }).imports;
    builder.onResolve({ filter: /^#/ }, ({ path: specifier }) => {
      const target = imports[specifier]?.['module-sync'];
      if (target === undefined) return { errors: [{ text: `${specifier} has no "module-sync" target in package.json "imports"` }] };
      return { path: path.join(ROOT, target) };
    });
  },
};

const MAIN_ENTRY = path.join(DIST, ENTRY_POINTS.index);

/**
 * Puts the main entry in front of every other entry point, and of every module the package loads
 * with `import()` (those are entry points to esbuild too): each becomes a small virtual module that
 * imports the main entry, then re-exports the real one.
 */
const mainEntryFirst: Plugin = {
  name: 'main-entry-first',
  setup(builder) {
    const front = (file: string) => ({ path: file, namespace: 'main-entry-first' });
    builder.onResolve({ filter: /^main-entry-first:/ }, ({ path: specifier }) => front(specifier.slice('main-entry-first:'.length)));
    builder.onResolve({ filter: /^\./ }, ({ path: specifier, kind, resolveDir }) => {
      const file = path.resolve(resolveDir, specifier);
      return kind === 'dynamic-import' && file.startsWith(DIST + path.sep) ? front(file) : undefined;
    });
    builder.onLoad({ filter: /.*/, namespace: 'main-entry-first' }, ({ path: file }) => {
      const hasDefault = /^export default /m.test(readFileSync(file, 'utf8'));
      const contents = [`import ${JSON.stringify(MAIN_ENTRY)};`, `export * from ${JSON.stringify(file)};`, hasDefault ? `export { default } from ${JSON.stringify(file)};` : ''];
      return { contents: contents.join('\n'), resolveDir: path.dirname(file), loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: Object.fromEntries(
    Object.entries(ENTRY_POINTS).map(([name, file]) => [name, name === 'index' ? MAIN_ENTRY : `main-entry-first:${path.join(DIST, file)}`]),
  ),
  outdir: path.join(DIST, 'bundle'),
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [mainEntryFirst, packageImports],
  metafile: true,
  minify: process.env.NUWA_MINIFY === '1',
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs);
// Chunks of an earlier build (their names carry a hash of their content) are removed after the new
// ones are written, not before: dist/bundle/ is never missing or half-written while this runs.
const written = new Set(outputs.map(([file]) => path.resolve(file))); // relative to the working directory
for (const file of readdirSync(path.join(DIST, 'bundle'))) {
  if (!written.has(path.join(DIST, 'bundle', file))) rmSync(path.join(DIST, 'bundle', file));
}
const total = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
console.log(`dist/bundle/  ${outputs.length} files, ${(total / 1024).toFixed(1)} KB`);
