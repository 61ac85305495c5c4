// The package's `browser` field puts a browser twin in place of each Node-only module (CLI.md: the
// main entry runs in browsers). A twin must export what its Node module exports, or a browser bundle
// would break where Node works.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const { browser } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { browser: Record<string, string> };
const source = (built: string) => path.join(root, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));

describe('browser twins', () => {
  it.each(Object.entries(browser))('%s has a twin with the same exports', async (node, twin) => {
    const [nodeModule, twinModule] = await Promise.all([import(source(node)), import(source(twin))]);
    expect(Object.keys(twinModule).sort()).toEqual(Object.keys(nodeModule).sort());
  });
});
