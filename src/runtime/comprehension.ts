// List comprehensions, compiled (LANGUAGE.md §8): `[element FOR x IN list IF condition]`.
//
// The list is evaluated once and must be a list; then each item, in order, is one element: a step
// of the run (maxSteps, as a FOR iteration), a scope of its own binding `x` to the item (so `x`
// never leaks and never changes an outer `x`) and holding the item's index (the call identity of a
// CALL inside, script-call.ts), the condition (a boolean, no truthiness), and the element's value.
// The values are collected in item order, within the run's value limits as they come in, so a
// comprehension that builds big values stops at the limit instead of first filling the memory.
//
// As everywhere in the evaluator, a comprehension from which no CALL is reachable compiles to a
// synchronous closure, and one scope serves every element in turn (nothing can keep it: only a
// tool's context could). One with a CALL gets a fresh scope per element, made by `elementScope`,
// and its elements are evaluated by `evaluateElementsInOrder`, one after the other, each awaited
// before the next starts: the one routine that runs a comprehension's elements, which concurrent
// calls (DURABLE.md §4) replace.
import type * as A from '../syntax/ast.js';
import { NuwaError, type Position } from '../errors.js';
import { intern } from '../util/intern.js';
import { checkTotals, describe, NuwaList, NuwaObject, type Value, type ValueLimits } from '../values/values.js';
import type { Run } from '../tools/run.js';
import { evaluatePart, type Compiled } from './compiled.js';
import { Scope } from './scope.js';

/** A comprehension compiled with a CALL reachable: what each of its runs needs. */
export interface CompiledComprehension {
  readonly node: A.ComprehensionExpression;
  /** The loop variable, interned. */
  readonly variable: string;
  readonly element: Compiled;
  readonly condition: Compiled | null;
}

/** `compile` compiles the parts (the evaluator's compileExpression). */
export function compileComprehension(node: A.ComprehensionExpression, compile: (node: A.Expression) => Compiled): Compiled {
  const iterable = compile(node.iterable);
  const element = compile(node.element);
  const condition = node.condition === null ? null : compile(node.condition);
  const variable = intern(node.variable);
  if (!node.hasCall) return { sync: compileSyncComprehension(node, variable, iterable, element, condition), async: null };

  const comprehension: CompiledComprehension = { node, variable, element, condition };
  const list = iterable;
  return {
    sync: null,
    async: async (rt, scope) => {
      let items = evaluatePart(list, rt, scope);
      if (items instanceof Promise) items = await items;
      if (!(items instanceof NuwaList)) throw iterableError(items, node);
      const results = new Results(rt.valueLimits, node);
      await evaluateElementsInOrder(comprehension, rt, scope, items, results);
      return results.list();
    },
  };
}

function compileSyncComprehension(node: A.ComprehensionExpression, variable: string, iterable: Compiled, element: Compiled, condition: Compiled | null) {
  const list = iterable.sync!;
  const value = element.sync!;
  const test = condition?.sync ?? null;
  return (rt: Run, scope: Scope): Value => {
    const items = list(rt, scope);
    if (!(items instanceof NuwaList)) throw iterableError(items, node);
    const results = new Results(rt.valueLimits, node);
    let inner: Scope | null = null;
    for (let index = 0; index < items.length; index++) {
      rt.tick(node);
      const item = items.at(index);
      inner = inner === null ? Scope.ofItem(scope, variable, item, index) : inner.reset(item, index);
      if (test !== null && !holds(test(rt, inner), node)) continue;
      results.add(value(rt, inner));
    }
    return results.list();
  };
}

/** The scope of the element for `items[index]`: a fresh child of `scope` binding the variable to the item. */
export function elementScope(comprehension: CompiledComprehension, scope: Scope, items: NuwaList, index: number): Scope {
  return Scope.ofItem(scope, comprehension.variable, items.at(index), index);
}

/**
 * Evaluates the elements of a comprehension over `items`, in order, each one finished (its CALLs
 * answered) before the next begins, and adds each kept value to `results` in item order. Each
 * element is one step of the run, and gives the event loop a turn when the run's time slice is
 * spent. The seam for concurrent calls: a routine that starts several elements at once replaces
 * this one, keeping the scope of each (elementScope) and the order of `results`.
 */
export async function evaluateElementsInOrder(comprehension: CompiledComprehension, rt: Run, scope: Scope, items: NuwaList, results: Results): Promise<void> {
  const { node, element, condition } = comprehension;
  for (let index = 0; index < items.length; index++) {
    rt.tick(node);
    const inner = elementScope(comprehension, scope, items, index);
    if (condition !== null) {
      let test = evaluatePart(condition, rt, inner);
      if (test instanceof Promise) test = await test;
      if (!holds(test, node)) continue;
    }
    let value = evaluatePart(element, rt, inner);
    if (value instanceof Promise) value = await value;
    results.add(value);
    if (rt.yieldDue) await rt.yieldTurn();
  }
}

/**
 * The values of a comprehension's elements as they come in, in item order: their totals are kept
 * and checked against the value limits at every one, so the list is refused as soon as it is too
 * big, as APPEND would refuse it.
 */
export class Results {
  private readonly items: Value[] = [];
  private total = 0;
  private chars = 0;
  private depth = 0;

  constructor(
    private readonly limits: ValueLimits,
    private readonly at: Position,
  ) {}

  add(value: Value): void {
    this.items.push(value);
    this.total++;
    if (typeof value === 'string') this.chars += value.length;
    else if (typeof value === 'object' && value !== null) {
      this.total += value.totalItems;
      this.chars += value.totalChars;
      if (value.depth > this.depth) this.depth = value.depth;
    }
    if (this.total > this.limits.maxValueSize || this.chars > this.limits.maxStringLength) checkTotals(this.total, this.chars, this.depth + 1, this.limits, 'the list', this.at);
  }

  /** The list of the values added. */
  list(): NuwaList {
    return NuwaList.from(this.items, this.limits, this.at);
  }
}

/** A comprehension's condition: true or false, no truthiness. */
function holds(value: Value, node: A.ComprehensionExpression): boolean {
  if (value === true) return true;
  if (value === false) return false;
  throw new NuwaError(
    'InvalidConditionError',
    `the IF condition of a list comprehension must be true or false, got ${describe(value)}: compare explicitly, e.g. [x FOR x IN xs IF x != null]`,
    node.condition!,
  );
}

function iterableError(value: Value, node: A.ComprehensionExpression): NuwaError {
  const hint = value instanceof NuwaObject ? `: to go over an object's keys, write [... FOR key IN KEYS(obj)]` : '';
  return new NuwaError('InvalidIterableError', `a list comprehension needs a list to go over (FOR ${node.variable} IN list), got ${describe(value)}${hint}`, node.iterable);
}
