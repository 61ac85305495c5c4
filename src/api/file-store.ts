// The embedded run store (DURABLE.md §3): one file per run in a folder, each entry one JSON line,
// appended with a write the operating system has taken before the run goes on — so a process that is
// killed loses nothing it recorded — and flushed to the disk (fdatasync) before a call that may not
// be repeated starts or is recorded as done, so that not even a machine that stops can make a write
// happen twice. A crash can leave half a line at the end: it is ignored when read, and cut off when
// the run is opened again.
//
// A run is leased to one process by a lock file next to it (`<runId>.lock`, holding the holder's pid
// and host); a lock whose process is gone is taken over, any other is a ConflictError.
import { closeSync, constants as fsFlags, fdatasyncSync, ftruncateSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { NuwaError } from '../errors.js';
import { randomId } from '../util/platform.js';
import type { RunEntry, RunHeader, RunStatus, RunStore, RunSummary, RunWriter, StoredRun } from './store.js';
import { checkRunId, conflict, foldRun, summaryOf } from './store.js';

interface LockHolder {
  pid: number;
  host: string;
}

/** The leases this process holds, by lock file: a second driver in the same process is a conflict too. */
const heldHere = new Set<string>();

export class FileRunStore implements RunStore {
  readonly dir: string;

  constructor(dir: string) {
    if (typeof dir !== 'string' || dir === '') throw new NuwaError('TypeError', 'new FileRunStore(dir): dir must be the path of a folder');
    this.dir = path.resolve(dir);
  }

  async create(header: RunHeader): Promise<RunWriter> {
    checkRunId(header.runId);
    mkdirSync(this.dir, { recursive: true });
    const release = this.lock(header.runId);
    let fd: number;
    try {
      fd = openSync(this.file(header.runId), 'wx');
    } catch (error) {
      release();
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw conflict(header.runId, 'already exists in this store: give each run its own runId');
      throw error;
    }
    const writer = new FileWriter(fd, release);
    writer.append(header, true);
    return writer;
  }

  async open(runId: string): Promise<RunWriter> {
    checkRunId(runId);
    const release = this.lock(runId);
    let fd: number;
    try {
      // Appends go to the end whatever is read; without O_CREAT, a run that is not there is not made.
      fd = openSync(this.file(runId), fsFlags.O_RDWR | fsFlags.O_APPEND);
    } catch (error) {
      release();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw conflict(runId, 'is not in this store');
      throw error;
    }
    cutTornTail(fd);
    return new FileWriter(fd, release);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    checkRunId(runId);
    let text: string;
    try {
      text = readFileSync(this.file(runId), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return foldRun(parseEntries(text, this.file(runId)));
  }

  async list(filter: { status?: RunStatus } = {}): Promise<RunSummary[]> {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: RunSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      const run = await this.load(name.slice(0, -'.jsonl'.length)).catch(() => undefined);
      if (run !== undefined && (filter.status === undefined || run.status === filter.status)) out.push(summaryOf(run));
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    const release = this.lock(runId);
    try {
      rmSync(this.file(runId), { force: true });
    } finally {
      release();
    }
  }

  private file(runId: string): string {
    return path.join(this.dir, `${runId}.jsonl`);
  }

  /** Takes the run's lease; returns the function that gives it back. */
  private lock(runId: string): () => void {
    const lockFile = path.join(this.dir, `${runId}.lock`);
    mkdirSync(this.dir, { recursive: true });
    if (heldHere.has(lockFile)) throw conflict(runId, 'is already being driven in this process');
    for (let attempt = 0; attempt < 2; attempt++) {
      // Written whole, then linked into place: a lock file is never seen half written.
      const draft = `${lockFile}.${process.pid}.${randomId()}`;
      writeFileSync(draft, JSON.stringify({ pid: process.pid, host: hostname() }));
      try {
        linkSync(draft, lockFile);
        heldHere.add(lockFile);
        return () => {
          heldHere.delete(lockFile);
          rmSync(lockFile, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        rmSync(draft, { force: true });
      }
      const holder = readHolder(lockFile);
      if (holder !== undefined && (holder.host !== hostname() || isAlive(holder.pid))) {
        throw conflict(runId, `is being driven by process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} (lock file ${lockFile})`);
      }
      // The holder is gone (its process died): take the lease over. Removing the stale lock and
      // creating ours anew leaves one winner if two processes try at once.
      rmSync(lockFile, { force: true });
    }
    throw conflict(runId, `is being taken over by another process (lock file ${lockFile})`);
  }
}

class FileWriter implements RunWriter {
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly release: () => void,
  ) {}

  append(entry: RunEntry, durable: boolean): void {
    if (this.closed) throw new Error('the run record was closed');
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    let written = 0;
    while (written < line.length) written += writeSync(this.fd, line, written, line.length - written, null);
    if (durable) fdatasyncSync(this.fd);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      fdatasyncSync(this.fd);
      closeSync(this.fd);
    } finally {
      this.release();
    }
  }
}

function parseEntries(text: string, file: string): RunEntry[] {
  const lines = text.split('\n');
  // The last piece is '' after a complete record, or half a line a crash left: either way not an entry.
  lines.pop();
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as RunEntry;
    } catch {
      throw new NuwaError('ReplayError', `the run record ${file} is damaged at line ${i + 1}`);
    }
  });
}

/** Cuts off half a line a crash left at the end, so that the next entry starts on a line of its own. */
function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const chunk = Buffer.alloc(Math.min(size, 64 * 1024));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline >= 0) {
      const keep = start + newline + 1;
      if (keep < size) ftruncateSync(fd, keep);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

function readHolder(lockFile: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lockFile, 'utf8')) as Partial<LockHolder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? (holder as LockHolder) : undefined;
  } catch {
    return undefined; // removed meanwhile: taken as stale, and the retry finds out
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
