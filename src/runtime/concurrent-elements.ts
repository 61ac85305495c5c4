// The elements of a list comprehension that can call tools, evaluated concurrently (DURABLE.md §4).
// The elements are independent (an expression cannot assign), so their calls may overlap:
//
// - Elements start in item order, each running until its first call, up to a window of elements
//   ahead of the first unfinished one; their calls take the run's call slots (maxConcurrentCalls in
//   flight, first come first served).
// - A call that writes or needs approval waits for its element's turn (every element before it has
//   finished), so such calls never overlap and go in element order, one approval at a time; and an
//   element goes on after each of its calls only at its turn (script-call.ts). So everything but the
//   tools themselves happens in one order, whatever order the tools answer in: NOW() and PRINT see
//   the same sequence in every run, and a durable run replays it.
// - The values are kept in item order. When elements fail, the error is the first failing
//   element's in item order: the elements before it are awaited (one may fail first), those after it
//   have their signals aborted, and no new element starts. A durable run that pauses in an element
//   waits instead for every call in flight, which finish and are recorded, before it pauses.
import type { ScriptRun } from './script-run.js';
import type { ConcurrentElement, Scope } from './scope.js';

/** What a comprehension's evaluation (comprehension.ts ElementsRun) gives the routine. */
export interface ElementSource<V> {
  readonly rt: ScriptRun;
  /** The scope the comprehension stands in. */
  readonly scope: Scope;
  readonly items: { readonly length: number };
  /** Evaluates the element at `index`, with `concurrent` attached to its scope. */
  element(index: number, concurrent: ConcurrentElement): V | Promise<V>;
  /** Keeps an element's value; called in item order. */
  keep(value: V): void;
}

/** How many elements may be under way ahead of the first unfinished one, per call slot. */
const WINDOW_PER_SLOT = 4;

/** A promise that can be settled from outside. */
class Gate {
  readonly promise: Promise<void>;
  open!: () => void;
  shut!: (reason: unknown) => void;
  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.open = resolve;
      this.shut = reject;
    });
    this.promise.catch(() => {}); // a gate shut with nobody waiting is not an unhandled rejection
  }
}

/** Why an element stopped waiting for its turn: an element before it failed, or the run pauses. */
class Cancelled extends Error {}

export function evaluateElementsConcurrently<V>(source: ElementSource<V>): Promise<void> {
  return new ConcurrentElements(source).done;
}

class ConcurrentElements<V> {
  readonly done: Promise<void>;
  private finish!: () => void;
  private abandon!: (error: unknown) => void;
  private readonly count: number;
  private readonly window: number;
  private readonly values: Array<{ value: V } | undefined> = [];
  private readonly controllers: AbortController[] = [];
  /** The signal the elements' signals follow: the run's, or the enclosing element's. */
  private readonly parent: AbortSignal;
  /** One listener on it for all the elements (not one each: a signal warns past ten). */
  private readonly onParentAbort = () => {
    for (const controller of this.controllers) controller?.abort(this.parent.reason);
  };
  private readonly gates = new Map<number, Gate>();
  /** How many elements from the first have finished: the turn of element `finished` has come. */
  private finished = 0;
  private started = 0;
  private settled = 0;
  private failure: { index: number; error: unknown } | undefined;
  private ended = false;
  /** The element of an enclosing concurrent comprehension: its turn comes before ours. */
  private readonly outer: ConcurrentElement | null;

  constructor(private readonly source: ElementSource<V>) {
    this.count = source.items.length;
    this.window = Math.max(2, source.rt.slots.size * WINDOW_PER_SLOT);
    this.outer = source.scope.nearestElement();
    this.parent = this.outer?.signal ?? source.rt.signal;
    this.parent.addEventListener('abort', this.onParentAbort, { once: true });
    this.done = new Promise<void>((resolve, reject) => {
      this.finish = resolve;
      this.abandon = reject;
    });
    source.rt.concurrentComprehensions++;
    this.admit();
  }

  /** Starts elements in item order while the window allows, the run goes on and nothing failed. */
  private admit(): void {
    const { rt } = this.source;
    while (this.failure === undefined && !this.ended && this.started < this.count && this.started < this.finished + this.window) {
      if (rt.yieldDue) {
        // A long run of elements that answer at once still lets the event loop in.
        rt.yieldTurn().then(
          () => this.admit(),
          (error: unknown) => this.stopAdmitting(error),
        );
        return;
      }
      this.start(this.started++);
    }
  }

  private start(index: number): void {
    const controller = new AbortController();
    this.controllers[index] = controller;
    if (this.parent.aborted) controller.abort(this.parent.reason);
    const element: ConcurrentElement = { signal: controller.signal, turn: () => this.turn(index) };
    let value: V | Promise<V>;
    try {
      value = this.source.element(index, element);
    } catch (error) {
      this.fail(index, error);
      return;
    }
    if (value instanceof Promise) value.then((settled) => this.complete(index, settled), (error: unknown) => this.fail(index, error));
    else this.complete(index, value);
  }

  /** Resolves when every element before `index` has finished, here and in the enclosing comprehensions. */
  private turn(index: number): Promise<void> {
    const outer = this.outer?.turn();
    const own = this.ownTurn(index);
    if (outer === undefined) return own;
    return own.then(() => outer);
  }

  private ownTurn(index: number): Promise<void> {
    if (this.finished >= index) return Promise.resolve();
    if (this.failure !== undefined && index > this.failure.index) return Promise.reject(new Cancelled());
    let gate = this.gates.get(index);
    if (gate === undefined) this.gates.set(index, (gate = new Gate()));
    return gate.promise;
  }

  private complete(index: number, value: V): void {
    this.settled++;
    if (this.ended) return;
    this.values[index] = { value };
    while (this.finished < this.count && this.values[this.finished] !== undefined) {
      try {
        this.source.keep(this.values[this.finished]!.value);
      } catch (error) {
        // The list grew past the value limits: the comprehension fails here.
        this.fail(this.finished, error);
        return;
      }
      this.values[this.finished] = undefined;
      this.finished++;
      this.gates.get(this.finished)?.open();
      this.gates.delete(this.finished);
    }
    if (this.failure !== undefined) this.conclude();
    else if (this.finished === this.count) this.end();
    else this.admit();
  }

  private fail(index: number, error: unknown): void {
    this.settled++;
    if (this.ended) return;
    // Cancelled: an element after the failure stopped at its turn; the failure is already known.
    if (error instanceof Cancelled) {
      this.conclude();
      return;
    }
    if (this.failure === undefined || index < this.failure.index) this.failure = { index, error };
    // Elements after the failing one will never have their turn; unless the run is pausing (its
    // calls in flight then finish and are recorded), their calls stop now: whatever comes of them,
    // the error is one of an element up to this one.
    for (const [waiting, gate] of this.gates) if (waiting > this.failure.index) gate.shut(new Cancelled());
    if (!this.source.rt.pausing) for (let later = this.failure.index + 1; later < this.started; later++) this.controllers[later]?.abort(this.failure.error);
    this.conclude();
  }

  /** The run stopped while elements were still to start: none will; the stop is the failure. */
  private stopAdmitting(error: unknown): void {
    if (this.ended) return;
    if (this.failure === undefined || this.started < this.failure.index) this.failure = { index: this.started, error };
    this.conclude();
  }

  /**
   * Once a failure is known: raise it as soon as every element before it has finished (one of them
   * may fail first, and become the failure). A durable run that pauses first waits for every element
   * under way to settle: their calls in flight finish and are recorded.
   */
  private conclude(): void {
    const failure = this.failure;
    if (failure === undefined || this.ended || this.finished < failure.index) return;
    if (this.source.rt.pausing && this.settled < this.started) return;
    this.close();
    this.abandon(failure.error);
  }

  private end(): void {
    this.close();
    this.finish();
  }

  private close(): void {
    this.ended = true;
    this.source.rt.concurrentComprehensions--;
    this.parent.removeEventListener('abort', this.onParentAbort);
  }
}

