// What the main entry pulls in (API.md v1.1 "Entry points"). Uses the built package in dist/,
// bundled by esbuild with a metafile that lists every input it pulled in, dynamic imports included:
// - what the typed tools and tracing add costs a host nothing at run time: no OpenTelemetry package
//   (a tracer is used through its interface) and no json-schema-to-ts (its types are only types);
// - the MCP client and its SDK live behind `nuwa-script/mcp`, the standard tools behind `/std`, the
//   Postgres store behind `/postgres`, DBOS behind `/dbos`: a host that imports only the main entry
//   bundles none of them (registry.connectMcp loads `/mcp` by the package's name when called).
// Also checks the bundled build Node loads (dist/bundle/, scripts/bundle.ts): its main entry imports
// none of those packages either, and the `/mcp` entry does.
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

  it('in the bundled build, neither the main entry nor a chunk it loads imports those packages', () => {
    const dir = path.join(root, 'dist', 'bundle');
    const importsOf = (file: string) => [...readFileSync(path.join(dir, file), 'utf8').matchAll(/(?:^|[;\s])(?:import|export)\s*(?:[^'";]*?\bfrom\s*)?["']([^"']+)["']/g)].map((m) => m[1]!);
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const specifier of importsOf(file)) if (specifier.startsWith('./')) visit(specifier.slice(2));
    };
    visit('index.js');
    const packages = [...loaded].flatMap(importsOf).filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
    expect(packages.filter((name) => /^(@opentelemetry|json-schema-to-ts|@modelcontextprotocol|pg$|@dbos-inc)/.test(name))).toEqual([]);
    // Nor any other package: Chevrotain, Ajv, MiniSearch, @noble/hashes and fastest-levenshtein are
    // required on first use (package.json "imports", "module-sync"), as is node:util beyond its types.
    expect(packages).toEqual([]);
    expect([...loaded].flatMap(importsOf)).not.toContain('node:util');
    // One chunk holds the main entry's code: `import 'nuwa-script'` opens two files of the package.
    expect(loaded.size).toBeLessThanOrEqual(2);
    const mcp = readdirSync(dir).filter((file) => file.startsWith('mcp'));
    expect(mcp.flatMap(importsOf).some((name) => name.startsWith('@modelcontextprotocol/sdk'))).toBe(true);
  });
});
