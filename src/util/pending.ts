// Waiting inside the interpreter without a promise per wait.
//
// A loop whose body calls an async tool waits once per iteration. With promises, each wait costs a
// promise of our own and a second microtask (the tool's promise settles ours, then ours resumes the
// loop), and each await costs suspending and resuming an async function: together more than the
// tool call itself. A Pending is the interpreter's own, lighter promise: whoever waits for it
// registers a Continuation, which is called in the very microtask in which the result arrives, so
// the loop goes on from the tool's own promise in one step. Pendings never leave the interpreter:
// at its edges (a host's promise, an `await`) they become promises.

/** Who goes on once something is done. */
export interface Continuation {
  resume(value: unknown): void;
  fail(error: unknown): void;
}

/** What a statement that had to wait hands back: the interpreter's Pending, or a promise. */
export type Waiting = Pending | Promise<unknown>;

const WAITING = 0;
const DONE = 1;
const FAILED = 2;

export class Pending implements PromiseLike<unknown> {
  #state: typeof WAITING | typeof DONE | typeof FAILED = WAITING;
  #result: unknown = undefined;
  #next: Continuation | null = null;

  /** Ends with `value`; when `value` is itself waiting, once that is done, with its value. */
  resolveWith(value: unknown): void {
    if (this.#state !== WAITING) return;
    if (value instanceof Pending || value instanceof Promise) {
      follow(value, { resume: (settled) => this.resolveWith(settled), fail: (error) => this.rejectWith(error) });
      return;
    }
    this.#state = DONE;
    this.#result = value;
    const next = this.#next;
    this.#next = null;
    next?.resume(value);
  }

  rejectWith(error: unknown): void {
    if (this.#state !== WAITING) return;
    this.#state = FAILED;
    this.#result = error;
    const next = this.#next;
    this.#next = null;
    next?.fail(error);
  }

  /**
   * Calls `next` once this is done. Already done, it is called in a microtask, never on the caller's
   * stack: a loop over a tool that answers at once must not recurse once per iteration.
   */
  waitFor(next: Continuation): void {
    if (this.#state === WAITING) {
      const first = this.#next;
      this.#next = first === null ? next : { resume: (value) => (first.resume(value), next.resume(value)), fail: (error) => (first.fail(error), next.fail(error)) };
      return;
    }
    const state = this.#state;
    const result = this.#result;
    queueMicrotask(() => (state === DONE ? next.resume(result) : next.fail(result)));
  }

  /** The promise of the same result. */
  asPromise(): Promise<unknown> {
    return new Promise((resolve, reject) => this.waitFor({ resume: resolve, fail: reject }));
  }

  /** A Pending can be awaited like a promise. */
  then<A = unknown, B = never>(onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onRejected?: ((error: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.asPromise().then(onFulfilled, onRejected);
  }
}

/** Tells `next` when `waiting` is done. */
export function follow(waiting: Waiting, next: Continuation): void {
  if (waiting instanceof Pending) waiting.waitFor(next);
  else waiting.then((value) => next.resume(value), (error: unknown) => next.fail(error));
}
