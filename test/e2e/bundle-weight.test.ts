// A host bundled for Node by esbuild (as bench/host-bundle.mjs weighs it) carries neither Ajv nor
// @noble/hashes: tools described by parameter lists are checked without Ajv (src/tools/flat-schema.ts),
// digests come from node:crypto, and Ajv is required from node_modules only by a richer JSON Schema
// (package.json "imports", the "node" condition). Run from a folder with no node_modules, the bundle
// still checks and coerces arguments, and signs and resumes a checkpoint; a tool whose schema needs
// Ajv is refused, with what to install. Run beside the project's node_modules, the same bundle loads Ajv.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const inside = mkdtempSync(path.join(root, '.bundle-weight-'));
const outside = mkdtempSync(path.join(tmpdir(), 'nuwa-bundle-weight-'));
afterAll(() => {
  rmSync(inside, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const PLAN = 'LET d = CALL double { n: 2 }\nLET p = CALL pay { amount: d }\nPRINT(p.paid)';
const APP = `import { Interpreter, ToolRegistry } from ${JSON.stringify(path.join(root, 'dist', 'index.js'))};
const registry = new ToolRegistry();
registry.register({ name: 'double', description: 'Doubles n', parameters: [{ name: 'n', description: 'a number', type: 'number' }], returns: 'number', confirm: 'read', execute: async ({ n }) => n * 2 });
registry.register({ name: 'pay', description: 'Pays', parameters: [{ name: 'amount', description: 'USD', type: 'number' }], returns: 'object', confirm: 'write', execute: ({ amount }) => ({ paid: amount }) });
const out = { printed: [] };
const interpreter = new Interpreter(registry, { checkpointKey: 'secret', onApproval: 'pause', print: (line) => out.printed.push(line) });
out.coerced = (await interpreter.run('LET x = CALL double { n: "21" }')).variables.x;
out.problem = await interpreter.run('LET x = CALL double { m: true }').then(() => 'ran', (error) => error.message);
const first = await interpreter.start(${JSON.stringify(PLAN)}, { runId: 'r' });
out.sourceHash = first.checkpoint.sourceHash;
out.signature = first.checkpoint.signature;
const next = await interpreter.resume(first.checkpoint, { decisions: { [first.pending[0].callId]: true } });
out.status = next.status;
out.altered = await interpreter.resume({ ...first.checkpoint, runId: 'other' }, { decisions: {} }).then(() => 'resumed', (error) => error.kind);
try {
  registry.register({ name: 'tags', description: 'tags', parameters: { type: 'object', properties: { t: { type: 'array', items: { type: 'string' } } } }, execute: ({ t }) => t.length });
  out.rich = (await interpreter.run('LET n = CALL tags { t: ["a", "b"] }')).variables.n;
} catch (error) {
  out.rich = error.name + ': ' + error.message;
}
console.log(JSON.stringify(out));
`;

let bundled = '';
let inputs: string[] = [];
beforeAll(async () => {
  const entry = path.join(inside, 'host.mjs');
  writeFileSync(entry, APP);
  bundled = path.join(inside, 'bundle.mjs');
  const result = await build({ entryPoints: [entry], bundle: true, minify: true, platform: 'node', format: 'esm', outfile: bundled, metafile: true, logLevel: 'silent', tsconfigRaw: '{}' });
  inputs = Object.keys(result.metafile.inputs);
  copyFileSync(bundled, path.join(outside, 'bundle.mjs'));
});

function run(file: string): Record<string, unknown> {
  const child = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000, cwd: path.dirname(file) });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as Record<string, unknown>;
}

describe('a host bundled for Node', () => {
  it('carries neither Ajv nor @noble/hashes', () => {
    expect(inputs.some((input) => input.includes('node_modules/nuwa-script') || input.includes('dist/'))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/(ajv|ajv-formats|fast-uri|@noble)\//.test(input))).toEqual([]);
  });

  it('without node_modules: checks, coerces, signs and resumes; a schema that needs Ajv is refused with what to install', () => {
    const out = run(path.join(outside, 'bundle.mjs'));
    expect(out.coerced).toBe(42);
    expect(out.problem).toContain('missing required argument `n`');
    expect(out.problem).toContain('unknown argument `m`');
    expect(out.sourceHash).toBe(createHash('sha256').update(PLAN).digest('hex'));
    expect(out.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(out.status).toBe('completed');
    expect(out.printed).toEqual(['4']);
    expect(out.altered).toBe('ReplayError');
    expect(out.rich).toMatch(/^TypeError: tool "tags": its parameters schema cannot be checked in this host: .* needs the packages ajv and ajv-formats, which this host cannot load \(Cannot find module 'ajv'.*\); install them where the host runs/);
  });

  it('beside node_modules: the same bundle loads Ajv for the richer schema', () => {
    const out = run(bundled);
    expect(out.status).toBe('completed');
    expect(out.rich).toBe(2);
  });
});
