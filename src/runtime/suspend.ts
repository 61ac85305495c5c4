// Heavy built-ins that let the event loop in (TOOLS.md §7). A built-in over a value at the limits
// (REPLACE on millions of characters, STR of a million items, SORT...) can take longer than the
// run's time slice in one call. Its work is written as steps (a generator that charges the run's
// clock as it goes and pauses between chunks): the deadline is seen within a chunk, and once the
// slice is spent the call can be suspended, so that timers, the host's AbortSignal and Ctrl-C get
// their turn.
//
// The evaluator's statements are synchronous closures, so a suspended call cannot be returned to in
// the middle of its expression. Instead the statement is run again: the runner of its block catches
// the Suspension, finishes the call's remaining steps a time slice at a time with a turn of the
// event loop between slices, remembers the result, and runs the statement again from its start;
// there every heavy call with the same arguments (the same values, which are immutable) answers
// from memory. That is only sound when running the statement again repeats nothing: so only a
// statement without a CALL is suspended, and only before it has printed anything; otherwise the call
// runs to its end (the deadline still seen within a chunk). Its steps are counted once.
import type { FunctionCall } from '../syntax/ast.js';
import { equals, type Value } from '../values/values.js';
import type { BuiltinHost } from './builtin-support.js';

/** A heavy built-in's work: pauses (yields) between chunks, returns the value. */
export type Steps = Generator<void, Value, void>;

/** Thrown by a heavy built-in to hand its unfinished steps to the runner of the statement. */
export class Suspension {
  constructor(
    readonly node: FunctionCall,
    readonly args: Value[],
    readonly steps: Steps,
  ) {}
}

/** What the run keeps for suspensions (the evaluator's runners set it; Run implements it). */
export interface SuspendHost extends BuiltinHost {
  /** The time slice is spent: the run would give the event loop a turn at the next boundary. */
  readonly yieldDue: boolean;
  /** Whether the statement running now may be suspended (it has no CALL, and has printed nothing). */
  maySuspend(): boolean;
  /** Results of heavy calls of the statement being run again after a suspension, else undefined. */
  readonly replay: Replay | undefined;
}

/** The heavy calls of a statement that is being run again, with their arguments and results. */
export class Replay {
  private readonly calls = new Map<FunctionCall, Array<{ args: Value[]; value: Value }>>();
  /**
   * How often the statement was suspended. Run again, a statement gives its heavy calls the same
   * arguments (its NOW() times are kept too: ScriptRun.now), so each suspension leaves a call
   * answered from memory; should one ever not, after MAX_SUSPENSIONS its calls run to their end
   * (the deadline still seen), so that the statement always finishes.
   */
  suspensions = 0;

  remember(node: FunctionCall, args: Value[], value: Value): void {
    let list = this.calls.get(node);
    if (list === undefined) this.calls.set(node, (list = []));
    list.push({ args, value });
  }

  recall(node: FunctionCall, args: Value[]): { value: Value } | undefined {
    const list = this.calls.get(node);
    if (list === undefined) return undefined;
    for (const entry of list) if (sameArguments(entry.args, args)) return entry;
    return undefined;
  }
}

/** Suspensions of one statement after which its heavy calls run to their end. */
export const MAX_SUSPENSIONS = 16;

/**
 * Built-ins are functions of their arguments' values, which never change: equal arguments give the
 * same result. (Run again, `{ a: SLICE(l, 1) }` builds a new object, equal to the first, around the
 * list SLICE answers from memory: the comparison stops at that very list.)
 */
function sameArguments(a: Value[], b: Value[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !equals(a[i]!, b[i]!)) return false;
  return true;
}

/**
 * Calls a heavy built-in from a synchronous closure: its steps run to their end, unless the slice
 * is spent where the statement may be suspended (then a Suspension is thrown for its runner).
 */
export function callSteps(steps: (args: Value[], host: BuiltinHost, at: FunctionCall) => Steps, args: Value[], node: FunctionCall, host: SuspendHost): Value {
  const replay = host.replay;
  if (replay !== undefined) {
    const known = replay.recall(node, args);
    if (known !== undefined) return known.value;
  }
  const work = steps(args, host, node);
  for (let step = work.next(); ; step = work.next()) {
    if (step.done) {
      replay?.remember(node, args, step.value);
      return step.value;
    }
    if (host.yieldDue && host.maySuspend()) throw new Suspension(node, args, work);
  }
}

/**
 * Calls a heavy built-in from an async closure (a statement that waits for a tool anyway): its
 * steps run with a turn of the event loop whenever the slice is spent.
 */
export async function callStepsAsync(steps: Steps, host: SuspendHost & { yieldTurn(): Promise<void> }): Promise<Value> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (host.yieldDue) await host.yieldTurn();
  }
}
