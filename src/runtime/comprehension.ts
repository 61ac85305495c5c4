// List comprehensions, compiled (LANGUAGE.md §8): `[element FOR x IN list IF condition]`.
//
// The list is evaluated once and must be a list; then each item, in order, is one element: a step
// of the run (maxSteps, as a FOR iteration), a scope of its own binding `x` to the item (so `x`
// never leaks and never changes an outer `x`) and holding the item's index (the call identity of a
// CALL inside, script-call.ts), the condition (a boolean, no truthiness), and the element's value.
// The values are collected in item order, within the run's value limits as they come in, so a
// comprehension that builds big values stops at the limit instead of first filling the memory.
//
// A comprehension is a loop, so it gives the event loop a turn when the run's time slice is spent,
// as a FOR loop does between iterations (waiting.ts): it is compiled on the path that may wait.
// It runs synchronously, element after element, and makes a promise only when it must wait (for a
// tool that answers later, or for that turn). Without a CALL, one scope serves every element in turn
// (nothing can keep it: only a tool's context could).
//
// Which element runs when is decided by one of two routines: `evaluateElementsInOrder` (each element
// after the one before has finished) for elements that call no tool, and, for elements that can,
// `evaluateElementsConcurrently` (concurrent-elements.ts: their calls overlap, DURABLE.md §4). Both
// evaluate an element with `element(index)` in its own scope (`scopeFor`) and keep the values in
// item order.
import type * as A from '../syntax/ast.js';
import { NuwaError, type Position } from '../errors.js';
import { intern } from '../util/intern.js';
import { checkTotals, describe, NuwaList, NuwaObject, type Value, type ValueLimits } from '../values/values.js';
import type { ScriptRun } from './script-run.js';
import { evaluatePart, type Compiled } from './compiled.js';
import { Scope, type ConcurrentElement } from './scope.js';
import { evaluateElementsConcurrently } from './concurrent-elements.js';

/** A comprehension, compiled: what each evaluation of it needs. */
export interface CompiledComprehension {
  readonly node: A.ComprehensionExpression;
  /** The variable, interned. */
  readonly variable: string;
  readonly element: Compiled;
  readonly condition: Compiled | null;
  /**
   * Whether an element can call a tool: then each element has a scope of its own (elements may run
   * concurrently), which ends with the element.
   */
  readonly calls: boolean;
}

/** What an element yields when its condition leaves its item out. */
export const SKIPPED: unique symbol = Symbol('skipped');
export type ElementValue = Value | typeof SKIPPED;

/** `compile` compiles the parts (the evaluator's compileExpression). */
export function compileComprehension(node: A.ComprehensionExpression, compile: (node: A.Expression) => Compiled): Compiled {
  const list = compile(node.iterable);
  const comprehension: CompiledComprehension = {
    node,
    variable: intern(node.variable),
    element: compile(node.element),
    condition: node.condition === null ? null : compile(node.condition),
    calls: node.element.hasCall || (node.condition !== null && node.condition.hasCall),
  };
  const over = (items: Value, rt: ScriptRun, scope: Scope): Value | Promise<Value> => {
    if (!(items instanceof NuwaList)) throw iterableError(items, node);
    const elements = new ElementsRun(comprehension, rt, scope, items);
    // Elements that can call a tool run concurrently (DURABLE.md §4); the others one after another,
    // and all of them when the run makes one call at a time (maxConcurrentCalls 1).
    const waiting = comprehension.calls && items.length > 1 && rt.slots.size > 1 ? evaluateElementsConcurrently(elements) : evaluateElementsInOrder(elements);
    return waiting === undefined ? elements.results.list() : waiting.then(() => elements.results.list());
  };
  return {
    sync: null,
    async: (rt, scope) => {
      const items = evaluatePart(list, rt, scope);
      return items instanceof Promise ? items.then((settled) => over(settled, rt, scope)) : over(items, rt, scope);
    },
  };
}

/** One evaluation of a comprehension over its list: its elements, and the values collected so far. */
export class ElementsRun {
  readonly results: Results;
  /** Without CALL: the scope of the element before, which the next one reuses. */
  private spare: Scope | null = null;

  constructor(
    readonly comprehension: CompiledComprehension,
    readonly rt: ScriptRun,
    /** The scope the comprehension stands in. */
    readonly scope: Scope,
    readonly items: NuwaList,
  ) {
    this.results = new Results(rt.valueLimits, comprehension.node);
  }

  /**
   * The scope of the element for `items[index]`: a child of the comprehension's scope binding the
   * variable to the item, at its index. Without CALL it is the previous element's scope, emptied:
   * the element before must be finished (and nothing else can keep a scope but a tool's context).
   */
  scopeFor(index: number): Scope {
    const { comprehension, items } = this;
    if (comprehension.calls || this.spare === null) {
      const scope = Scope.ofItem(this.scope, comprehension.variable, items.at(index), index);
      if (!comprehension.calls) this.spare = scope;
      return scope;
    }
    return this.spare.reset(comprehension.variable, items.at(index), index);
  }

  /**
   * Evaluates the element for `items[index]`, one step of the run: its condition, then (if it
   * holds) its value; SKIPPED when the condition leaves the item out. A promise when a part had to
   * wait (a tool answering later, or a nested comprehension giving a turn).
   */
  element(index: number, concurrent: ConcurrentElement | null = null): ElementValue | Promise<ElementValue> {
    this.rt.tick(this.comprehension.node);
    const inner = this.scopeFor(index);
    inner.element = concurrent;
    const value = this.valueIn(inner);
    // An element's own scope (one that can call a tool) ends with it, so that the contexts of its
    // calls refuse the variables they no longer see (scope.ts).
    if (!this.comprehension.calls) return value;
    if (!(value instanceof Promise)) {
      inner.end();
      return value;
    }
    return value.then((settled) => {
      inner.end();
      return settled;
    });
  }

  /** The element's condition, then (if it holds) its value, in the element's scope `inner`. */
  private valueIn(inner: Scope): ElementValue | Promise<ElementValue> {
    const { rt, comprehension } = this;
    const { node, element, condition } = comprehension;
    if (condition === null) return evaluatePart(element, rt, inner);
    const test = evaluatePart(condition, rt, inner);
    if (test instanceof Promise) return test.then((settled) => (holds(settled, node) ? evaluatePart(element, rt, inner) : SKIPPED));
    return holds(test, node) ? evaluatePart(element, rt, inner) : SKIPPED;
  }

  /** Adds an element's value to the results (the caller keeps item order). */
  keep(value: ElementValue): void {
    if (value !== SKIPPED) this.results.add(value);
  }
}

/**
 * Evaluates the elements in order, each one finished before the next begins, and keeps their
 * values: synchronously while no element waits and the time slice lasts; from the first wait on, in
 * an async continuation, which gives the event loop a turn whenever the time slice is spent. The
 * seam for concurrent calls: the one place that decides when each element runs.
 */
export function evaluateElementsInOrder(run: ElementsRun): Promise<void> | undefined {
  const { items, rt } = run;
  for (let index = 0; index < items.length; index++) {
    const value = run.element(index);
    if (value instanceof Promise) return continueInOrder(run, index + 1, value);
    run.keep(value);
    if (rt.yieldDue && index + 1 < items.length) return continueInOrder(run, index + 1, undefined);
  }
  return undefined;
}

/** The rest of evaluateElementsInOrder once it had to wait: `pending` is the value of the element before `from`. */
async function continueInOrder(run: ElementsRun, from: number, pending: Promise<ElementValue> | undefined): Promise<void> {
  const { items, rt } = run;
  if (pending !== undefined) run.keep(await pending);
  for (let index = from; index < items.length; index++) {
    if (rt.yieldDue) await rt.yieldTurn();
    const value = run.element(index);
    run.keep(value instanceof Promise ? await value : value);
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
