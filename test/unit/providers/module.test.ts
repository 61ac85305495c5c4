// Tools from an ES module (TOOLS.md §9): both export forms, and where the tools say they came from.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadToolModule } from '../../../src/providers/module.js';
import { ToolRegistry } from '../../../src/tools/registry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function moduleFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const tool = (name: string) => `{ name: '${name}', description: 'd', parameters: [], returns: 'any', execute: () => 1 }`;

describe('loadToolModule', () => {
  it('marks the tools of a list export as coming from a module', async () => {
    const registry = new ToolRegistry();
    expect(await loadToolModule(registry, moduleFile('list.mjs', `export default [${tool('a')}]`))).toEqual(['a']);
    expect(registry.lookup('a')?.source).toBe('module');
  });

  it('marks what a default function registers as coming from a module too, toolsets included', async () => {
    const registry = new ToolRegistry();
    const file = moduleFile('function.mjs', `export default async (registry) => { registry.register(${tool('b')}); await null; registry.registerToolset('g', [${tool('c')}]); };`);
    expect(await loadToolModule(registry, file)).toEqual(['b', 'g.c']);
    expect(registry.list().map((t) => t.source)).toEqual(['module', 'module']);
    // Registered afterwards by the host itself: local again.
    registry.register('d', { description: 'd', parameters: [], returns: 'any' }, () => 1);
    expect(registry.lookup('d')?.source).toBe('local');
  });

  it('keeps a source a tool sets itself, and restores the default when the function fails', async () => {
    const registry = new ToolRegistry();
    const file = moduleFile('fails.mjs', `export default (registry) => { registry.register({ ...${tool('e')}, source: 'executable' }); throw new Error('half loaded'); };`);
    await expect(loadToolModule(registry, file)).rejects.toThrow(/half loaded/);
    expect(registry.lookup('e')?.source).toBe('executable');
    registry.register('f', { description: 'd', parameters: [], returns: 'any' }, () => 1);
    expect(registry.lookup('f')?.source).toBe('local');
  });
});

describe('a module that fails to load: where, in the module (or one it imports), never in this package', () => {
  it.each([
    // The definition is data: it has no line of its own, and the message names it.
    ['a list with a definition the registry refuses', 'refused.mjs', 'export default [\n  { name: "bad name!", description: "x", parameters: [], execute: () => 1 },\n];\n', '"bad name!" is not a valid tool name'],
    ['a default function that registers one', 'refused-fn.mjs', 'export default (registry) => {\n  registry.register({ name: "bad name!", description: "x", parameters: [], execute: () => 1 });\n};\n', '{file}:2:12: TypeError: "bad name!" is not a valid tool name'],
    ['a CommonJS module that throws at load', 'throws.cjs', 'const server = null;\nmodule.exports = server.connect();\n', "{file}:2:25: TypeError: Cannot read properties of null (reading 'connect')"],
    ['an ES module that throws at load', 'throws.mjs', 'export default [];\n\n    throw new Error("no tool server");\n', '{file}:3:11: no tool server'],
    ['a module it imports that throws', 'imports.mjs', 'import "./throws-too.mjs";\nexport default [];\n', '{dir}/throws-too.mjs:2:7: imported and failed'],
  ])('%s', async (_name, name, text, message) => {
    moduleFile('throws-too.mjs', '// a helper\nthrow new Error("imported and failed");\n');
    const file = moduleFile(name, text);
    const error = await loadToolModule(new ToolRegistry(), file).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toMatch(new RegExp(`^cannot load tools from ${escape(file)}: ${escape(message).replace('\\{file\\}', escape(file)).replace('\\{dir\\}', escape(dir))}`));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
