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

// The fields are set in the constructor (`declare`d, not class fields): V8 runs class field
// initialisers as a function of their own for every instance, and subclasses (the loop and block
// runs of runtime/block-runs.ts) would pay for it on every wait.
export class Pending implements PromiseLike<unknown> {
  private declare pendingState: typeof WAITING | typeof DONE | typeof FAILED;
  private declare pendingResult: unknown;
  private declare pendingNext: Continuation | null;

  constructor() {
    this.pendingState = WAITING;
    this.pendingResult = undefined;
    this.pendingNext = null;
  }

  /** Someone waits for this: a continuation is attached and not yet told. */
  protected get awaited(): boolean {
    return this.pendingNext !== null;
  }

  /**
   * Done with `value` (not itself waiting), without telling whoever waits yet: returns them, for
   * the caller to tell (resume) once it has finished with this object.
   */
  protected doneWith(value: unknown): Continuation | null {
    return this.end(DONE, value);
  }

  /** doneWith, for an error (fail). */
  protected failedWith(error: unknown): Continuation | null {
    return this.end(FAILED, error);
  }

  private end(state: typeof DONE | typeof FAILED, result: unknown): Continuation | null {
    if (this.pendingState !== WAITING) return null;
    this.pendingState = state;
    this.pendingResult = result;
    const next = this.pendingNext;
    this.pendingNext = null;
    return next;
  }

  /**
   * Waiting again, for an object used once more (tools/invoke.ts): only once it is done, has told
   * whoever waited for it, and nobody else holds it as this Pending.
   */
  protected restart(): void {
    this.pendingState = WAITING;
    this.pendingResult = undefined;
    this.pendingNext = null;
  }

  /** Ends with `value`; when `value` is itself waiting, once that is done, with its value. */
  resolveWith(value: unknown): void {
    if (this.pendingState !== WAITING) return;
    if (value instanceof Pending || value instanceof Promise) {
      follow(value, new Adopting(this));
      return;
    }
    this.pendingState = DONE;
    this.pendingResult = value;
    const next = this.pendingNext;
    this.pendingNext = null;
    next?.resume(value);
  }

  rejectWith(error: unknown): void {
    if (this.pendingState !== WAITING) return;
    this.pendingState = FAILED;
    this.pendingResult = error;
    const next = this.pendingNext;
    this.pendingNext = null;
    next?.fail(error);
  }

  /**
   * Calls `next` once this is done. Already done, it is called in a microtask, never on the caller's
   * stack: a loop over a tool that answers at once must not recurse once per iteration.
   */
  waitFor(next: Continuation): void {
    if (this.pendingState === WAITING) {
      const first = this.pendingNext;
      this.pendingNext = first === null ? next : new Both(first, next);
      return;
    }
    tellLater(this.pendingState === DONE, this.pendingResult, next);
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
  else followPromise(waiting, next);
}

// The closures below are made in functions of their own, never in waitFor or follow: a closure
// there would make V8 allocate a context for their arguments at every call, on the path of every
// wait, whether or not the closure is made.

function followPromise(promise: Promise<unknown>, next: Continuation): void {
  promise.then((value) => next.resume(value), (error: unknown) => next.fail(error));
}

/** Tells `next` in a microtask: never on the caller's stack. */
function tellLater(done: boolean, result: unknown, next: Continuation): void {
  queueMicrotask(() => (done ? next.resume(result) : next.fail(result)));
}

/** Two continuations waiting for the same Pending, told in the order they came. */
class Both implements Continuation {
  constructor(
    private readonly first: Continuation,
    private readonly second: Continuation,
  ) {}

  resume(value: unknown): void {
    this.first.resume(value);
    this.second.resume(value);
  }

  fail(error: unknown): void {
    this.first.fail(error);
    this.second.fail(error);
  }
}

/** A Pending resolved with something that waits: it ends as that ends. */
class Adopting implements Continuation {
  constructor(private readonly pending: Pending) {}

  resume(value: unknown): void {
    this.pending.resolveWith(value);
  }

  fail(error: unknown): void {
    this.pending.rejectWith(error);
  }
}
