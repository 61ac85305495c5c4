// Waiting for a tool without trusting it to finish: the wait ends when the tool settles, when the
// run stops (cancellation, run timeout, a limit), or when the tool's own timeoutMs passes —
// whichever comes first.
//
// This is on the path of every call, so it is lean: the wait's own resolve/reject go straight to
// the tool's `then` (no wrapper callbacks unless the tool has a timeout). The tool's answer is only
// ever touched through the `then` method its caller read once (a getter may answer differently on a
// second read), and a `then` that throws rejects the wait instead of escaping. Waits in flight are
// kept by identity, not as a stack: a tool that fires off context.callTool without awaiting it
// finishes its waits out of order, and every one of them must still be ended by stop().
import { NuwaError } from '../errors.js';
import type { Thenable } from '../util/foreign.js';

const ignore = () => {};

/** What a wait needs to know about the tool it waits for. */
export interface TimedTool {
  readonly name: string;
  readonly timeoutMs: number | undefined;
}

export class Waits {
  private readonly inFlight = new Map<Promise<unknown>, (error: unknown) => void>();
  private stopError: NuwaError | null = null;

  /**
   * Settles like `answer` (through its `then`, read once by the caller) unless the run stops or
   * `tool`'s timeout passes first. Never throws. Pair with end(wait).
   */
  begin(answer: unknown, then: Thenable, tool: TimedTool | undefined, toolController: AbortController | undefined): Promise<unknown> {
    if (this.stopError !== null) {
      // The tool's own promise must not become an unhandled rejection.
      try {
        Reflect.apply(then, answer, [ignore, ignore]);
      } catch {
        // a `then` that throws has nothing left to reject
      }
      return Promise.reject(this.stopError);
    }
    const timeoutMs = tool?.timeoutMs;
    let rejectWait!: (error: unknown) => void;
    const wait =
      timeoutMs === undefined
        ? new Promise((resolve, reject) => {
            rejectWait = reject;
            Reflect.apply(then, answer, [resolve, reject]);
          })
        : new Promise((resolve, reject) => {
            rejectWait = reject;
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
    this.inFlight.set(wait, rejectWait);
    return wait;
  }

  /** `wait` is over: stop() need not end it. */
  end(wait: Promise<unknown>): void {
    this.inFlight.delete(wait);
  }

  /** Ends every wait in flight, and every later one at once, with `error`. */
  stop(error: NuwaError): void {
    if (this.stopError !== null) return;
    this.stopError = error;
    for (const reject of this.inFlight.values()) reject(error);
    this.inFlight.clear();
  }
}
