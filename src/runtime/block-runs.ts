// How compiled statements run: a block's statements one after another, and a FOR loop's items,
// synchronously until one must wait (a tool's promise, a turn of the event loop once the time slice
// is spent, a heavy built-in that suspended its statement: suspend.ts), then as a Pending that goes
// on in the microtask in which what it waited for is done. Compiling them is evaluator.ts's job.
import * as A from '../syntax/ast.js';
import { BUILTINS } from './builtins.js';
import type { ScriptRun } from './script-run.js';
import { follow, Pending, type Continuation, type Waiting } from '../util/pending.js';
import { Scope } from './scope.js';
import type { Exec } from './compiled.js';
import type { NuwaList } from '../values/values.js';
import { Suspension } from './suspend.js';

/**
 * What each statement of a block is to a suspension (suspend.ts): NO_HEAVY when it calls no heavy
 * built-in (its runner then marks nothing: most statements, and a tight loop pays nothing), QUIET
 * when it does and has no CALL (it may be suspended), LOUD when it has a CALL too.
 */
export type StatementKind = 0 | 1 | 2;
const NO_HEAVY = 0;
const QUIET = 1;
const LOUD = 2;

export function statementKinds(statements: readonly A.Statement[]): StatementKind[] {
  return statements.map((statement) => (!callsHeavy(statement) ? NO_HEAVY : statement.hasCall ? LOUD : QUIET));
}

/** Whether a heavy built-in (one with steps) is called anywhere in `node`. */
function callsHeavy(node: A.Node): boolean {
  const pending: A.Node[] = [node];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.type === 'FunctionCall' && BUILTINS.get(next.name)?.steps !== undefined) return true;
    for (const child of A.childrenOf(next)) pending.push(child);
  }
  return false;
}

export function blockRunner(runs: Exec[], kinds: StatementKind[]): Exec {
  return (rt, scope) => {
    for (let i = 0; i < runs.length; i++) {
      if (kinds[i] !== NO_HEAVY) rt.enterStatement(kinds[i] === QUIET, false);
      let waiting: Waiting | undefined;
      try {
        waiting = runs[i]!(rt, scope);
      } catch (error) {
        if (!(error instanceof Suspension)) throw error;
        return new BlockRun(runs, kinds, i, rt, scope, true).after(rt.finishSuspended(error));
      }
      if (waiting !== undefined) return new BlockRun(runs, kinds, i + 1, rt, scope, false).after(waiting);
      if (rt.yieldDue) return new BlockRun(runs, kinds, i + 1, rt, scope, false).after(rt.yieldTurn());
    }
    return undefined;
  };
}

/** The rest of a block once one of its statements had to wait: goes on each time what it waits for is done. */
class BlockRun extends Pending implements Continuation {
  // Fields set in the constructor (`declare`d): see Pending.
  private declare readonly runs: Exec[];
  private declare readonly kinds: StatementKind[];
  private declare next: number;
  /** The next statement is one a suspension runs again. */
  private declare again: boolean;
  private declare readonly rt: ScriptRun;
  private declare readonly scope: Scope;

  constructor(runs: Exec[], kinds: StatementKind[], next: number, rt: ScriptRun, scope: Scope, again: boolean) {
    super();
    this.runs = runs;
    this.kinds = kinds;
    this.next = next;
    this.again = again;
    this.rt = rt;
    this.scope = scope;
  }

  after(waiting: Waiting): this {
    follow(waiting, this);
    return this;
  }

  resume(): void {
    const { runs, kinds, rt, scope } = this;
    try {
      while (this.next < runs.length) {
        const i = this.next++;
        if (kinds[i] !== NO_HEAVY) rt.enterStatement(kinds[i] === QUIET, this.again);
        this.again = false;
        let waiting: Waiting | undefined;
        try {
          waiting = runs[i]!(rt, scope);
        } catch (error) {
          if (!(error instanceof Suspension)) throw error;
          this.next = i;
          this.again = true;
          return follow(rt.finishSuspended(error), this);
        }
        if (waiting !== undefined) return follow(waiting, this);
        if (rt.yieldDue) return follow(rt.yieldTurn(), this);
      }
    } catch (error) {
      return this.rejectWith(error);
    }
    this.resolveWith(undefined);
  }

  fail(error: unknown): void {
    this.rejectWith(error);
  }
}

/** A compiled FOR loop: what each run of it needs. */
export interface CompiledLoop {
  node: A.ForStatement;
  variable: string;
  statements: Exec[];
  /** What each of them is to a suspension. */
  kinds: StatementKind[];
}

/**
 * One run of a FOR loop: where it is — the next item, the next statement of the current iteration —
 * and, once it has had to wait, the Pending of its rest. step() runs the loop from there until it
 * ends (undefined) or must wait (for a tool that answered with a promise, or for a turn of the
 * event loop once the time slice is spent); when that is done, resume() steps on, in the microtask
 * in which it was done. So a long loop keeps running in this one method, optimised once, whether or
 * not it waited, and the body's statements run inline. Lists never change, so iterating `items` is
 * iterating the list as it was when the loop began.
 */
export class LoopRun extends Pending implements Continuation {
  // Fields set in the constructor (`declare`d): see Pending.
  private declare next: number;
  private declare statement: number;
  private declare inner: Scope | null;
  /** The loop's one scope, made at its first item and emptied for each next one (scope.ts). */
  private declare spare: Scope | null;
  private declare readonly loop: CompiledLoop;
  private declare readonly rt: ScriptRun;
  private declare readonly scope: Scope;
  private declare readonly items: NuwaList;
  /** The statement to run next is one a suspension runs again. */
  private declare again: boolean;

  constructor(loop: CompiledLoop, rt: ScriptRun, scope: Scope, items: NuwaList) {
    super();
    this.next = 0;
    this.statement = 0;
    this.again = false;
    this.inner = null;
    this.spare = null;
    this.loop = loop;
    this.rt = rt;
    this.scope = scope;
    this.items = items;
  }

  step(): Waiting | undefined {
    const { rt, items } = this;
    const { node, statements, kinds } = this.loop;
    let next = this.next;
    let statement = this.statement;
    let inner = this.inner;
    for (;;) {
      if (inner === null) {
        if (next >= items.length) {
          this.spare?.end();
          return undefined;
        }
        rt.tick(node);
        const index = next++;
        const item = items.at(index);
        if (this.spare === null) inner = this.spare = Scope.ofItem(this.scope, this.loop.variable, item, index);
        else inner = this.spare.reset(this.loop.variable, item, index);
        statement = 0;
      }
      while (statement < statements.length) {
        if (kinds[statement] !== NO_HEAVY) {
          rt.enterStatement(kinds[statement] === QUIET, this.again);
          this.again = false;
          // Where to run it again from, should a heavy built-in suspend it (suspended() below):
          // saved here, so that the loop needs no try of its own.
          this.next = next;
          this.statement = statement;
          this.inner = inner;
        }
        const waiting = statements[statement++]!(rt, inner);
        if (waiting !== undefined) {
          this.next = next;
          this.statement = statement;
          this.inner = inner;
          return waiting;
        }
      }
      inner = null;
      if (rt.yieldDue) {
        this.next = next;
        this.inner = null;
        return rt.yieldTurn();
      }
    }
  }

  /** A statement of the body was suspended (step() saved where it was): it runs again once the call has finished. */
  suspended(suspension: Suspension): Waiting {
    this.again = true;
    return this.rt.finishSuspended(suspension);
  }

  resume(): void {
    let waiting: Waiting | undefined;
    try {
      waiting = this.step();
    } catch (error) {
      if (!(error instanceof Suspension)) return this.rejectWith(error);
      waiting = this.suspended(error);
    }
    if (waiting === undefined) this.resolveWith(undefined);
    else follow(waiting, this);
  }

  fail(error: unknown): void {
    this.rejectWith(error);
  }
}
