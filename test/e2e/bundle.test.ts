// The package bundled into one file by esbuild (`esbuild --bundle --platform=node`), as an
// application that ships Nuwa would do, still parses and runs scripts nested 1,000 levels: deep
// scripts are parsed on the caller's stack (src/syntax/stage.ts), with no worker file to find.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Inside the project, so that a bundle that leaves a package external can still resolve it.
const work = mkdtempSync(path.join(root, '.bundle-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The app: runs a script of each kind of nesting, 1,000 levels deep, and prints what it printed.
const APP = `
const n = 1000;
const scripts = [
  \`PRINT(\${'('.repeat(n - 1)}7\${')'.repeat(n - 1)})\`,
  \`LET x = \${'['.repeat(n)}\${']'.repeat(n)}\\nPRINT(LEN(x))\`,
  \`LET x = \${'{ a: '.repeat(n)}1\${' }'.repeat(n)}\\nPRINT(KEYS(x))\`,
  \`PRINT(\${'ABS('.repeat(n - 1)}2\${')'.repeat(n - 1)})\`,
  \`\${'IF true THEN\\n'.repeat(n - 1)}PRINT("if")\\n\${'END\\n'.repeat(n - 1)}\`,
  \`\${'FOR i IN [3] DO\\n'.repeat(n - 1)}PRINT(i)\\n\${'END\\n'.repeat(n - 1)}\`,
  \`LET x = \${'- '.repeat(n)}4\\nPRINT(x)\`,
];
const printed = [];
const interpreter = new Interpreter(new ToolRegistry(), { print: (line) => printed.push(line) });
for (const source of scripts) await interpreter.run(source);
console.log(JSON.stringify(printed));
`;
const EXPECTED = ['7', '1', '["a"]', '2', 'if', '3', '4'];

async function bundle(format: 'esm' | 'cjs'): Promise<string> {
  const entry = path.join(work, `app-${format}.${format === 'esm' ? 'mjs' : 'cjs'}`);
  const imports = format === 'esm' ? `import { Interpreter, ToolRegistry } from ${JSON.stringify(path.join(root, 'dist', 'index.js'))};` : `const { Interpreter, ToolRegistry } = require(${JSON.stringify(path.join(root, 'dist', 'index.js'))});`;
  writeFileSync(entry, format === 'esm' ? `${imports}\n${APP}` : `${imports}\n(async () => {\n${APP}\n})();`);
  const outfile = path.join(work, `bundle-${format}.${format === 'esm' ? 'mjs' : 'cjs'}`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format, outfile, logLevel: 'silent' });
  return outfile;
}

function run(file: string) {
  const child = spawnSync(process.execPath, ['--max-old-space-size=256', file], { encoding: 'utf8', timeout: 60_000 });
  expect(child.signal, 'the bundled app was killed: it did not finish in time').toBeNull();
  return child;
}

// esbuild's default output for --platform=node is CommonJS, which cannot hold a top-level await.
const chevrotainLoader = readFileSync(path.join(root, 'src', 'syntax', 'chevrotain.ts'), 'utf8');
const topLevelAwait = /^const \w+ = \(await /m.test(chevrotainLoader);

describe('the package bundled by esbuild', () => {
  it('runs scripts nested 1,000 levels deep as an ES module bundle', async () => {
    const result = run(await bundle('esm'));
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED);
  });

  it.skipIf(topLevelAwait)('runs scripts nested 1,000 levels deep as a CommonJS bundle (--platform=node)', async () => {
    const result = run(await bundle('cjs'));
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED);
  });
});
