// Where a tool discovery index lives when it is given a `dbPath` (Plaited keeps it in SQLite): one
// JSON file holding the indexed tools and their vectors, shared by every process that opens it.
//
// Why this form. The keyword index is derived data: rebuilt from the tools when a file is read (a
// few milliseconds for a thousand tools), it can never disagree with them, and the file does not
// depend on MiniSearch's serialisation format or on our tokenizer's settings, either of which may
// change between versions. The vectors are kept, because they are what is costly to make again (a
// call to the embedder per tool). JSON, because it needs no dependency and a person can read it.
//
// Why it is safe with several processes. A write replaces the file whole: the new content goes to a
// temporary file in the same folder, is flushed, and is renamed over the old one, so a reader sees
// the old index or the new one, never half of one. A change is made under a lock (a `.lock` file
// created exclusively, which also lets a change wait for another's), after reading the file again:
// two processes that index at once both keep their tools. Every read first looks whether the file
// changed since it was last read (inode, size and time of the last change), and reads it again if so:
// what one process indexes, another finds on its next search.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The content of the file: the indexed tools as given, each with its vector when it has one. */
export interface StoredIndex {
  tools: StoredTool[];
}
export interface StoredTool {
  tool: unknown;
  vector?: number[];
}

const FORMAT = 'nuwa-tool-discovery';
const VERSION = 1;
/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 10_000;
/** How long a change waits for another process's lock before giving up. */
const LOCK_WAIT_MS = 5_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread for `ms` (the changes of Plaited's API are synchronous, so the wait is too). */
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

export class DiscoveryFile {
  readonly path: string;
  private seen: string | undefined;

  constructor(file: string) {
    this.path = path.resolve(file);
  }

  /** The file's content when it changed since this object last read or wrote it; else undefined. */
  readIfChanged(): StoredIndex | undefined {
    const signature = this.signature();
    if (signature === this.seen) return undefined;
    const content = signature === 'missing' ? { tools: [] } : this.read();
    this.seen = signature;
    return content;
  }

  /**
   * Changes the file under its lock: `change` gets the current content (read again) and returns the
   * new one, which replaces the file. Returns what was written.
   */
  update(change: (current: StoredIndex) => StoredIndex): StoredIndex {
    const release = this.lock();
    try {
      const current = this.signature() === 'missing' ? { tools: [] } : this.read();
      const next = change(current);
      this.write(next);
      this.seen = this.signature();
      return next;
    } finally {
      release();
    }
  }

  private signature(): string {
    try {
      const stats = statSync(this.path, { bigint: true });
      return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw this.failure('cannot read', error);
    }
  }

  private read(): StoredIndex {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      throw this.failure('cannot read', error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`tool discovery: ${this.path} is not a tool discovery index (it is not JSON); remove it or give another dbPath`);
    }
    const { format, version, tools } = (parsed ?? {}) as { format?: unknown; version?: unknown; tools?: unknown };
    if (format !== FORMAT || !Array.isArray(tools)) throw new Error(`tool discovery: ${this.path} is not a tool discovery index; remove it or give another dbPath`);
    if (version !== VERSION) throw new Error(`tool discovery: ${this.path} is an index of version ${String(version)}, this package reads version ${VERSION}`);
    return { tools: tools as StoredTool[] };
  }

  private write(content: StoredIndex): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, 'w', 0o644);
      try {
        writeSync(fd, JSON.stringify({ format: FORMAT, version: VERSION, tools: content.tools }));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw this.failure('cannot write', error);
    }
  }

  /** Takes the file's lock, waiting for another process's; returns the function that releases it. */
  private lock(): () => void {
    const lockFile = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        closeSync(openSync(lockFile, 'wx'));
        return () => rmSync(lockFile, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw this.failure('cannot lock', error);
      }
      if (this.lockIsStale(lockFile)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`tool discovery: ${this.path} stayed locked by another process for ${LOCK_WAIT_MS / 1000} s (if no process uses it, remove ${lockFile})`);
      }
      sleep(wait);
    }
  }

  private lockIsStale(lockFile: string): boolean {
    try {
      return Date.now() - statSync(lockFile).mtimeMs > STALE_LOCK_MS;
    } catch {
      return false; // gone already: the next attempt takes it
    }
  }

  private failure(what: string, error: unknown): Error {
    const code = (error as NodeJS.ErrnoException)?.code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : error instanceof Error ? error.message : String(error);
    return new Error(`tool discovery: ${what} ${this.path}: ${why}`, { cause: error });
  }
}
