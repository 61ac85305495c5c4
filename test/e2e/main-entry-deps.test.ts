// What the main entry pulls in (API.md v1.1 "Entry points"). Uses the built package in dist/,
// bundled by esbuild with a metafile that lists every input it pulled in, dynamic imports included:
// - what the typed tools and tracing add costs a host nothing at run time: no OpenTelemetry package
//   (a tracer is used through its interface) and no json-schema-to-ts (its types are only types);
// - the MCP client and its SDK live behind `nuwa-script/mcp`, the standard tools behind `/std`, the
//   Postgres store behind `/postgres`, DBOS behind `/dbos`: a host that imports only the main entry
//   bundles none of them (registry.connectMcp loads `/mcp` by the package's name when called).
// Also checks the bundled build Node loads (dist/bundle/, scripts/bundle.ts): importing its main entry
// loads none of those packages either, and importing the `/mcp` entry does.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every file an esbuild bundle of `entry` takes in, relative to the project. */
async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [path.join(root, entry)], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: path.join(root, '.bundle-test-deps') });
  return Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(input)));
}

const AWAY_FROM_MAIN = /node_modules\/(@opentelemetry|json-schema-to-ts|ts-algebra|@modelcontextprotocol|pg|@dbos-inc)\//;

describe('the main entry', () => {
  it('pulls in neither @opentelemetry nor json-schema-to-ts', async () => {
    const inputs = await inputsOf('dist/index.js');
    expect(inputs).toContain('dist/tools/tracing.js');
    expect(inputs.filter((input) => /node_modules\/(@opentelemetry|json-schema-to-ts|ts-algebra)\//.test(input))).toEqual([]);
  });

  it('pulls in no MCP SDK, no MCP client, no Postgres driver, no DBOS and no standard tools', async () => {
    const inputs = await inputsOf('dist/index.js');
    expect(inputs).toContain('dist/api/interpreter.js');
    expect(inputs.filter((input) => AWAY_FROM_MAIN.test(input))).toEqual([]);
    expect(inputs.filter((input) => /^dist\/(providers\/mcp-[a-z-]+|std\/[a-z-]+|stores\/postgres|dbos\/[a-z-]+)\.js$/.test(input))).toEqual([]);
  });

  it('the /mcp entry is where the MCP client and its SDK are', async () => {
    const inputs = await inputsOf('dist/mcp.js');
    expect(inputs).toContain('dist/providers/mcp-client.js');
    expect(inputs.some((input) => input.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
  });

  it('in the bundled build, importing the main entry loads none of those packages, nor any other', () => {
    // The bundled build (scripts/bundle.ts) is one core script whose entry points run on first use:
    // what matters is what a process that imports the entry has loaded. Packages are require()d from
    // the core, so require.cache lists them; `nuwa-script/mcp` is the check that it does.
    const loaded = (entry: string) => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', `import ${JSON.stringify(entry)}; import { createRequire } from 'node:module'; console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`], { cwd: root, encoding: 'utf8' });
      expect(child.stderr).toBe('');
      return (JSON.parse(child.stdout) as string[]).map((file) => path.relative(root, file));
    };
    // Chevrotain is inside the core; Ajv, MiniSearch, @noble/hashes and fastest-levenshtein are
    // required on first use (package.json "imports", "module-sync"), as is node:util beyond its types.
    expect(loaded('nuwa-script').filter((file) => file.includes('node_modules'))).toEqual([]);
    expect(loaded('nuwa-script/mcp').some((file) => file.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    // The entry points are small modules in front of one core (the files `import 'nuwa-script'` opens).
    const dir = path.join(root, 'dist', 'bundle');
    expect(readdirSync(dir).sort()).toEqual(['cli.js', 'core-script.js', 'core.cjs', 'dbos.js', 'index.js', 'mcp.js', 'plaited.js', 'postgres.js', 'std.js']);
    expect(readFileSync(path.join(dir, 'index.js'), 'utf8')).toContain('createRequire(import.meta.url)("./core.cjs").entry("index")');
  });
});
