// Runs the package's bundled core (dist/bundle/core-script.js, scripts/bundle.ts) with V8's code
// cache: the bytecode V8 made for it in an earlier process, read from a per-user cache folder, so
// that a start does not parse and compile some megabyte of JavaScript again. Node 22 keeps such a
// cache for the modules it loads itself (module.enableCompileCache); Node 20 has none, and compiling
// was a third of what `nuwa run` spent before running a line. A script compiled with `vm.Script`
// takes `cachedData`, as v8-compile-cache gives it to CommonJS modules; this does the same for one file.
//
// The cache is an optimisation and never a source of truth, so anything wrong with it means
// compiling as if there were none:
// - its name carries the build's hash of the core (a new build never finds an old cache), the Node
//   version, the architecture and the process's V8 flags (V8 rejects bytecode made under other
//   flags; processes that differ do not take turns rewriting one file);
// - its header holds the core's size and modification time (a core edited in place is recompiled)
//   and a CRC-32 of the bytecode (V8 checks a cache's version and length, not its content, in
//   release builds: a damaged file must not reach it); a file of another user is not read;
// - a cache V8 rejects anyway, a missing one or an unreadable one is made again when the process
//   exits, from everything compiled by then (the functions a run needed, not only the top level),
//   written to a temporary file and renamed over (never half-written); a folder that cannot be
//   written leaves the process as it was, only slower. Writing one also removes the caches of the
//   same core not written for a month, and all but the newest few (other builds' leftovers: every
//   build has its own).
// - the first process makes the cache from what it compiled, which may be little (`nuwa --version`);
//   the next GROWTH_GENERATIONS processes that use it write it again at exit, with what they
//   compiled on top (the bytecode read from a cache is part of what V8 writes out), so that the
//   cache soon holds what the commands people run need, and then stays as it is. A process that
//   says what it is used for (the CLI names its command: noteUse) also writes it again when the
//   cache has not met that use yet, up to MAX_USES of them: whatever commands a user happened to
//   run first after an install, `nuwa run` later finds what it compiles in the cache.
// `NUWA_COMPILE_CACHE` names another folder; `0` (or an empty value) turns the cache off.
//
// Dynamic import() in a script compiled from cached bytecode finds no loader in Node 20 (the host
// options are not part of the cache), so the core has none: scripts/bundle.ts rewrites each
// `import(` into a call of `__nuwaImport`, given here.
//
// CommonJS (a .cts module), like bin/nuwa and the module that calls this (dist/bundle/core.cjs):
// `nuwa` then starts without loading a single ES module, each of which costs Node more to load. For
// the same reason the built-in modules are require()d: an ES module import of node:fs reads every
// export of it, which loads Node's streams, a few milliseconds `import 'nuwa-script'` need not pay.
import fs = require('node:fs');
import path = require('node:path');
import url = require('node:url');
import vm = require('node:vm');
import nodeModule = require('node:module');

const { fileURLToPath, pathToFileURL } = url;
const { Script } = vm;
const { createRequire } = nodeModule;

const MAGIC = 'nuwa-v8-code-cache 1\n';

interface Header {
  /** The core's size and modification time when the bytecode was made. */
  size: number;
  mtimeMs: number;
  /** CRC-32 of the bytecode that follows the header. */
  crc: number;
  /** How many times a process that used the cache wrote it again (0: as its first process made it). */
  generation: number;
  /** The uses (CLI commands) of the processes that wrote it (noteUse). */
  uses?: string[];
}

/** How many times a cache is written again by processes that used it, each adding what it compiled. */
const GROWTH_GENERATIONS = 3;
/** How many different uses (noteUse) a cache grows for. */
const MAX_USES = 16;

/** What this process is used for, when it has said (noteUse). */
let use: string | undefined;

/**
 * Says what the process is used for (the CLI: its command), before it exits: a cache that has not
 * met that use is written again at exit with what the process compiled.
 */
export function noteUse(what: string): void {
  use = what;
}

type Crc32 = (data: Uint8Array | string) => number;
// zlib.crc32 is in Node 20.15+ and 22.2+, which every Node that loads the bundled build has (it
// needs require() of ES modules: 20.19+, 22.12+); without it, no cache is read or written.
let crc32: Crc32 | undefined | null = null;
const crc32Function = (): Crc32 | undefined => (crc32 === null ? (crc32 = (require('node:zlib') as { crc32?: Crc32 }).crc32) : crc32);

/** The per-user cache folder: `NUWA_COMPILE_CACHE`, else the platform's cache folder; undefined: no cache. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const chosen = env.NUWA_COMPILE_CACHE;
  if (chosen !== undefined) return chosen === '' || chosen === '0' ? undefined : path.resolve(chosen);
  if (platform === 'win32') return env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'nuwa', 'Cache', 'v8') : undefined;
  let home: string;
  try {
    home = (require('node:os') as typeof import('node:os')).homedir();
  } catch {
    return undefined; // No home folder to be found (no HOME, no password entry): no cache, rather than no start.
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'nuwa', 'v8');
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(base, 'nuwa', 'v8');
}

const coreName = (file: string) => path.basename(file, path.extname(file));

/** The cache file of `file` built as `buildId`, for this Node, architecture and V8 flags. */
function cacheFileOf(folder: string, file: string, buildId: string, crc: Crc32): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
  const flagsId = flags === '' ? '' : `-${(crc(flags) >>> 0).toString(16)}`;
  return path.join(folder, `${coreName(file)}-${buildId}-${process.version}-${process.arch}${flagsId}.bin`);
}

/** The bytecode in `cacheFile` and its generation, if it was made from the core as it is now and arrived whole. */
function readCache(cacheFile: string, size: number, mtimeMs: number, crc: Crc32): { bytecode: Buffer; generation: number; uses: string[] } | undefined {
  let data: Buffer;
  try {
    const descriptor = fs.openSync(cacheFile, 'r');
    try {
      // Only a file of this user: bytecode is code, and V8 runs what it is given.
      if (process.getuid !== undefined && fs.fstatSync(descriptor).uid !== process.getuid()) return undefined;
      data = fs.readFileSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
  } catch {
    return undefined;
  }
  const headerEnd = data.indexOf(10, MAGIC.length);
  if (headerEnd < 0 || data.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  let header: Partial<Header>;
  try {
    header = JSON.parse(data.toString('utf8', MAGIC.length, headerEnd)) as Partial<Header>;
  } catch {
    return undefined;
  }
  const bytecode = data.subarray(headerEnd + 1);
  if (header.size !== size || header.mtimeMs !== mtimeMs || header.crc !== crc(bytecode) >>> 0) return undefined;
  const uses = Array.isArray(header.uses) ? header.uses.filter((item): item is string => typeof item === 'string') : [];
  return { bytecode, generation: typeof header.generation === 'number' ? header.generation : GROWTH_GENERATIONS, uses };
}

/** Writes the bytecode V8 has for `script` now; any failure is ignored (the cache is only an optimisation). */
function writeCache(file: string, cacheFile: string, script: InstanceType<typeof Script>, size: number, mtimeMs: number, generation: number, uses: string[], crc: Crc32): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    const bytecode = script.createCachedData();
    const header: Header = { size, mtimeMs, crc: crc(bytecode) >>> 0, generation, uses };
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`), bytecode]), { mode: 0o600 });
    fs.renameSync(temporary, cacheFile);
    removeOldCaches(cacheFile, file);
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // Nothing was written, or it cannot be removed: either way there is nothing more to do.
    }
  }
}

const MONTH_MS = 30 * 24 * 3600 * 1000;
/**
 * At most this many caches of one core are kept (the newest): each build, and each set of V8 flags
 * a process runs with, has one of about a megabyte, and someone who rebuilds all day would
 * otherwise collect hundreds before any is a month old.
 */
const MAX_CACHES_KEPT = 12;

/** Removes the caches of the same file, other than `kept`, written more than a month ago or beyond the newest MAX_CACHES_KEPT. */
function removeOldCaches(kept: string, file: string): void {
  const folder = path.dirname(kept);
  const prefix = `${coreName(file)}-`;
  const others: { file: string; mtimeMs: number }[] = [];
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    if (file === kept || !name.startsWith(prefix) || !name.endsWith('.bin')) continue;
    try {
      others.push({ file, mtimeMs: fs.statSync(file).mtimeMs });
    } catch {
      // Removed by another process meanwhile: nothing to do.
    }
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  others.forEach(({ file, mtimeMs }, i) => {
    if (i < MAX_CACHES_KEPT - 1 && Date.now() - mtimeMs <= MONTH_MS) return;
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // Not ours to remove: left as it is.
    }
  });
}

/**
 * At exit: the cache written again when this process made it, is one of the first few to use it, or
 * was used for something the cache has not met (noteUse); else left as it is.
 */
function writeAtExit(file: string, cacheFile: string, script: InstanceType<typeof Script>, size: number, mtimeMs: number, cached: { generation: number; uses: string[] } | undefined, crc: Crc32): void {
  const uses = cached?.uses ?? [];
  const newUse = use !== undefined && !uses.includes(use) && uses.length < MAX_USES;
  const known = newUse ? [...uses, use!] : uses;
  if (cached === undefined) writeCache(file, cacheFile, script, size, mtimeMs, 0, known, crc);
  else if (cached.generation < GROWTH_GENERATIONS) writeCache(file, cacheFile, script, size, mtimeMs, cached.generation + 1, known, crc);
  else if (newUse) writeCache(file, cacheFile, script, size, mtimeMs, cached.generation, known, crc);
}

export interface LoadOptions {
  /** The build's hash of the file (scripts/bundle.ts writes it into the module that loads the core). */
  buildId: string;
  /** Where the cache is (cacheFolder() when not given); null: no cache. */
  folder?: string | null | undefined;
}

export interface Loaded {
  /** The `module.exports` the core set. */
  exports: unknown;
  /** How it was compiled: from the cache, or without (a cache is then written at exit), or with no cache at all. */
  cache: 'used' | 'made' | 'off';
}

/**
 * Runs the core at `url` — in ASCII, a function expression taking (exports, require, module,
 * __filename, __dirname, __nuwaImport), scripts/bundle.ts CORE_PARAMETERS — compiled from the
 * cached bytecode when there is a good one.
 */
export function loadWithCodeCache(url: URL, options: LoadOptions): Loaded {
  const { buildId } = options;
  const folder = options.folder === undefined ? cacheFolder() : (options.folder ?? undefined);
  const file = fileURLToPath(url);
  const descriptor = fs.openSync(file, 'r');
  let source: string;
  let size: number;
  let mtimeMs: number;
  try {
    ({ size, mtimeMs } = fs.fstatSync(descriptor));
    // ASCII (scripts/bundle.ts makes sure): read as Latin-1, the cheapest decoding, to the same text.
    source = fs.readFileSync(descriptor, 'latin1');
  } finally {
    fs.closeSync(descriptor);
  }
  const crc = folder === undefined ? undefined : crc32Function();
  const cacheFile = folder === undefined || crc === undefined ? undefined : cacheFileOf(folder, file, buildId, crc);
  const cached = cacheFile === undefined ? undefined : readCache(cacheFile, size, mtimeMs, crc!);
  const script = new Script(source, { filename: file, cachedData: cached?.bytecode });
  const cache = cacheFile === undefined ? 'off' : cached === undefined || script.cachedDataRejected === true ? 'made' : 'used';
  if (cache !== 'off') process.once('exit', () => writeAtExit(file, cacheFile!, script, size, mtimeMs, cache === 'made' ? undefined : cached, crc!));
  const module = { exports: {} as unknown };
  const base = pathToFileURL(file).href;
  const importFromCore = (specifier: string, options?: ImportCallOptions) => import(specifier.startsWith('.') ? new URL(specifier, base).href : specifier, options);
  const wrapped = script.runInThisContext() as (...args: unknown[]) => void;
  wrapped.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file), importFromCore);
  return { exports: module.exports, cache };
}
