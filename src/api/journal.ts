// The journal of one durable run in one process (tools/journal.ts is its contract with the call
// path): it answers the calls and NOW() values of the record while the script replays, applies the
// decisions a host gave on resume, records every new call before and after it runs (to the run's
// store when it has one), and collects the calls the run pauses at.
import { NuwaError, type Position } from '../errors.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import type { RegisteredTool } from '../tools/build.js';
import { safeToRepeat, type CallJournal, type CallOutcome, type Decision, type PendingCall, type RecordedCall } from '../tools/journal.js';
import { canonicalJson } from './checkpoint.js';
import type { RunEntry, RunWriter } from './store.js';

export interface JournalSettings {
  /** The calls recorded so far (a resumed or recovered run replays them). */
  log?: readonly RecordedCall[];
  /** The NOW() values recorded so far. */
  now?: readonly number[];
  /** How many lines the host was given before. */
  printedBefore?: number;
  decisions?: ReadonlyMap<string, Decision>;
  /** Calls a process that died had started and not finished (recover). */
  unfinished?: Iterable<string>;
  /** Where the run is recorded as it goes, when it has a store. */
  writer?: RunWriter;
  /** How many lines the run has printed so far (read when an entry is written). */
  printed?: () => number;
  /** Where a new NOW() value comes from (default Date.now): a durable engine's own recorded clock. */
  clock?: () => number;
}

interface OpenCall {
  toolName: string;
  args: JsonObject;
  startedAt: number;
  durable: boolean;
}

export class RunJournal implements CallJournal {
  /** Every call that ended: the record's, then this process's, in the order they ended. */
  readonly log: RecordedCall[];
  /** Every NOW() value: the record's, then this process's. */
  readonly nowValues: number[];
  /** The calls the run waits at, once it pauses. */
  readonly pending: PendingCall[] = [];
  readonly printedBefore: number;
  /** Set by a store write that failed: the run cannot be trusted to be recorded. */
  storeError: NuwaError | undefined;
  /** Set when the run used a decision, so that decisions for calls it never reached can be told apart. */
  readonly usedDecisions = new Set<string>();
  private readonly recorded: Map<string, RecordedCall>;
  private readonly decisions: ReadonlyMap<string, Decision>;
  private readonly unfinishedCalls: Set<string>;
  private readonly open = new Map<string, OpenCall>();
  private replayedNow = 0;
  private readonly recordedNow: number;
  private readonly writer: RunWriter | undefined;
  private printed: () => number;
  private readonly clock: () => number;
  /** The chain of a store's asynchronous appends, kept in order. */
  private writes: Promise<void> = Promise.resolve();

  constructor(settings: JournalSettings = {}) {
    this.log = [...(settings.log ?? [])];
    this.recorded = new Map(this.log.map((call) => [call.callId, call]));
    this.nowValues = [...(settings.now ?? [])];
    this.recordedNow = this.nowValues.length;
    this.printedBefore = settings.printedBefore ?? 0;
    this.decisions = settings.decisions ?? new Map();
    this.unfinishedCalls = new Set(settings.unfinished ?? []);
    this.writer = settings.writer;
    this.printed = settings.printed ?? (() => this.printedBefore);
    this.clock = settings.clock ?? Date.now;
  }

  /** Reads the number of printed lines from the run, once the run exists. */
  countPrintedBy(printed: () => number): void {
    this.printed = printed;
  }

  replayed(callId: string, toolName: string, args: JsonObject, at: Position | undefined): RecordedCall | undefined {
    const call = this.recorded.get(callId);
    if (call === undefined) return undefined;
    if (call.toolName !== toolName || canonicalJson(call.args) !== canonicalJson(args)) {
      const where = at === undefined ? '' : ` (line ${at.line}, column ${at.column})`;
      throw new NuwaError(
        'ReplayError',
        `the resumed run no longer matches its record at call ${callId}${where}: it was CALL ${call.toolName} ${brief(call.args)}, and is now CALL ${toolName} ${brief(args)}; the script, a tool or the tools loaded changed since the run was recorded`,
        { toolName, ...(at !== undefined && { line: at.line, column: at.column }) },
      );
    }
    return call;
  }

  decision(callId: string): Decision | undefined {
    const decision = this.decisions.get(callId);
    if (decision !== undefined) this.usedDecisions.add(callId);
    return decision;
  }

  unfinished(callId: string): boolean {
    return this.unfinishedCalls.has(callId);
  }

  started(callId: string, tool: RegisteredTool, args: JsonObject): void | Promise<void> {
    // A copy: the tool gets the arguments object itself, and may change it.
    const open: OpenCall = { toolName: tool.name, args: copyJson(args) as JsonObject, startedAt: Date.now(), durable: !safeToRepeat(tool) };
    this.open.set(callId, open);
    this.unfinishedCalls.delete(callId);
    return this.write({ type: 'started', callId, toolName: open.toolName, args: open.args, at: open.startedAt }, open.durable, true);
  }

  finished(callId: string, outcome: CallOutcome): void {
    const open = this.open.get(callId);
    if (open === undefined) return;
    this.open.delete(callId);
    // A call a pause interrupted (a tool whose nested call waits) is made again on resume.
    if (this.pending.some((p) => p.callId.startsWith(`${callId}>`))) return;
    this.keep({ callId, toolName: open.toolName, args: open.args, outcome, startedAt: open.startedAt, endedAt: Date.now() }, open.durable);
  }

  settled(callId: string, toolName: string, args: JsonObject, outcome: CallOutcome): void {
    const at = Date.now();
    this.keep({ callId, toolName, args, outcome, startedAt: at, endedAt: at }, true);
  }

  pause(pending: PendingCall): NuwaError {
    this.pending.push(pending);
    const what = pending.kind === 'approval' ? `\`${pending.toolName}\` waits for ${pending.uncertain ? 'a decision on whether it ran' : 'approval'}` : 'a question waits for an answer';
    return new NuwaError('AbortedError', `the run paused at call ${pending.callId}: ${what}`);
  }

  now(): number {
    if (this.replayedNow < this.recordedNow) return this.nowValues[this.replayedNow++]!;
    const value = this.clock();
    this.nowValues.push(value);
    this.quietly({ type: 'now', value }, false);
    return value;
  }

  /** Appends an entry of the run's end or pause (kept durably), and waits for every write. */
  async end(entry: RunEntry): Promise<void> {
    await this.write(entry, true, true);
    await this.writes;
    if (this.storeError) throw this.storeError;
  }

  /** Appends an entry of the run's life (its resumption), kept before the run goes on. */
  async note(entry: RunEntry): Promise<void> {
    await this.write(entry, true, true);
  }

  private keep(call: RecordedCall, durable: boolean): void {
    this.log.push(call);
    this.recorded.set(call.callId, call);
    this.quietly({ type: 'finished', printed: this.printed(), ...call }, durable);
  }

  /** A write the script does not wait for: a store that fails ends the run through storeError. */
  private quietly(entry: RunEntry, durable: boolean): void {
    try {
      void this.write(entry, durable, false);
    } catch {
      // storeError is set: the run's outcome is rejected when it ends
    }
  }

  /**
   * Appends to the store in order. A synchronous store has kept the entry when this returns; an
   * asynchronous one is waited for only when `wait` (the run must not go on before it is kept).
   */
  private write(entry: RunEntry, durable: boolean, wait: boolean): void | Promise<void> {
    const writer = this.writer;
    if (writer === undefined) return undefined;
    const failed = (error: unknown) => {
      this.storeError ??= new NuwaError('TypeError', `the run store failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      throw this.storeError;
    };
    if (this.storeError) return Promise.reject(this.storeError);
    let kept: void | Promise<void> = undefined;
    try {
      kept = writer.append(entry, durable);
    } catch (error) {
      failed(error);
    }
    if (kept === undefined) return undefined;
    const done = this.writes.then(() => kept).then(undefined, failed);
    this.writes = done.then(undefined, () => {});
    return wait ? done : undefined;
  }
}

/** Arguments in a message: their JSON, cut short. */
function brief(args: JsonValue): string {
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
