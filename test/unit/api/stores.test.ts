// MemoryRunStore and FileRunStore (DURABLE.md §3): the shared behaviour, and what only files have
// (a torn last line, a lock left by a process that died).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileRunStore, MemoryRunStore } from '../../../src/index.js';
import { describeRunStore } from '../../support/run-store-suite.js';
import { failure } from '../../support/harness.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-runs-'));
  folders.push(dir);
  return dir;
};

describeRunStore('MemoryRunStore', async () => {
  const store = new MemoryRunStore();
  return { store, sameStore: () => store };
});

describeRunStore('FileRunStore', async () => {
  const dir = folder();
  return { store: new FileRunStore(dir), sameStore: () => new FileRunStore(dir) };
});

describe('FileRunStore on disk', () => {
  const header = { type: 'run' as const, version: 1 as const, runId: 'torn', createdAt: 1, sourceHash: 'h', variables: {} };

  it('ignores half a line a crash left at the end, and cuts it off before appending', async () => {
    const dir = folder();
    const store = new FileRunStore(dir);
    const writer = await store.create(header);
    writer.append({ type: 'now', value: 1 }, false);
    await writer.close();
    appendFileSync(path.join(dir, 'torn.jsonl'), '{"type":"now","va');
    expect((await store.load('torn'))!.checkpoint.now).toEqual([1]);
    const again = await store.open('torn');
    again.append({ type: 'now', value: 2 }, false);
    await again.close();
    expect((await store.load('torn'))!.checkpoint.now).toEqual([1, 2]);
    expect(readFileSync(path.join(dir, 'torn.jsonl'), 'utf8').split('\n').filter(Boolean).every((line) => JSON.parse(line))).toBe(true);
  });

  it('a damaged line in the middle is an error, not a silently shorter record', async () => {
    const dir = folder();
    const store = new FileRunStore(dir);
    await (await store.create(header)).close();
    appendFileSync(path.join(dir, 'torn.jsonl'), 'not json\n{"type":"now","value":1}\n');
    expect((await failure(store.load('torn'))).kind).toBe('ReplayError');
  });

  it('takes over the lock of a process that is gone, and not that of a live one', async () => {
    const dir = folder();
    const store = new FileRunStore(dir);
    await (await store.create(header)).close();
    // A pid that is surely not running: above the kernel's limit.
    writeFileSync(path.join(dir, 'torn.lock'), JSON.stringify({ pid: 4_194_304 + 17, host: (await import('node:os')).hostname() }));
    const writer = await store.open('torn');
    await writer.close();
    writeFileSync(path.join(dir, 'torn.lock'), JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname() }));
    const error = await failure(store.open('torn'));
    expect(error.kind).toBe('ConflictError');
    expect(error.message).toContain(`process ${process.ppid}`);
  });
});
