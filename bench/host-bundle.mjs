// The weight of embedding Nuwa: a minimal host (imports Interpreter and ToolRegistry, registers one
// tool, runs a script) bundled and minified by esbuild as an application would bundle it, the
// package installed under node_modules (linked; the project's own tsconfig.json, which esbuild
// would find above the linked files, is not read: an installed package has none). Prints one JSON
// object on stdout:
//   { kb, browserKb, packages: { name: KB in the Node bundle } }
//   node bench/host-bundle.mjs <work dir>
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const project = path.join(path.resolve(process.argv[2]), 'host');
rmSync(project, { recursive: true, force: true });
mkdirSync(path.join(project, 'node_modules'), { recursive: true });
symlinkSync(root, path.join(project, 'node_modules', 'nuwa-script'), 'dir');
const entry = path.join(project, 'host.mjs');
writeFileSync(
  entry,
  `import { Interpreter, ToolRegistry } from 'nuwa-script';
const registry = new ToolRegistry();
registry.register({
  name: 'double',
  description: 'Doubles n',
  parameters: [{ name: 'n', description: 'a number', type: 'number' }],
  returns: 'number',
  execute: async ({ n }) => n * 2,
});
await new Interpreter(registry, { print: (line) => console.log(line) }).run('LET x = CALL double { n: 21 }\\nPRINT(x)');
`,
);

/** The minified bundle for `platform`, and how many of its bytes each package (or our dist/) brought. */
async function bundle(platform) {
  const built = await build({ entryPoints: [entry], bundle: true, minify: true, platform, format: 'esm', write: false, metafile: true, logLevel: 'silent', absWorkingDir: project, tsconfigRaw: '{}' });
  const packages = {};
  for (const [input, { bytesInOutput }] of Object.entries(Object.values(built.metafile.outputs)[0].inputs)) {
    const name = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path.relative(root, path.resolve(project, input)))?.[1] ?? 'nuwa-script';
    packages[name] = Math.round(((packages[name] ?? 0) + bytesInOutput / 1024) * 10) / 10;
  }
  return { kb: built.outputFiles[0].contents.length / 1024, packages };
}

const node = await bundle('node');
const browser = await bundle('browser');
process.stdout.write(`${JSON.stringify({ kb: node.kb, browserKb: browser.kb, packages: node.packages })}\n`);
