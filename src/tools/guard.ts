// Waiting for a tool without trusting it to finish: the wait ends when the tool settles, when the
// run stops (cancellation, run timeout), or when the tool's own timeoutMs passes — whichever is first.
import { NuwaError } from '../errors.js';
import type { RegisteredTool } from './registry.js';

/** The rejecters of calls in flight; a run that stops rejects them all with its stop error. */
export type PendingCalls = Set<(error: NuwaError) => void>;

export function guardToolPromise(
  promise: PromiseLike<unknown>,
  tool: RegisteredTool | undefined,
  toolController: AbortController | undefined,
  pending: PendingCalls,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      pending.delete(reject);
      if (timer !== undefined) clearTimeout(timer);
    };
    pending.add(reject);
    if (tool?.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const error = new NuwaError('LimitExceededError', `tool \`${tool.name}\` took longer than its timeoutMs (${tool.timeoutMs} ms)`, { toolName: tool.name });
        toolController?.abort(error);
        settle();
        reject(error);
      }, tool.timeoutMs);
    }
    promise.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}
