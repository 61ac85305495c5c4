// Waiting for a tool without trusting it to finish: the wait ends when the tool settles, when the
// run stops (cancellation, run timeout, a limit), or when the tool's own timeoutMs passes —
// whichever comes first.
//
// This is on the path of every call, so it is lean: the wait's own resolve/reject go straight to
// the tool's `then` (no wrapper callbacks unless the tool has a timeout). The tool's answer is only
// ever touched through the `then` method its caller read once (a getter may answer differently on a
// second read), and a `then` that throws rejects the wait instead of escaping. Waits in flight are
// kept in a doubly linked list, not as a stack: a tool that fires off context.callTool without
// awaiting it finishes its waits out of order, and every one of them must still be ended by stop().
// (Not a Map keyed by the wait: giving each promise an identity hash cost a fifth of a CALL.)
import { NuwaError } from '../errors.js';
import type { Thenable } from '../util/foreign.js';

const ignore = () => {};

/** What a wait needs to know about the tool it waits for. */
export interface TimedTool {
  readonly name: string;
  readonly timeoutMs: number | undefined;
}

/** One wait in flight: await `promise`, then pass the Wait to end(). */
export class Wait {
  prev: Wait | null = null;
  next: Wait | null = null;
  reject: (error: unknown) => void = ignore;
  promise!: Promise<unknown>;
}

export class Waits {
  private head: Wait | null = null;
  private stopError: NuwaError | null = null;

  /**
   * Settles like `answer` (through its `then`, read once by the caller) unless the run stops or
   * `tool`'s timeout passes first. Never throws. Pair with end(wait).
   */
  begin(answer: unknown, then: Thenable, tool: TimedTool | undefined, toolController: AbortController | undefined): Wait {
    const wait = new Wait();
    if (this.stopError !== null) {
      // The tool's own promise must not become an unhandled rejection.
      try {
        Reflect.apply(then, answer, [ignore, ignore]);
      } catch {
        // a `then` that throws has nothing left to reject
      }
      wait.promise = Promise.reject(this.stopError);
      return wait;
    }
    const timeoutMs = tool?.timeoutMs;
    wait.promise =
      timeoutMs === undefined
        ? new Promise((resolve, reject) => {
            wait.reject = reject;
            Reflect.apply(then, answer, [resolve, reject]);
          })
        : new Promise((resolve, reject) => {
            wait.reject = reject;
            const timer = setTimeout(() => {
              const error = new NuwaError('LimitExceededError', `tool \`${tool!.name}\` took longer than its timeoutMs (${timeoutMs} ms)`, { toolName: tool!.name });
              toolController?.abort(error);
              reject(error);
            }, timeoutMs);
            const settle = (error: unknown) => {
              clearTimeout(timer);
              reject(error);
            };
            try {
              Reflect.apply(then, answer, [
                (value: unknown) => {
                  clearTimeout(timer);
                  resolve(value);
                },
                settle,
              ]);
            } catch (error) {
              settle(error);
            }
          });
    wait.next = this.head;
    if (this.head !== null) this.head.prev = wait;
    this.head = wait;
    return wait;
  }

  /** `wait` is over: stop() need not end it. Safe to call for a wait that was never in the list. */
  end(wait: Wait): void {
    if (wait.prev !== null) wait.prev.next = wait.next;
    else if (this.head === wait) this.head = wait.next;
    if (wait.next !== null) wait.next.prev = wait.prev;
    wait.prev = wait.next = null;
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
      wait.reject(error);
      wait = next;
    }
  }
}
