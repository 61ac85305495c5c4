// Waiting for a tool without trusting it to finish: the wait ends when the tool settles, when the
// run stops (cancellation, run timeout, a limit), or when the tool's own timeoutMs passes —
// whichever comes first.
//
// This is on the path of every call that waits, so it is lean: whoever waits is the wait itself (a
// WaitInFlight: a tool's call is one), told directly, with no promise of the wait's own in between,
// so that the evaluator can go on in the same microtask in which the tool's promise settled. The tool's answer is only
// ever touched through the `then` method its caller read once (a getter may answer differently on a
// second read), and a `then` that throws rejects the wait instead of escaping. Waits in flight are
// kept in a doubly linked list, not as a stack: a tool that fires off context.callTool without
// awaiting it finishes its waits out of order, and every one of them must still be ended by endAll().
// (Not a Map keyed by the wait: giving each promise an identity hash cost a fifth of a CALL.)
import { NuwaError } from '../errors.js';
import type { Thenable } from '../util/foreign.js';
import { Pending } from '../util/pending.js';

const ignore = () => {};
/**
 * `fn.call(self, ...args)` without reading `call` off `fn` (a tool's `then` may carry its own) and
 * without the arguments array Reflect.apply takes: on the path of every call that waits.
 */
const callWith = Function.prototype.call.bind(Function.prototype.call) as (fn: Thenable, self: unknown, ...args: unknown[]) => unknown;

/** What a wait needs to know about the tool it waits for. */
export interface TimedTool {
  readonly name: string;
  readonly timeoutMs: number | undefined;
}

/**
 * One wait in flight: a node of its Waits' list and the receiver of the tool's answer. A subclass is
 * told how the wait ends (settled, failed); a tool's call (invoke.ts) is one, so that a call that
 * waits is one object, not a call, a wait and a continuation (a host may have thousands waiting).
 */
export abstract class WaitInFlight extends Pending {
  // Set in the constructor (`declare`d): class field initialisers would run as a function of their own per wait.
  declare prev: WaitInFlight | null;
  declare next: WaitInFlight | null;
  /** The list the wait is in, until it ends (then null: ending it again does nothing). */
  private declare waits: Waits | null;
  private declare timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The handlers given to the tool's `then`: bound methods rather than two arrows (two small
   * objects, not two closures and the context they share), made once for the object, which a run
   * may use for several calls (tools/invoke.ts).
   */
  private declare onValue: ((value: unknown) => void) | undefined;
  private declare onError: ((error: unknown) => void) | undefined;
  /** The wait was ended by the tool's answer through those handlers, not by a stop or a timeout. */
  protected declare endedByAnswer: boolean;

  constructor() {
    super();
    this.prev = null;
    this.next = null;
    this.waits = null;
    this.timer = undefined;
    this.onValue = undefined;
    this.onError = undefined;
    this.endedByAnswer = false;
  }

  /** Ready for another wait, once this one has ended and told whoever waited (Pending.restart). */
  protected reopen(): void {
    this.restart();
    this.timer = undefined;
    this.endedByAnswer = false;
  }

  /** Hands the tool's `then` (read once by the caller) this wait's handlers. */
  listen(answer: unknown, then: Thenable): void {
    callWith(then, answer, (this.onValue ??= this.answered.bind(this)), (this.onError ??= this.refused.bind(this)));
  }

  private answered(value: unknown): void {
    if (this.waits !== null) this.endedByAnswer = true;
    this.settle(value);
  }

  private refused(error: unknown): void {
    if (this.waits !== null) this.endedByAnswer = true;
    this.fail(error);
  }

  /** The wait ended with the tool's value: told once, after the wait has left the list. */
  protected abstract settled(value: unknown): void;
  /** The wait ended with an error (the tool's, a timeout, the run's stop): told once, likewise. */
  protected abstract failed(error: unknown): void;

  /** Ends the wait with a value, unless it has ended already. */
  settle(value: unknown): void {
    if (this.close()) this.settled(value);
  }

  /** Ends the wait with an error, unless it has ended already. */
  fail(error: unknown): void {
    if (this.close()) this.failed(error);
  }

  /** Begins the wait in `waits` (Waits.watch). */
  open(waits: Waits): void {
    this.waits = waits;
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
    const waits = this.waits;
    if (waits === null) return false;
    this.waits = null;
    if (this.timer !== undefined) clearTimeout(this.timer);
    waits.end(this);
    return true;
  }
}

/** A wait made by begin(): await `promise`, then pass the Wait to end(). */
export class Wait extends WaitInFlight {
  declare readonly promise: Promise<unknown>;
  private declare resolve: (value: unknown) => void;
  private declare reject: (error: unknown) => void;

  constructor() {
    super();
    (this as { promise: Promise<unknown> }).promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  protected settled(value: unknown): void {
    this.resolve(value);
  }

  protected failed(error: unknown): void {
    this.reject(error);
  }
}

export class Waits {
  // Named apart from the fields of a run, which is a Waits itself (tools/run.ts).
  private waitsHead: WaitInFlight | null = null;
  private waitsStopped: NuwaError | null = null;

  /**
   * Follows `answer` (through its `then`, read once by the caller) and tells `wait` how it ends,
   * exactly once: with the tool's value (settled) or error (failed), or with the stop error if the
   * run stops first, or with a LimitExceededError if `tool`'s timeout passes first. The wait leaves
   * the list before it is told. Never throws; a wait begun after endAll() fails at once.
   */
  watch(answer: unknown, then: Thenable, tool: TimedTool | undefined, toolController: AbortController | undefined, wait: WaitInFlight): void {
    wait.open(this);
    if (this.waitsStopped !== null) {
      // The tool's own promise must not become an unhandled rejection.
      try {
        Reflect.apply(then, answer, [ignore, ignore]);
      } catch {
        // a `then` that throws has nothing left to reject
      }
      wait.fail(this.waitsStopped);
      return;
    }
    wait.next = this.waitsHead;
    if (this.waitsHead !== null) this.waitsHead.prev = wait;
    this.waitsHead = wait;
    const timeoutMs = tool?.timeoutMs;
    if (timeoutMs !== undefined) wait.startTimer(tool!, timeoutMs, toolController);
    try {
      wait.listen(answer, then);
    } catch (error) {
      wait.fail(error);
    }
  }

  /**
   * Settles like `answer` (through its `then`, read once by the caller) unless the run stops or
   * `tool`'s timeout passes first. Never throws. Pair with end(wait).
   */
  begin(answer: unknown, then: Thenable, tool: TimedTool | undefined, toolController: AbortController | undefined): Wait {
    const wait = new Wait();
    this.watch(answer, then, tool, toolController, wait);
    return wait;
  }

  /** `wait` is over: endAll() need not end it. Safe to call for a wait that was never in the list. */
  end(wait: WaitInFlight): void {
    if (wait.prev !== null) wait.prev.next = wait.next;
    else if (this.waitsHead === wait) this.waitsHead = wait.next;
    if (wait.next !== null) wait.next.prev = wait.prev;
    wait.prev = wait.next = null;
  }

  /** True when no wait is in flight. */
  get idle(): boolean {
    return this.waitsHead === null;
  }

  /** Ends every wait in flight, and every later one at once, with `error`. */
  endAll(error: NuwaError): void {
    if (this.waitsStopped !== null) return;
    this.waitsStopped = error;
    let wait = this.waitsHead;
    this.waitsHead = null;
    while (wait !== null) {
      const next = wait.next;
      wait.prev = wait.next = null;
      wait.fail(error);
      wait = next;
    }
  }
}
