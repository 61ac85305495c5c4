// The package loads everywhere a user would load it (issue 5.9, API.md): require() from CommonJS
// (no top-level await anywhere, an export condition require finds), a bundle made with esbuild
// --bundle --platform=node that runs where no node_modules are, and a published file list with a
// LICENSE and no source map pointing at a file that is not shipped. Uses the built package in dist/.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links } from '../support/markdown.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
  imports: Record<string, Record<string, string>>;
};

/** A host's project: its own folder, with the package installed (linked) under node_modules. */
let project: string;
beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), 'nuwa-host-'));
  mkdirSync(path.join(project, 'node_modules'));
  symlinkSync(root, path.join(project, 'node_modules', pkg.name), 'dir');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** A host program: registers a tool, runs a script that calls it, prints the result. No top-level await. */
const HOST_BODY = `
const registry = new ToolRegistry();
registry.register({
  name: 'double',
  description: 'Doubles n',
  parameters: [{ name: 'n', description: 'a number', type: 'number' }],
  returns: 'number',
  execute: async ({ n }) => n * 2,
});
new Interpreter(registry, { print: (line) => console.log(line) })
  .run('LET x = CALL double { n: "21" }\\nPRINT(FORMAT("x={x}", { x: x }))\\nIF x > 40 THEN\\n  PRINT("big")\\nEND')
  .then((result) => console.log(JSON.stringify(result.variables)), (error) => console.log('failed:', error.kind, error.message));
`;
const EXPECTED = 'x=42\nbig\n{"x":42}\n';

function runNode(file: string, cwd: string, flags: string[] = []) {
  return spawnSync(process.execPath, [...flags, file], { cwd, encoding: 'utf8', timeout: 20_000 });
}

describe('CommonJS', () => {
  it.runIf(process.features.require_module)("require('nuwa-script') works and runs a script with a tool", () => {
    const file = path.join(project, 'host.cjs');
    writeFileSync(file, `const { Interpreter, ToolRegistry } = require(${JSON.stringify(pkg.name)});\n${HOST_BODY}`);
    const result = runNode(file, project);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(EXPECTED);
  });
});

describe('ES module import', () => {
  it("import from 'nuwa-script' works", () => {
    const file = path.join(project, 'host.mjs');
    writeFileSync(file, `import { Interpreter, ToolRegistry } from ${JSON.stringify(pkg.name)};\n${HOST_BODY}`);
    const result = runNode(file, project);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(EXPECTED);
  });

  it.runIf(process.features.require_module)('also on a Node that cannot require() ES modules (Chevrotain then loads through its entry point)', () => {
    const file = path.join(project, 'host-old-node.mjs');
    writeFileSync(file, `import { Interpreter, ToolRegistry } from ${JSON.stringify(pkg.name)};\n${HOST_BODY}`);
    const result = runNode(file, project, ['--no-experimental-require-module']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(EXPECTED);
  });

  it("import from 'nuwa-script/dbos' works where the host has installed DBOS", () => {
    const file = path.join(project, 'host-dbos.mjs');
    writeFileSync(file, `import { enableTakeover, sendDecision, decisionTopic } from '${pkg.name}/dbos';\nconsole.log(typeof enableTakeover, typeof sendDecision, decisionTopic('3:9'));`);
    const result = runNode(file, project);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('function function nuwa.decision:3:9\n');
  });
});

describe('a bundle made with esbuild --bundle --platform=node', () => {
  it.each(['cjs', 'esm'] as const)('format %s: runs where there is no node_modules', async (format) => {
    const entry = path.join(project, `bundle-entry-${format}.mjs`);
    writeFileSync(entry, `import { Interpreter, ToolRegistry } from ${JSON.stringify(pkg.name)};\n${HOST_BODY}`);
    const outfile = path.join(project, 'out', format === 'cjs' ? 'host.cjs' : 'host.mjs');
    const built = await build({ entryPoints: [entry], bundle: true, platform: 'node', format, outfile, logLevel: 'silent' });
    expect(built.errors).toEqual([]);
    // Elsewhere, with no node_modules next to it: everything it needs must be inside the bundle.
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'nuwa-bundle-'));
    try {
      const copy = path.join(elsewhere, path.basename(outfile));
      cpSync(outfile, copy);
      const result = runNode(copy, elsewhere);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(EXPECTED);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('the published files (npm pack)', () => {
  const files = () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path));
  };

  it('include an MIT LICENSE, as package.json says', () => {
    expect(pkg.license).toBe('MIT');
    expect(files().has('LICENSE')).toBe(true);
    expect(readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
  });

  it('include every file package.json points at', () => {
    const shipped = files();
    const targets = [
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry as Record<string, string>))),
      ...Object.values(pkg.imports).flatMap((entry) => Object.values(entry)).filter((target) => target.startsWith('./')),
    ];
    for (const target of targets) expect(shipped, target).toContain(path.posix.normalize(target));
  });

  it('have Markdown whose every relative link leads to a shipped file (the docs read from the package work)', () => {
    const shipped = files();
    const broken: string[] = [];
    for (const file of [...shipped].filter((name) => name.endsWith('.md'))) {
      for (const { target, line } of links(readFileSync(path.join(root, file), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
        const pathPart = decodeURIComponent(target.split('#')[0]!);
        if (pathPart === '') continue; // an anchor in the same file
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart)).replace(/\/$/, '');
        if (!shipped.has(resolved) && ![...shipped].some((name) => name.startsWith(`${resolved}/`))) broken.push(`${file}:${line}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    // What the docs point at most: the examples they teach with, and the security page.
    expect(shipped).toContain('examples/README.md');
    expect(shipped).toContain('examples/tools.mjs');
    expect(shipped).toContain('SECURITY.md');
  });

  it('leave the tarball npm pack writes out of git', () => {
    const ignored = spawnSync('git', ['check-ignore', '--quiet', '--no-index', `${pkg.name}-${pkg.version}.tgz`], { cwd: root });
    expect(ignored.status).toBe(0);
  });

  it('have no source map that points at a file that is not shipped', () => {
    const shipped = files();
    for (const file of [...shipped].filter((name) => name.endsWith('.map'))) {
      const map = JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: unknown[] };
      for (const source of map.sources) {
        expect(shipped, `${file} → ${source}`).toContain(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? '', source));
      }
    }
  });
});
