// End-to-end tests of the parser and its diagnostics at scale (issue 5.7, 5.6): hostile or huge
// text ends quickly in a short, clean report; deep scripts parse on a small stack without growing
// the heap. Each case runs the built package (dist/, which `npm test` builds first) in a child
// process with a memory cap and a kill timeout, so a regression cannot take the test run down.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const dist = path.join(root, 'dist', 'index.js');
const work = mkdtempSync(path.join(tmpdir(), 'nuwa-scale-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Generous: the machine is shared; what matters is that the process ends on its own. */
const KILL_AFTER_MS = 90_000;

function file(name: string, content: string | Buffer): string {
  const at = path.join(work, name);
  writeFileSync(at, content);
  return at;
}

/** `nuwa run <name>` in the work directory, so messages start with the bare file name. */
function nuwaRun(script: string, ...options: string[]) {
  const child = spawnSync(process.execPath, ['--max-old-space-size=384', bin, 'run', path.basename(script), ...options], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: KILL_AFTER_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(child.signal, 'the process was killed: it did not finish in time').toBeNull();
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** Raw control characters a terminal would act on (tab and line breaks excepted). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('nuwa run on hostile text', () => {
  it('reports a megabyte of junk characters as the first 50 errors and a count of the rest', () => {
    const junk = Array.from({ length: 1_000_000 }, (_, i) => '@$~^?;`'[i % 7] + (i % 5 === 0 ? ' ' : '')).join('');
    const result = nuwaRun(file('junk.nuwa', junk));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.match(/^junk\.nuwa:\d+:\d+: SyntaxError:/gm)).toHaveLength(50);
    expect(result.stderr).toMatch(/^junk\.nuwa: \.\.\. and \d{6,} more syntax errors not shown$/m);
    expect(result.stderr.length).toBeLessThan(64 * 1024);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('reports thousands of stray tokens as at most 50 errors', () => {
    const result = nuwaRun(file('stray.nuwa', 'a ) '.repeat(200_000)));
    expect(result.status).toBe(1);
    const count = result.stderr.match(/^stray\.nuwa:\d+:\d+: SyntaxError: unexpected `\)`/gm)?.length ?? 0;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(50);
    expect(result.stderr).not.toMatch(/nests too deeply|stack/);
  });

  it('says "not a text file" once for binary data, with no raw control bytes', () => {
    const bytes = Buffer.alloc(200_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    const result = nuwaRun(file('data.bin', bytes));
    expect(result.status).toBe(1);
    expect(result.stderr.match(/SyntaxError/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/^data\.bin:1:1: SyntaxError: this is not a text file \(it contains NUL bytes\): a script is UTF-8 text$/m);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it('shows control characters in a code frame as escapes, with the caret still under its column', () => {
    const result = nuwaRun(file('ansi.nuwa', 'LET a = "\u001b[31mred" + \u0007 1\n'));
    expect(result.status).toBe(1);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toContain('unexpected character `\\x07`');
    expect(result.stderr).toContain('1 | LET a = "\\x1B[31mred" + \\x07 1\n  |                         ^');
  });

  it('refuses a script over maxSourceBytes (4 MiB by default) before parsing it', () => {
    const result = nuwaRun(file('huge.nuwa', `${'LET a = 1\n'.repeat(450_000)}PRINT(a)\n`));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^huge\.nuwa:1:1: LimitExceededError: the script is 4500009 bytes long, more than maxSourceBytes \(4194304\)$/m);
    const allowed = nuwaRun('huge.nuwa', '--max-source-bytes', '5000000');
    expect(allowed.stderr).toBe('');
    expect(allowed.stdout).toBe('1\n');
  });

  it('reports an unterminated string of 10 MB as an unterminated string', () => {
    const result = nuwaRun(file('long.nuwa', `LET s = "${'a'.repeat(10_000_000)}\nPRINT(1)\n`), '--max-source-bytes', '20000000');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^long\.nuwa:1:9: SyntaxError: unterminated string: close it with `"` on the same line/m);
    expect(result.stderr).not.toMatch(/stack|too large|nests too deeply/);
    expect(result.stderr.length).toBeLessThan(2000);
  });

  it('runs a flat script of 150,000 statements (it was refused as "nests too deeply" past about 125,000)', () => {
    const flat = `${'LET a = 1\n'.repeat(150_000)}PRINT(a)\n`;
    const result = nuwaRun(file('flat.nuwa', flat));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('1\n');
    expect(result.status).toBe(0);
  });

  it('says to remove the fence of a script pasted from a model reply: one error', () => {
    const result = nuwaRun(file('fenced.nuwa', '```nuwa\nLET a = 1\nPRINT(a)\n```\n'));
    expect(result.status).toBe(1);
    expect(result.stderr.match(/SyntaxError/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/^fenced\.nuwa:1:1: SyntaxError: the script is wrapped in a markdown fence: remove the ``` lines/m);
  });
});

/** Runs `code` (an ES module that imports the built package as `nuwa`) in a capped child process. */
function child(code: string, nodeOptions: string[] = []) {
  const script = file(`child-${Math.random().toString(36).slice(2)}.mjs`, `import * as nuwa from ${JSON.stringify(new URL(`file://${dist}`).href)};\n${code}`);
  const result = spawnSync(process.execPath, ['--max-old-space-size=256', ...nodeOptions, script], { encoding: 'utf8', timeout: KILL_AFTER_MS });
  expect(result.signal, 'the process was killed: it did not finish in time').toBeNull();
  return result;
}

const DEEP_SCRIPTS = `
const n = 1000;
const scripts = {
  parentheses: \`PRINT(\${'('.repeat(n - 1)}7\${')'.repeat(n - 1)})\`,
  lists: \`LET x = \${'['.repeat(n)}\${']'.repeat(n)}\`,
  objects: \`LET x = \${'{ a: '.repeat(n)}1\${' }'.repeat(n)}\`,
  calls: \`PRINT(\${'ABS('.repeat(n - 1)}2\${')'.repeat(n - 1)})\`,
  ifs: \`\${'IF true THEN\\n'.repeat(n - 1)}PRINT(1)\\n\${'END\\n'.repeat(n - 1)}\`,
  fors: \`\${'FOR i IN [1] DO\\n'.repeat(n - 1)}PRINT(i)\\n\${'END\\n'.repeat(n - 1)}\`,
};
`;

describe('deep scripts', () => {
  it('parse on a fifth of the default stack: the parser never recurses more than a few dozen levels', () => {
    const result = child(`${DEEP_SCRIPTS}\nfor (const [kind, source] of Object.entries(scripts)) nuwa.parse(source);\nconsole.log('parsed');`, ['--stack-size=200']);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('parsed');
  });

  it('parse without growing the heap: 2,000 deep parses leave it where 200 did', () => {
    const result = child(
      `${DEEP_SCRIPTS}
const all = Object.values(scripts);
const parseMany = (k) => { for (let i = 0; i < k; i++) nuwa.parse(all[i % all.length]); };
const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
parseMany(200);
const before = heap();
parseMany(1800);
const after = heap();
console.log(JSON.stringify({ growthKb: Math.round((after - before) / 1024) }));`,
      ['--expose-gc'],
    );
    expect(result.stderr).toBe('');
    const { growthKb } = JSON.parse(result.stdout) as { growthKb: number };
    // The old worker-thread parse kept about 15 KB per deep script: 1,800 parses would be 27 MB.
    expect(growthKb).toBeLessThan(2048);
  });
});
