// What the typed tools and tracing add costs a host nothing at run time (API.md v1.1): the main
// entry's import graph holds no OpenTelemetry package (a tracer is used through its interface) and
// no json-schema-to-ts (its types are only types). Uses the built package in dist/, bundled by
// esbuild with a metafile that lists every input it pulled in, dynamic imports included.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the main entry', () => {
  it('pulls in neither @opentelemetry nor json-schema-to-ts', async () => {
    const result = await build({ entryPoints: [path.join(root, 'dist', 'index.js')], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: path.join(root, '.bundle-test-deps') });
    const inputs = Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(input)));
    expect(inputs).toContain('dist/tools/tracing.js');
    expect(inputs.filter((input) => /node_modules\/(@opentelemetry|json-schema-to-ts|ts-algebra)\//.test(input))).toEqual([]);
  });
});
