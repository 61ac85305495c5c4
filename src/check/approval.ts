// Whole-plan approval at run time (API.md `approvedPlan`): the calls a person approved by seeing
// the plan, counted down per tool as the script makes them. A call the plan does not cover (another
// tool, one more than the plan allowed, a tool called by a tool) asks the approve hook as usual.
import { NuwaError } from '../errors.js';
import type { Program } from '../syntax/ast.js';
import type { Plan } from './check.js';
import { programHash } from './hash.js';

/** What `run` needs of an approved plan (a Plan from `plan()`, possibly through JSON). */
export type ApprovedPlan = Pick<Plan, 'scriptHash' | 'calls'>;

export class PlanBudget {
  private constructor(private readonly remaining: Map<string, number>) {}

  /**
   * The budget of `plan` for running `program`. A malformed plan, or one made for another script,
   * is the host's mistake: a NuwaError of kind TypeError, like a bad `variables` option, raised
   * before anything runs.
   */
  static of(plan: unknown, program: Program): PlanBudget {
    const candidate = plan as Partial<ApprovedPlan> | null;
    if (candidate === null || typeof candidate !== 'object' || typeof candidate.scriptHash !== 'string' || !Array.isArray(candidate.calls)) {
      throw new NuwaError('TypeError', 'approvedPlan must be a plan made by plan() or interpreter.plan() for this script');
    }
    if (candidate.scriptHash !== programHash(program)) {
      throw new NuwaError('TypeError', 'approvedPlan was made for another script: make the plan from the script you run, show it, and approve that');
    }
    const remaining = new Map<string, number>();
    for (const call of candidate.calls) {
      const maxCount = (call as { maxCount?: unknown } | null)?.maxCount;
      const tool = (call as { tool?: unknown } | null)?.tool;
      if (typeof tool !== 'string' || !(maxCount === null || (typeof maxCount === 'number' && maxCount >= 0))) {
        throw new NuwaError('TypeError', 'approvedPlan.calls must list { tool, maxCount } as plan() made them');
      }
      remaining.set(tool, (remaining.get(tool) ?? 0) + (maxCount === null ? Infinity : maxCount));
    }
    return new PlanBudget(remaining);
  }

  /** Uses one approved call of `tool`; false when the plan has none left for it. */
  take(tool: string): boolean {
    const left = this.remaining.get(tool);
    if (left === undefined || left < 1) return false;
    this.remaining.set(tool, left - 1);
    return true;
  }
}
