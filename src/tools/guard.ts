// Waiting for a tool without trusting it to finish: the wait ends when the tool settles, when the
// run stops (cancellation, run timeout, a limit), or when the tool's own timeoutMs passes —
// whichever comes first.
//
// This is on the path of every call that waits, so it is lean: whoever waits is told directly (a
// Continuation, util/pending.ts), with no promise of the wait's own in between, so that the evaluator can go on in the
// same microtask in which the tool's promise settled. The tool's answer is only
// ever touched through the `then` method its caller read once (a getter may answer differently on a
// second read), and a `then` that throws rejects the wait instead of escaping. Waits in flight are
// kept in a doubly linked list, not as a stack: a tool that fires off context.callTool without
// awaiting it finishes its waits out of order, and every one of them must still be ended by stop().
// (Not a Map keyed by the wait: giving each promise an identity hash cost a fifth of a CALL.)
import { NuwaError } from '../errors.js';
import type { Thenable } from '../util/foreign.js';
import type { Continuation } from '../util/pending.js';

const ignore = () => {};

/** What a wait needs to know about the tool it waits for. */
export interface TimedTool {
  readonly name: string;
  readonly timeoutMs: number | undefined;
}

/** One wait in flight. With begin(): await `promise`, then pass the Wait to end(). */
export class Wait {
  // Set in the constructor (`declare`d): class field initialisers would run as a function of their own per wait.
  declare prev: Wait | null;
  declare next: Wait | null;
  declare promise: Promise<unknown>;
  private declare done: boolean;
  private declare timer: ReturnType<typeof setTimeout> | undefined;
  private declare readonly waits: Waits;
  private declare readonly waiter: Continuation;

  constructor(waits: Waits, waiter: Continuation) {
    this.prev = null;
    this.next = null;
    this.done = false;
    this.timer = undefined;
    this.waits = waits;
    this.waiter = waiter;
  }

  /** Ends the wait with a value, unless it has ended already. */
  settle(value: unknown): void {
    if (this.close()) this.waiter.resume(value);
  }

  /** Ends the wait with an error, unless it has ended already. */
  fail(error: unknown): void {
    if (this.close()) this.waiter.fail(error);
  }

  /** Gives up on the tool after `timeoutMs`, aborting its controller. */
  startTimer(tool: TimedTool, timeoutMs: number, toolController: AbortController | undefined): void {
    this.timer = setTimeout(() => {
      const error = new NuwaError('LimitExceededError', `tool \`${tool.name}\` took longer than its timeoutMs (${timeoutMs} ms)`, { toolName: tool.name });
      toolController?.abort(error);
      this.fail(error);
    }, timeoutMs);
  }

  private close(): boolean {
    if (this.done) return false;
    this.done = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.waits.end(this);
    return true;
  }
}

export class Waits {
  private head: Wait | null = null;
  private stopError: NuwaError | null = null;

  /**
   * Follows `answer` (through its `then`, read once by the caller) and tells `waiter` how it ends,
   * exactly once: with the tool's value (resume) or error (fail), or with the stop error if the run
   * stops first, or with a LimitExceededError if `tool`'s timeout passes first. The wait leaves the
   * list before `waiter` hears of it. Never throws; a wait begun after stop() fails at once.
   */
  watch(answer: unknown, then: Thenable, tool: TimedTool | undefined, toolController: AbortController | undefined, waiter: Continuation): Wait {
    const wait = new Wait(this, waiter);
    if (this.stopError !== null) {
      // The tool's own promise must not become an unhandled rejection.
      try {
        Reflect.apply(then, answer, [ignore, ignore]);
      } catch {
        // a `then` that throws has nothing left to reject
      }
      wait.fail(this.stopError);
      return wait;
    }
    wait.next = this.head;
    if (this.head !== null) this.head.prev = wait;
    this.head = wait;
    const timeoutMs = tool?.timeoutMs;
    if (timeoutMs !== undefined) wait.startTimer(tool!, timeoutMs, toolController);
    try {
      // Bound methods rather than two arrows: two small objects instead of two closures and the
      // context they share, kept for every call in flight (a host may have thousands waiting).
      Reflect.apply(then, answer, [wait.settle.bind(wait), wait.fail.bind(wait)]);
    } catch (error) {
      wait.fail(error);
    }
    return wait;
  }

  /**
   * Settles like `answer` (through its `then`, read once by the caller) unless the run stops or
   * `tool`'s timeout passes first. Never throws. Pair with end(wait).
   */
  begin(answer: unknown, then: Thenable, tool: TimedTool | undefined, toolController: AbortController | undefined): Wait {
    let wait!: Wait;
    const promise = new Promise((resolve, reject) => {
      wait = this.watch(answer, then, tool, toolController, { resume: resolve, fail: reject });
    });
    wait.promise = promise;
    return wait;
  }

  /** `wait` is over: stop() need not end it. Safe to call for a wait that was never in the list. */
  end(wait: Wait): void {
    if (wait.prev !== null) wait.prev.next = wait.next;
    else if (this.head === wait) this.head = wait.next;
    if (wait.next !== null) wait.next.prev = wait.prev;
    wait.prev = wait.next = null;
  }

  /** True when no wait is in flight. */
  get idle(): boolean {
    return this.head === null;
  }

  /** Ends every wait in flight, and every later one at once, with `error`. */
  stop(error: NuwaError): void {
    if (this.stopError !== null) return;
    this.stopError = error;
    let wait = this.head;
    this.head = null;
    while (wait !== null) {
      const next = wait.next;
      wait.prev = wait.next = null;
      wait.fail(error);
      wait = next;
    }
  }
}
