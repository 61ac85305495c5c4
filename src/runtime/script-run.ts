// The run of a script: a Run (tools/run.ts: limits, output, cancellation, approval, events) that
// also keeps what the evaluator needs to suspend a statement whose heavy built-in outlasts the time
// slice and run it again (suspend.ts). The Interpreter makes one per script run; function calling
// evaluates no script and uses a plain Run.
import { Run } from '../tools/run.js';
import { MAX_SUSPENSIONS, Replay, type SuspendHost, type Suspension } from './suspend.js';

/** The NOW() times one suspendable statement keeps; beyond them it is not suspended any more. */
const MAX_TIMES_KEPT = 1024;

/**
 * Where the statement that may be suspended began, and what a run of it again must see the same:
 * made at the first statement that calls a heavy built-in (most runs have none).
 */
class StatementMarks {
  /** Results of heavy calls for the statement being run again after a suspension. */
  replay: Replay | undefined = undefined;
  quiet = false;
  outputMark = 0;
  stepsMark = 0;
  /** NOW() as the statement that may be suspended saw it: run again, it sees the same times. Made at the first. */
  nowSeen: number[] | null = null;
  nowNext = 0;
}

export class ScriptRun extends Run implements SuspendHost {
  private marks: StatementMarks | null = null;

  /** Results of heavy calls for the statement being run again after a suspension. */
  get replay(): Replay | undefined {
    return this.marks?.replay;
  }

  /**
   * A block's runner is about to run a statement: whether it may be suspended (`quiet`: no CALL),
   * and whether it is the statement a suspension is running again (whose remembered results, and
   * times, then stay).
   */
  enterStatement(quiet: boolean, again: boolean): void {
    const marks = (this.marks ??= new StatementMarks());
    marks.quiet = quiet;
    marks.outputMark = this.printed;
    marks.stepsMark = this.steps;
    marks.nowNext = 0;
    if (!again) {
      if (marks.nowSeen !== null) marks.nowSeen.length = 0;
      if (marks.replay !== undefined) marks.replay = undefined;
    }
  }

  /**
   * The time, as Run gives it (a durable run records each value, and replays them in order). In a
   * statement that may be suspended, the times it saw are kept, and given again in the same order
   * when it is run again: the script sees one NOW() per call it wrote, and a durable run records
   * one value for each, however often the statement was suspended.
   */
  override now(): number {
    const marks = this.marks;
    if (marks === null || !marks.quiet) return super.now();
    const seen = (marks.nowSeen ??= []);
    if (marks.nowNext < seen.length) return seen[marks.nowNext++]!;
    const time = super.now();
    if (seen.length < MAX_TIMES_KEPT) {
      seen.push(time);
      marks.nowNext++;
    } else {
      // A loop calling NOW() inside one statement: rather than keep every time, the statement is
      // no longer suspended (its heavy calls run to their end, the deadline still seen).
      marks.quiet = false;
    }
    return time;
  }

  maySuspend(): boolean {
    const marks = this.marks;
    return marks !== null && marks.quiet && this.printed === marks.outputMark && (marks.replay === undefined || marks.replay.suspensions < MAX_SUSPENSIONS);
  }

  /**
   * Finishes a suspended built-in call a time slice at a time, with a turn of the event loop before
   * each (where a timeout or a cancellation stops the run), and remembers its result for the
   * statement, which its runner then runs again. The statement's steps are counted once.
   */
  async finishSuspended(suspension: Suspension): Promise<void> {
    const marks = this.marks!; // a suspension is thrown only where maySuspend() said yes
    this.steps = marks.stepsMark;
    const { steps } = suspension;
    for (;;) {
      await this.yieldTurn();
      let step = steps.next();
      while (!step.done && !this.yieldDue) step = steps.next();
      if (step.done) {
        const replay = (marks.replay ??= new Replay());
        replay.suspensions++;
        replay.remember(suspension.node, suspension.args, step.value);
        return;
      }
    }
  }
}
