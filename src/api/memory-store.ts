// A run store in memory (DURABLE.md §3): for tests, and for hosts that keep checkpoints themselves
// and want only the lease and the inbox within one process.
import type { RunEntry, RunHeader, RunStatus, RunStore, RunSummary, RunWriter, StoredRun } from './store.js';
import { checkRunId, conflict, foldRun, summaryOf } from './store.js';

export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, RunEntry[]>();
  private readonly leased = new Set<string>();

  async create(header: RunHeader): Promise<RunWriter> {
    checkRunId(header.runId);
    if (this.runs.has(header.runId)) throw conflict(header.runId, 'already exists in this store: give each run its own runId');
    this.runs.set(header.runId, [structuredClone(header)]);
    return this.lease(header.runId);
  }

  async open(runId: string): Promise<RunWriter> {
    checkRunId(runId);
    if (!this.runs.has(runId)) throw conflict(runId, 'is not in this store');
    return this.lease(runId);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    const entries = this.runs.get(runId);
    return entries === undefined ? undefined : foldRun(structuredClone(entries));
  }

  async list(filter: { status?: RunStatus } = {}): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    for (const entries of this.runs.values()) {
      const run = foldRun(entries);
      if (run !== undefined && (filter.status === undefined || run.status === filter.status)) out.push(summaryOf(structuredClone(run)));
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async delete(runId: string): Promise<void> {
    if (this.leased.has(runId)) throw conflict(runId, 'is being driven: it cannot be deleted now');
    this.runs.delete(runId);
  }

  private lease(runId: string): RunWriter {
    if (this.leased.has(runId)) throw conflict(runId, 'is already being driven (resumed or recovered) elsewhere');
    this.leased.add(runId);
    const entries = this.runs.get(runId)!;
    let open = true;
    return {
      append: (entry) => {
        if (!open) throw new Error(`run ${runId}: the record was closed`);
        entries.push(structuredClone(entry));
      },
      close: async () => {
        if (open) this.leased.delete(runId);
        open = false;
      },
    };
  }
}
