// Waiting for a tool without trusting it to finish: the wait ends when the tool settles, when the
// run stops (cancellation, run timeout, a limit), or when the tool's own timeoutMs passes —
// whichever comes first.
//
// This is on the path of every call, so it is lean: the wait's own resolve/reject go straight to
// the tool's promise (no wrapper callbacks), and the rejecters of waits in flight are kept on a
// stack that each caller pops when its wait is over. Calls nest strictly (a script waits on one call
// at a time; context.callTool nests inside it), and where a misbehaving tool breaks that order the
// worst outcome is a stale rejecter, which is harmless: rejecting a settled promise does nothing.
import { NuwaError } from '../errors.js';
import type { RegisteredTool } from './registry.js';

const ignore = () => {};

export class Waits {
  private readonly rejecters: Array<(error: unknown) => void> = [];
  private stopError: NuwaError | null = null;

  /** Settles like `promise` unless the run stops or `tool`'s timeout passes first. Pair with end(). */
  begin(promise: PromiseLike<unknown>, tool: RegisteredTool | undefined, toolController: AbortController | undefined): Promise<unknown> {
    if (this.stopError !== null) {
      promise.then(undefined, ignore); // the tool's own promise must not become an unhandled rejection
      this.rejecters.push(ignore);
      return Promise.reject(this.stopError);
    }
    const timeoutMs = tool?.timeoutMs;
    let rejectWait!: (error: unknown) => void;
    const wait =
      timeoutMs === undefined
        ? new Promise((resolve, reject) => {
            rejectWait = reject;
            promise.then(resolve, reject);
          })
        : new Promise((resolve, reject) => {
            rejectWait = reject;
            const timer = setTimeout(() => {
              const error = new NuwaError('LimitExceededError', `tool \`${tool!.name}\` took longer than its timeoutMs (${timeoutMs} ms)`, { toolName: tool!.name });
              toolController?.abort(error);
              reject(error);
            }, timeoutMs);
            promise.then(
              (value) => {
                clearTimeout(timer);
                resolve(value);
              },
              (error: unknown) => {
                clearTimeout(timer);
                reject(error);
              },
            );
          });
    this.rejecters.push(rejectWait);
    return wait;
  }

  /** The wait begun last is over. */
  end(): void {
    this.rejecters.pop();
  }

  /** Ends every wait in flight, and every later one at once, with `error`. */
  stop(error: NuwaError): void {
    if (this.stopError !== null) return;
    this.stopError = error;
    for (const reject of this.rejecters) reject(error);
    this.rejecters.length = 0;
  }
}
