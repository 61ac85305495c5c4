// The whole project type-checks (`npm run typecheck`: src/, test/, bench/ and scripts/, then the
// playground page against the DOM's types). It runs here, as a test among the others, so that the
// two compilers run beside the rest of the suite instead of before it; `npm test` only builds first.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** tsc's report on a project: its exit status and what it printed (the errors, one per line). */
function typeCheck(project: string): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', project], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}`.trim() });
    });
  });
}

describe('npm run typecheck', () => {
  it.concurrent.each([
    ['the project', 'tsconfig.json'],
    ['the playground page', 'src/playground/page'],
  ])('%s type-checks (tsc --strict)', async (_name, project) => {
    const { status, output } = await typeCheck(project);
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 180_000);
});
