// The DBOS groundwork stays behind its own entry point (API.md v1.1): the main entry pulls in neither
// DBOS nor the Postgres driver, and bad takeover options are refused before anything starts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { enableTakeover } from '../../../src/dbos/index.js';
import { NuwaError } from '../../../src/errors.js';
import { thrownBy } from '../../support/thrown.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The packages that the source files reachable from `entry` import (each package left unbundled). */
async function packagesImported(entry: string): Promise<Set<string>> {
  const result = await build({ entryPoints: [path.join(root, entry)], bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: 'out' });
  const packages = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external) packages.add(/^(@[^/]+\/)?[^/]+/.exec(imported.path)![0]);
    }
  }
  return packages;
}

describe('entry points', () => {
  it('the main entry takes in no DBOS and no pg; the dbos entry takes in both', async () => {
    const main = await packagesImported('src/index.ts');
    expect([...main].filter((name) => name === 'pg' || name.startsWith('@dbos-inc/'))).toEqual([]);
    const dbos = await packagesImported('src/dbos/index.ts');
    expect(dbos.has('pg')).toBe(true);
    expect(dbos.has('@dbos-inc/dbos-sdk')).toBe(true);
  });
});

describe('enableTakeover options', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/dbos';
  it.each([
    [{ systemDatabaseUrl: url, heartbeatMs: 0 }, /heartbeatMs must be a positive number of milliseconds, not 0/],
    [{ systemDatabaseUrl: url, takeoverAfterMs: Number.NaN }, /takeoverAfterMs must be a positive number/],
    [{ systemDatabaseUrl: url, heartbeatMs: 1_000, takeoverAfterMs: 1_500 }, /takeoverAfterMs \(1500\) must be at least twice heartbeatMs \(1000\)/],
    [{ systemDatabaseUrl: '' }, /enableTakeover needs systemDatabaseUrl/],
  ])('%j is refused with a TypeError', (options, message) => {
    const error = thrownBy(() => enableTakeover(options), NuwaError);
    expect(error.kind).toBe('TypeError');
    expect(error.message).toMatch(message);
  });
});
