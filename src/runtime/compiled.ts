// What the evaluator compiles a script into: closures over (run, scope). An expression becomes a
// synchronous closure when no CALL is reachable from it, else one that may return a promise; a
// statement runs synchronously until it must wait. The compilers (evaluator.ts, expressions.ts,
// calls.ts, chains.ts, calc.ts) share these shapes.
import type { ScriptRun } from './script-run.js';
import type { Waiting } from '../util/pending.js';
import type { Value } from '../values/values.js';
import type { Scope } from './scope.js';

export type SyncEval = (rt: ScriptRun, scope: Scope) => Value;
/**
 * An expression that may reach a CALL: its value, or a promise of it when it had to wait. (A tool
 * that returns a plain value answers at once, so a CALL costs a promise only when the tool does.)
 * A Value is never a Promise, so `instanceof Promise` tells the two apart.
 */
export type AsyncEval = (rt: ScriptRun, scope: Scope) => Value | Promise<Value>;
/** A compiled expression: exactly one of the two is set, chosen by whether the node may wait (waiting.ts: a CALL or a list comprehension inside). */
export interface Compiled {
  sync: SyncEval | null;
  async: AsyncEval | null;
}

/**
 * A compiled statement (or block, or program). It runs synchronously and returns undefined, or
 * returns a promise as soon as it must wait: for a tool, or for a turn of the event loop when the
 * run's time slice is spent (Run.yieldDue). Whoever ran it then continues on an async path from
 * that point. So a CALL-free stretch of script costs no promise, and a long one still lets timers,
 * signals and Ctrl-C in.
 */
export type Exec = (rt: ScriptRun, scope: Scope) => Waiting | undefined;


/**
 * Evaluates a part inside an async closure. Returning the sync value directly (not from an async
 * function) means `await evaluatePart(...)` on a sync part costs only the await itself; single parts use
 * the inline form `x.async ? await x.async(...) : x.sync!(...)`, which costs nothing when sync.
 */
export function evaluatePart(part: Compiled, rt: ScriptRun, scope: Scope): Value | Promise<Value> {
  return part.async !== null ? part.async(rt, scope) : part.sync!(rt, scope);
}
