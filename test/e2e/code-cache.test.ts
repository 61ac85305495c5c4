// The code cache of the bundled core (src/util/code-cache.cts): a process compiles the core from the
// bytecode an earlier one left, and a cache that is damaged, stale, missing or cannot be written
// changes nothing but the time it takes. Each case runs real processes on the built loader
// (dist/util/code-cache.cjs), with a small core of its own and a cache folder of its own.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { asCoreScript, CORE_PARAMETERS } from '../../scripts/bundle.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The built loader (CommonJS, as bin/nuwa loads it).
const { cacheFolder } = createRequire(import.meta.url)(path.join(root, 'dist', 'util', 'code-cache.cjs')) as typeof import('../../src/util/code-cache.cjs');
const work = mkdtempSync(path.join(tmpdir(), 'nuwa-code-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A core as scripts/bundle.ts makes one: a function expression taking the loader's parameters, whose
// code imports a module through __nuwaImport (import() itself has no loader in cached code).
const core = (answer: string) => `(function (exports, require, module, __filename, __dirname, __nuwaImport) {
const parts = [];
for (let i = 0; i < 200; i++) parts.push(function (n) { return n * ${answer.length} + i; });
module.exports = {
  answer: async () => {
    const { sep } = await __nuwaImport('node:path');
    const { basename } = require('node:path');
    return [${JSON.stringify(answer)}, parts.map((part) => part(1)).reduce((a, b) => a + b, 0), sep.length, basename(__filename)].join(' ');
  },
  // Called by some processes only: compiled, and so cached, only when called.
  other: () => {
    const more = [];
    for (let i = 0; i < 100; i++) more.push(function (n) { return [n, i, String(n * i)].join(':'); });
    return more.map((f) => f(2)).length;
  },
};
})`;

// Loads the core with the built loader, prints how it was compiled and what it answered.
const LOADER = `
import { createRequire } from 'node:module';
const { loadWithCodeCache, noteUse } = createRequire(import.meta.url)(${JSON.stringify(path.join(root, 'dist', 'util', 'code-cache.cjs'))});
const [file, folder, other, use] = process.argv.slice(2);
const { exports, cache } = loadWithCodeCache(new URL(file), { buildId: 'b1', folder: folder === '-' ? null : folder });
if (use) noteUse(use);
if (other === 'other') exports.other();
console.log(JSON.stringify({ cache, answer: await exports.answer() }));
`;
const loader = path.join(work, 'loader.mjs');
writeFileSync(loader, LOADER);

let cases = 0;
/** A fresh core file and cache folder. */
function fixture(answer = 'forty-two') {
  const dir = path.join(work, `case-${++cases}`);
  mkdirSync(dir);
  const file = path.join(dir, 'fixture.js');
  writeFileSync(file, core(answer));
  return { file, folder: path.join(dir, 'cache') };
}

function load(file: string, folder: string | undefined, other = false, use = '') {
  const child = spawnSync(process.execPath, [loader, pathToFileURL(file).href, folder ?? '-', other ? 'other' : '', use], { encoding: 'utf8', timeout: 30_000 });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as { cache: string; answer: string };
}

const cacheFiles = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.bin'));
const expected = (answer: string) => `${answer} ${200 * answer.length + 19900} 1 fixture.js`;

describe('the code cache of the bundled core', () => {
  it('is made by the first process and used by the next, to the same result', () => {
    const { file, folder } = fixture();
    expect(load(file, folder)).toEqual({ cache: 'made', answer: expected('forty-two') });
    expect(cacheFiles(folder)).toEqual([`fixture-b1-${process.version}-${process.arch}.bin`]);
    expect(load(file, folder)).toEqual({ cache: 'used', answer: expected('forty-two') });
    expect(load(file, folder)).toEqual({ cache: 'used', answer: expected('forty-two') });
  });

  it('grows with what the next few processes compile, then stays as it is', () => {
    const { file, folder } = fixture();
    load(file, folder);
    const cacheFile = path.join(folder, cacheFiles(folder)[0]!);
    const generation = () => JSON.parse(readFileSync(cacheFile, 'latin1').split('\n')[1]!) as { generation: number };
    const made = readFileSync(cacheFile);
    expect(generation()).toMatchObject({ generation: 0 });
    // A process that also runs `other` writes the cache again with it compiled: it grows.
    expect(load(file, folder, true)).toEqual({ cache: 'used', answer: expected('forty-two') });
    expect(generation()).toMatchObject({ generation: 1 });
    expect(readFileSync(cacheFile).length).toBeGreaterThan(made.length);
    load(file, folder);
    load(file, folder);
    expect(generation()).toMatchObject({ generation: 3 });
    const grown = readFileSync(cacheFile);
    expect(load(file, folder, true)).toEqual({ cache: 'used', answer: expected('forty-two') });
    expect(readFileSync(cacheFile).equals(grown)).toBe(true);
  });

  it('grows again for a use it has not met (a CLI command), once each', () => {
    const { file, folder } = fixture();
    for (let i = 0; i < 4; i++) load(file, folder, false, 'help'); // made, then grown three times: frozen
    const cacheFile = path.join(folder, cacheFiles(folder)[0]!);
    const header = () => JSON.parse(readFileSync(cacheFile, 'latin1').split('\n')[1]!) as { generation: number; uses: string[] };
    expect(header()).toMatchObject({ generation: 3, uses: ['help'] });
    const frozen = readFileSync(cacheFile);
    // The command people run later: the cache has not met it, so it takes what that process compiled.
    expect(load(file, folder, true, 'run')).toEqual({ cache: 'used', answer: expected('forty-two') });
    expect(header()).toMatchObject({ generation: 3, uses: ['help', 'run'] });
    expect(readFileSync(cacheFile).length).toBeGreaterThan(frozen.length);
    const grown = readFileSync(cacheFile);
    // Met once, a use leaves it as it is; so does a process that says nothing.
    load(file, folder, true, 'run');
    load(file, folder, true);
    expect(readFileSync(cacheFile).equals(grown)).toBe(true);
  });

  it('ignores a damaged cache (bytes changed in the bytecode, or cut short) and makes it again', () => {
    const { file, folder } = fixture();
    load(file, folder);
    const [name] = cacheFiles(folder);
    const cacheFile = path.join(folder, name!);
    const good = readFileSync(cacheFile);
    const damaged = Buffer.from(good);
    for (let i = Math.floor(damaged.length / 2); i < damaged.length / 2 + 64; i++) damaged[i] = damaged[i]! ^ 0x5a;
    writeFileSync(cacheFile, damaged);
    expect(load(file, folder)).toEqual({ cache: 'made', answer: expected('forty-two') });
    expect(load(file, folder).cache).toBe('used');
    for (const broken of [good.subarray(0, good.length - 100), good.subarray(0, 10), Buffer.from('not a cache at all\n{}\nxx')]) {
      writeFileSync(cacheFile, broken);
      expect(load(file, folder)).toEqual({ cache: 'made', answer: expected('forty-two') });
    }
  });

  it('does not run stale bytecode for a core changed in place, even one of the same length', () => {
    const { file, folder } = fixture('forty-two');
    load(file, folder);
    expect(load(file, folder).cache).toBe('used');
    // V8 compares a cache with its source by length only: the loader must see the change itself.
    writeFileSync(file, core('forty-one'));
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    expect(load(file, folder)).toEqual({ cache: 'made', answer: expected('forty-one') });
    expect(load(file, folder)).toEqual({ cache: 'used', answer: expected('forty-one') });
  });

  it('runs the same where the cache folder cannot be made or written', () => {
    const { file, folder } = fixture();
    // A file where the folder would go: no user, root included, can make the folder.
    writeFileSync(folder, 'in the way');
    expect(load(file, path.join(folder, 'v8'))).toEqual({ cache: 'made', answer: expected('forty-two') });
    expect(load(file, path.join(folder, 'v8'))).toEqual({ cache: 'made', answer: expected('forty-two') });
    expect(statSync(folder).isFile()).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')('runs the same with a read-only cache folder', () => {
    const { file, folder } = fixture();
    mkdirSync(folder);
    chmodSync(folder, 0o500);
    try {
      expect(load(file, folder)).toEqual({ cache: 'made', answer: expected('forty-two') });
      expect(cacheFiles(folder)).toEqual([]);
    } finally {
      chmodSync(folder, 0o700);
    }
  });

  it('is off without a folder', () => {
    const { file, folder } = fixture();
    expect(load(file, undefined)).toEqual({ cache: 'off', answer: expected('forty-two') });
    expect(() => readdirSync(folder)).toThrow();
  });

  it('removes the caches of other builds of the same core not written for a month, and no others', () => {
    const { file, folder } = fixture();
    mkdirSync(folder);
    const month = 31 * 24 * 3600;
    const old = path.join(folder, `fixture-b0-${process.version}-${process.arch}.bin`);
    const recent = path.join(folder, `fixture-b9-${process.version}-${process.arch}.bin`);
    const otherCore = path.join(folder, `other-b0-${process.version}-${process.arch}.bin`);
    for (const leftover of [old, recent, otherCore]) writeFileSync(leftover, 'leftover');
    for (const aged of [old, otherCore]) utimesSync(aged, Date.now() / 1000 - month, Date.now() / 1000 - month);
    load(file, folder);
    expect(cacheFiles(folder).sort()).toEqual([path.basename(otherCore), `fixture-b1-${process.version}-${process.arch}.bin`, path.basename(recent)].sort());
  });
});

describe('the caches kept', () => {
  it('are the newest dozen of one core, the one just written among them', () => {
    const { file, folder } = fixture();
    mkdirSync(folder);
    const leftovers = Array.from({ length: 20 }, (_, i) => path.join(folder, `fixture-old${i}-${process.version}-${process.arch}.bin`));
    leftovers.forEach((leftover, i) => {
      writeFileSync(leftover, 'leftover');
      utimesSync(leftover, Date.now() / 1000 - 3600 + i, Date.now() / 1000 - 3600 + i);
    });
    load(file, folder);
    // The cache this process wrote, and the eleven newest leftovers.
    expect(cacheFiles(folder).sort()).toEqual([`fixture-b1-${process.version}-${process.arch}.bin`, ...leftovers.slice(9).map((leftover) => path.basename(leftover))].sort());
  });
});

describe('the core script (scripts/bundle.ts)', () => {
  const SOURCE = [
    '"use strict";',
    '// a comment \u2014 with a dash',
    'const text = "import(\'not code\')";',
    'const pattern = /^[\u2265\u2264] x$/u;',
    '/* two',
    '   lines */ const load = () => import("./x.js");',
    'const a = 1/**/+/**/2;',
    'module.exports = { text, pattern, load, a };',
  ].join('\n');

  it('calls __nuwaImport for import(), keeps strings, lines and meaning, and is ASCII', () => {
    const script = asCoreScript(SOURCE);
    expect(script.startsWith(`(function (${CORE_PARAMETERS.join(', ')}) {"use strict";`)).toBe(true);
    expect(script).toMatch(/^[\x00-\x7f]*$/);
    expect(script).toContain('__nuwaImport("./x.js")');
    expect(script).toContain(`"import('not code')"`);
    expect(script.split('\n')).toHaveLength(SOURCE.split('\n').length + 1);
    const module = { exports: {} as Record<string, unknown> };
    const imported: string[] = [];
    // The script is a function expression: evaluate it, then call it as code-cache.cts does.
    (new Function(`return ${script}`)() as (...args: unknown[]) => void)(module.exports, () => undefined, module, 'core.js', '.', (specifier: string) => imported.push(specifier));
    const exported = module.exports as { text: string; pattern: RegExp; load: () => unknown; a: number };
    expect(exported.text).toBe("import('not code')");
    expect(exported.pattern.test('\u2265 x')).toBe(true);
    expect(exported.a).toBe(3);
    exported.load();
    expect(imported).toEqual(['./x.js']);
  });
});

describe('the cache folder', () => {
  it('is NUWA_COMPILE_CACHE when set, and none when that is 0 or empty', () => {
    expect(cacheFolder({ NUWA_COMPILE_CACHE: '/tmp/x' }, 'linux')).toBe(path.resolve('/tmp/x'));
    expect(cacheFolder({ NUWA_COMPILE_CACHE: '0' }, 'linux')).toBeUndefined();
    expect(cacheFolder({ NUWA_COMPILE_CACHE: '' }, 'darwin')).toBeUndefined();
  });

  it("is the platform's per-user cache folder otherwise", () => {
    expect(cacheFolder({ XDG_CACHE_HOME: '/home/u/.cache-x' }, 'linux')).toBe(path.join('/home/u/.cache-x', 'nuwa', 'v8'));
    expect(cacheFolder({ XDG_CACHE_HOME: 'relative' }, 'linux')).toMatch(/[/\\]\.cache[/\\]nuwa[/\\]v8$/);
    expect(cacheFolder({}, 'darwin')).toMatch(/[/\\]Library[/\\]Caches[/\\]nuwa[/\\]v8$/);
    expect(cacheFolder({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')).toBe(path.join('C:\\Users\\u\\AppData\\Local', 'nuwa', 'Cache', 'v8'));
    expect(cacheFolder({}, 'win32')).toBeUndefined();
  });
});

describe('nuwa with the code cache', () => {
  const nuwa = (folder: string) => spawnSync(process.execPath, [path.join(root, 'bin', 'nuwa'), 'run', path.join(root, 'bench', 'plan-30.nuwa'), '--tools', path.join(root, 'bench', 'plan-tools.mjs')], { encoding: 'utf8', env: { ...process.env, NUWA_COMPILE_CACHE: folder }, timeout: 30_000 });

  it('prints the same whether it compiles, makes the cache, uses it, or finds it damaged', () => {
    const folder = path.join(work, 'cli-cache');
    const runs = [nuwa('0'), nuwa(folder), nuwa(folder)];
    const [made] = cacheFiles(folder);
    expect(made).toMatch(/^core-script-[0-9a-f]{16}-/);
    const cacheFile = path.join(folder, made!);
    const damaged = readFileSync(cacheFile);
    damaged.fill(0x41, damaged.length - 4096, damaged.length - 2048);
    writeFileSync(cacheFile, damaged);
    runs.push(nuwa(folder), nuwa(folder));
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(runs[0]!.stdout);
    }
    expect(runs[0]!.stdout).toContain('5 calls made');
  });
});
