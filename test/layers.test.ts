// The layers of src/ import one way, with no circles (.dependency-cruiser.cjs; README "How it is
// built"). The rules are checked on the source, and on a small tree that breaks each of them, so a
// rule that no longer catches anything fails here too.
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

async function violations(dir: string, tsConfig?: string): Promise<string[]> {
  const result = await cruise(['src'], {
    ...config.options,
    baseDir: dir,
    tsConfig: tsConfig === undefined ? undefined : { fileName: tsConfig },
    ruleSet: { forbidden: config.forbidden },
    validate: true,
    outputType: 'json',
  });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  return (output.summary.violations as IViolation[]).map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : ''}`);
}

describe('the layers of src/', () => {
  it('import only downwards, with no circles', async () => {
    expect(await violations(root, path.join(root, 'tsconfig.json'))).toEqual([]);
  }, 60_000);

  describe('the rules catch', () => {
    const tree = mkdtempSync(path.join(os.tmpdir(), 'nuwa-layers-'));
    afterAll(() => rmSync(tree, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      writeFileSync(path.join(tree, file), text);
    };
    write('src/errors.ts', 'export const kinds = [];\n');
    write('src/syntax/parse.ts', "import { evaluate } from '../runtime/evaluator.js';\nexport const parse = () => evaluate;\n");
    write('src/runtime/evaluator.ts', "export const evaluate = () => 1;\n");
    write('src/tools/a.ts', "import type { B } from './b.js';\nexport type A = { b?: B };\n");
    write('src/tools/b.ts', "import type { A } from './a.js';\nexport type B = { a?: A };\n");

    it('an import from a lower layer into a higher one, and a circle of type-only imports', async () => {
      const found = await violations(tree);
      expect(found).toContain('layer-syntax: src/syntax/parse.ts → src/runtime/evaluator.ts');
      expect(found.some((v) => v.startsWith('no-circular: src/tools/a.ts → src/tools/b.ts'))).toBe(true);
    }, 60_000);
  });
});
