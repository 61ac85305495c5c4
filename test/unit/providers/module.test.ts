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
