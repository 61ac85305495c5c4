// The standard tools live behind their own entry (API.md v1.1 "Entry points"): `nuwa-script/std`
// loads from ES modules and from CommonJS like the main entry, and the main entry's import graph
// holds neither src/std nor the packages only the standard tools need (ws, csv-parse). Uses the
// built package in dist/, bundled by esbuild with a metafile that lists every input it pulled in.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };

let project: string;
beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), 'nuwa-std-host-'));
  mkdirSync(path.join(project, 'node_modules'));
  symlinkSync(root, path.join(project, 'node_modules', pkg.name), 'dir');
  writeFileSync(path.join(project, 'note.txt'), 'from the root');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Every input file of a bundle of `entry` (esbuild follows dynamic imports too), relative to the repository. */
async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: path.join(project, 'out') });
  return Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(input)));
}

const HOST = (load: string) => `${load}
const registry = new ToolRegistry();
registerStdTools(registry, { root: ${JSON.stringify(project)} });
new Interpreter(registry, { print: (line) => console.log(line) })
  .run('LET f = CALL fs.read { path: "note.txt" }\\nPRINT(f.content)')
  .then(() => console.log(registry.get('file-read').name), (error) => console.log('failed:', error.kind, error.message));
`;

describe('the /std entry', () => {
  it("loads with import from 'nuwa-script/std'", () => {
    const file = path.join(project, 'host.mjs');
    writeFileSync(file, HOST(`import { Interpreter, ToolRegistry } from '${pkg.name}';\nimport { registerStdTools } from '${pkg.name}/std';`));
    const result = spawnSync(process.execPath, [file], { cwd: project, encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('from the root\nfs.read\n');
  });

  it.runIf(process.features.require_module)("loads with require('nuwa-script/std')", () => {
    const file = path.join(project, 'host.cjs');
    writeFileSync(file, HOST(`const { Interpreter, ToolRegistry } = require('${pkg.name}');\nconst { registerStdTools } = require('${pkg.name}/std');`));
    const result = spawnSync(process.execPath, [file], { cwd: project, encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('from the root\nfs.read\n');
  });

  it('is what pulls in ws and csv-parse, which are run-time dependencies', async () => {
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['ws', 'csv-parse']));
    const inputs = await inputsOf(path.join(root, 'dist', 'std', 'index.js'));
    expect(inputs.some((input) => input.startsWith('node_modules/ws/'))).toBe(true);
    expect(inputs.some((input) => input.startsWith('node_modules/csv-parse/'))).toBe(true);
  });
});

describe('the main entry', () => {
  it('imports nothing of the standard tools, statically or dynamically', async () => {
    const inputs = await inputsOf(path.join(root, 'dist', 'index.js'));
    expect(inputs).toContain('dist/index.js');
    expect(inputs.length).toBeGreaterThan(20);
    const std = inputs.filter((input) => input.startsWith('dist/std/') || input.startsWith('node_modules/ws/') || input.startsWith('node_modules/csv-parse/'));
    expect(std).toEqual([]);
  });

  it('has no import of std in its source either', () => {
    expect(readFileSync(path.join(root, 'src', 'index.ts'), 'utf8')).not.toMatch(/std\//);
  });
});
