// How many calls a run has in flight at once (DURABLE.md §4: `maxConcurrentCalls`). Calls that may
// overlap (a list comprehension's elements, a chain's nodes) take a slot while their tool runs and
// give it back when it has answered; a call that finds none free waits in line, first come first
// served, so the order tools start in is the order their calls asked for a slot: the same in every
// run of a script, whichever calls finish first.
export class CallSlots {
  private used = 0;
  private readonly line: Array<{ go: () => void; stop: (reason: unknown) => void }> = [];

  constructor(readonly size: number) {}

  /**
   * Takes a slot: undefined when one was free, else a promise that resolves when the slot is this
   * call's. Rejects with `signal`'s reason if it aborts while waiting (the slot is not taken then).
   */
  take(signal: AbortSignal): Promise<void> | undefined {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.used < this.size) {
      this.used++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const place = {
        go: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        stop: reject,
      };
      const onAbort = () => {
        const at = this.line.indexOf(place);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.line.push(place);
    });
  }

  /** Gives a slot back: to the first call in line, or free. */
  give(): void {
    const next = this.line.shift();
    if (next !== undefined) next.go();
    else this.used--;
  }
}
