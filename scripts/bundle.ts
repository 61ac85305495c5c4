// Node's build of the package: the entry points and the CLI bundled by esbuild into <dist>/bundle/,
// from tsc's output in <dist>. `npm run build` (scripts/build.ts) calls bundleEntries on its staging
// folder, before the files move into dist/; run alone, it bundles dist/ as it is:
//   tsx scripts/bundle.ts
//
// Why: loading the package module by module opens about 120 files, and resolving, reading and
// compiling them was half of what `nuwa run` spent starting up. Bundled, every entry point is in one
// file, the core, compiled from V8's code cache after the first start (src/util/code-cache.cts):
// compiling the code was most of what was left.
//
// What is in dist/bundle/:
// - core-script.js: the code of all the entry points and the CLI, and Chevrotain's (the parser
//   library: compiled from the cache with the rest), bundled by esbuild as CommonJS and wrapped in a
//   function expression, as Node wraps a CommonJS module; each entry point's modules run when the
//   entry point is first asked for (esbuild wraps a module that is require()d in a function that runs
//   it once), so `import 'nuwa-script'` runs none of the MCP, Postgres or DBOS code, and `nuwa run`
//   none of the REPL's or the playground's. A script because V8's code cache is for scripts
//   (`vm.Script`), not ES modules, on Node 20. Not a module of its own: nothing imports it.
// - core.cjs: loads core-script.js (loadWithCodeCache) once per process, with the build's hash of it;
//   CommonJS, as is the loader, so that bin/nuwa requires it without Node loading any ES module.
// - index.js, std.js, mcp.js, postgres.js, plaited.js, dbos.js, cli.js: one small ES module per entry
//   point, with the entry point's exports, taken from the core (core.cjs, require()d). All of them
//   and bin/nuwa share the one core, so a host importing `nuwa-script` and `nuwa-script/std`, and a
//   tools module importing `nuwa-script` into the CLI, share one copy of every class (NuwaError,
//   ToolRegistry...).
//
// How it fits in (package.json):
// - "exports" sends the Node versions that can require() ES modules (20.19+, 22.12+: the
//   "module-sync" condition) here; everything else — bundlers, browsers with their `browser` field
//   twins, older Node — keeps the module-per-file build in dist/, as before.
// - The files sit flat in dist/bundle/, one level below dist/ like dist/cli/main.js, so that paths
//   the code finds from its own location (`../../package.json`, `../playground/`) stay right;
//   `import.meta.url` in the core is the core's own URL.
// - Packages other than Chevrotain and picocolors (BUNDLED_PACKAGES) are not bundled: they load from
//   node_modules as they would anyway, and their licences travel with them. The package's other `#`
//   imports (package.json "imports") are bundled as their "module-sync" forms: Ajv and MiniSearch
//   loaded on first use.
// - No minification: a host debugging through the package sees its real names.
// - Dynamic import() cannot run in a script compiled from cached bytecode (Node 20 keeps no loader
//   for it), so every `import(` of the core becomes `__nuwaImport(`, which code-cache.cts provides.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser, type Node } from 'acorn';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The parameters of the function the core is wrapped in, in the order src/util/code-cache.cts passes them: CommonJS's, and the stand-in for import(). */
export const CORE_PARAMETERS = ['exports', 'require', 'module', '__filename', '__dirname', '__nuwaImport'];

/** The entry points, by the name of their file in dist/bundle/, and their module in tsc's output. */
const ENTRY_POINTS = {
  index: 'index.js',
  std: 'std/index.js',
  mcp: 'mcp.js',
  postgres: 'stores/postgres.js',
  plaited: 'plaited.js',
  dbos: 'dbos/index.js',
  cli: 'cli/main.js',
};

/** Chevrotain's single-file ES module build, next to the package's entry (as src/syntax/chevrotain-sync.ts finds it). */
function chevrotainBundle(): string {
  const entry = createRequire(path.join(ROOT, 'package.json')).resolve('chevrotain'); // .../chevrotain/lib/src/api.js
  return path.resolve(path.dirname(entry), '..', 'chevrotain.min.mjs');
}

/**
 * Packages compiled into the core with the package's own code (from the code cache, then): those the
 * CLI loads on every start, small, with no dependencies of their own. Their licences (Chevrotain
 * Apache-2.0, picocolors ISC) travel with them in node_modules, where they are installed as
 * dependencies all the same.
 */
const BUNDLED_PACKAGES = ['picocolors'];

/**
 * `#chevrotain` and the others, as package.json "imports" resolves them under "module-sync" (their
 * `./dist/` targets, in `dist`); `forCore`, for the core: `#chevrotain` is Chevrotain's single file
 * itself, and BUNDLED_PACKAGES are bundled too.
 */
function packageImports(dist: string, forCore: boolean): Plugin {
  return {
    name: 'package-imports',
    setup(builder) {
      const imports = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, string>> }).imports;
      if (forCore) {
        const filter = new RegExp(`^(${BUNDLED_PACKAGES.join('|')})$`);
        builder.onResolve({ filter }, ({ path: specifier }) => ({ path: createRequire(path.join(ROOT, 'package.json')).resolve(specifier) }));
      }
      builder.onResolve({ filter: /^#/ }, ({ path: specifier }) => {
        if (forCore && specifier === '#chevrotain') return { path: chevrotainBundle() };
        const target = imports[specifier]?.['module-sync'];
        if (target === undefined || !target.startsWith('./dist/')) return { errors: [{ text: `${specifier} has no "module-sync" target in dist/ in package.json "imports"` }] };
        return { path: path.join(dist, target.slice('./dist/'.length)) };
      });
    },
  };
}

/** The names each entry point exports (esbuild's metafile of an ES module build, not written). */
async function exportsOf(dist: string): Promise<Record<string, string[]>> {
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, path.join(dist, file)])),
    outdir: path.join(dist, 'bundle'),
    entryNames: '[name]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [packageImports(dist, false)],
    metafile: true,
    write: false,
    absWorkingDir: dist,
    logLevel: 'warning',
  });
  const named: Record<string, string[]> = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) if (output.entryPoint !== undefined) named[path.basename(file, '.js')] = output.exports;
  return named;
}

/** The core: every entry point as a function that runs its modules (once) and returns its exports. */
async function coreScript(dist: string): Promise<string> {
  const requires = Object.entries(ENTRY_POINTS).map(([name, file]) => `  ${name}: () => require(${JSON.stringify(`./${file}`)}),`);
  const result = await build({
    stdin: { contents: `module.exports = {\n${requires.join('\n')}\n};\n`, resolveDir: dist, sourcefile: 'core.js', loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [packageImports(dist, true)],
    define: { 'import.meta.url': '__nuwa_import_meta_url' },
    banner: { js: 'var __nuwa_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    write: false,
    // Paths in the output (its comments) are then the same for a staging folder as for dist/, and so
    // is the build's hash: the same sources, the same core.
    absWorkingDir: dist,
    logLevel: 'warning',
  });
  return asCoreScript(result.outputFiles[0]!.text);
}

/**
 * `source` ready to be compiled as the core: each dynamic `import(` (found by parsing it, not by its
 * text) calls `__nuwaImport` instead, comments are gone (licence comments kept) but for the line
 * breaks in them, so that lines keep their numbers in stack traces, and it is all wrapped in the
 * function code-cache.cts runs. Without comments the text is ASCII (esbuild escapes the rest), which V8
 * keeps in half the memory of a string with one character beyond it (regular expressions are
 * the one place esbuild leaves such characters; they are escaped here).
 */
export function asCoreScript(source: string): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const visit = (node: Node): void => {
    if (node.type === 'ImportExpression') edits.push({ start: node.start, end: node.start + 'import'.length, text: '__nuwaImport' });
    // esbuild writes strings and names in ASCII, not regular expressions: `[≥≤]` becomes `[\u2265\u2264]`.
    if (node.type === 'Literal' && 'regex' in node && /[^\x00-\x7f]/.test(source.slice(node.start, node.end))) {
      edits.push({ start: node.start, end: node.end, text: source.slice(node.start, node.end).replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`) });
    }
    for (const value of Object.values(node) as unknown[]) {
      for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) visit(child);
    }
  };
  const onComment = (block: boolean, text: string, start: number, end: number) => {
    if (/@license|@preserve|^!/.test(text)) return;
    const breaks = text.match(/\r?\n/g)?.join('') ?? '';
    // A block comment between two tokens is a space in the grammar: `a/**/b` must not become `ab`.
    edits.push({ start, end, text: block ? breaks || ' ' : '' });
  };
  visit(Parser.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, onComment }));
  let out = '';
  let at = 0;
  for (const { start, end, text } of edits.sort((a, b) => a.start - b.start)) {
    out += source.slice(at, start) + text;
    at = end;
  }
  out += source.slice(at);
  const beyond = /[^\x00-\x7f]/.exec(out);
  if (beyond !== null) throw new Error(`the core has a character beyond ASCII outside comments: ${JSON.stringify(out.slice(Math.max(0, beyond.index - 40), beyond.index + 40))}`);
  // On the first line, as Node wraps a CommonJS module: line numbers in stack traces stay the bundle's.
  return `(function (${CORE_PARAMETERS.join(', ')}) {${out}\n})`;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** The ES module of an entry point: its exports, taken from the core. */
function facade(name: string, names: string[]): string {
  const named = names.filter((exported) => exported !== 'default');
  return [
    `// Generated by scripts/bundle.ts: the ${name} entry point, from the bundled core (core-script.js, loaded by core.cjs).`,
    'import { createRequire } from "node:module";',
    `const exported = createRequire(import.meta.url)("./core.cjs").entry(${JSON.stringify(name)});`,
    named.length > 0 ? `export const { ${named.join(', ')} } = exported;` : '',
    names.includes('default') ? 'export default exported.default;' : '',
    '',
  ].join('\n');
}

/**
 * The module that loads the core once, with the build's hash of it (the name of its code cache):
 * CommonJS, like the loader, so that bin/nuwa requires it without loading any ES module.
 */
function coreLoader(buildId: string): string {
  return [
    '// Generated by scripts/bundle.ts: loads core-script.js, compiled from the code cache when there is one (src/util/code-cache.cts).',
    '"use strict";',
    'const path = require("node:path");',
    'const { pathToFileURL } = require("node:url");',
    'const { loadWithCodeCache, noteUse } = require("../util/code-cache.cjs");',
    `const core = loadWithCodeCache(pathToFileURL(path.join(__dirname, "core-script.js")), { buildId: ${JSON.stringify(buildId)} }).exports;`,
    '/** The exports of the entry point `name` (its modules run the first time it is asked for). */',
    'exports.entry = (name) => core[name]();',
    '/** Says what the process is used for (the CLI: its command): a code cache that has not met it grows at exit. */',
    'exports.noteUse = noteUse;',
    '',
  ].join('\n');
}

/** Whether `file` (relative to dist/) must move into dist/ before the others: the core and what loads it, which the entry points import. */
export function goesFirst(file: string): boolean {
  return ['bundle/core-script.js', 'bundle/core.cjs', 'util/code-cache.cjs'].includes(file.split(path.sep).join('/'));
}

/** Bundles the entry points of tsc's output in `dist` into `dist`/bundle/; the files written, with their sizes. */
export async function bundleEntries(dist: string): Promise<Array<{ file: string; bytes: number }>> {
  const outdir = path.join(dist, 'bundle');
  const [core, exported] = await Promise.all([coreScript(dist), exportsOf(dist)]);
  const buildId = createHash('sha256').update(core).digest('hex').slice(0, 16);
  const files: Record<string, string> = { 'core-script.js': core, 'core.cjs': coreLoader(buildId) };
  for (const name of Object.keys(ENTRY_POINTS)) files[`${name}.js`] = facade(name, exported[name] ?? []);
  mkdirSync(outdir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(outdir, name), text);
  // Files of an earlier build are removed after the new ones are written, not before.
  for (const name of readdirSync(outdir)) if (!Object.hasOwn(files, name)) rmSync(path.join(outdir, name));
  return Object.entries(files).map(([name, text]) => ({ file: path.join(outdir, name), bytes: Buffer.byteLength(text) }));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await bundleEntries(path.join(ROOT, 'dist'));
  console.log(`dist/bundle/  ${files.length} files, ${(files.reduce((sum, { bytes }) => sum + bytes, 0) / 1024).toFixed(1)} KB`);
}
