// Variable scopes (LANGUAGE.md §3). The top level is one scope; every FOR iteration gets a fresh
// child scope holding the loop variable; IF bodies share their enclosing scope. LET updates the
// nearest existing binding, or creates one in the current scope.
//
// A loop body usually binds a handful of names, so a scope keeps them in two small arrays and
// only moves to a Map past SMALL_SCOPE names.
//
// The variables in scope are, together, one value within the run's limits (maxValueSize,
// maxStringLength), at every LET as at the end of the run, when they are returned to the host:
// otherwise a thousand LETs of a big list would hold a thousand big lists. Each scope keeps the
// totals of its own variables; a LET that would take the scopes in reach past a limit is refused.
// The loop variable is not counted: it is an item of the list being looped over.
import { charsIn, checkTotals, itemsIn, type Value, type ValueLimits } from '../values/values.js';

const SMALL_SCOPE = 8;

export class Scope {
  // The loop variable has its own slot: an iteration that binds nothing else allocates nothing but
  // the scope itself.
  private readonly loopName: string | null;
  private loopValue: Value;
  private loopCounted = false;
  private names: string[] | null = null;
  private values: Value[] | null = null;
  private map: Map<string, Value> | null = null;
  /** Items and characters of this scope's own variables, expanded. */
  private items = 0;
  private chars = 0;

  constructor(
    readonly parent: Scope | null,
    loopName: string | null = null,
    loopValue: Value = null,
  ) {
    this.loopName = loopName;
    this.loopValue = loopValue;
  }

  /** The value bound to `name` here or in an enclosing scope; undefined when unbound. */
  lookup(name: string): Value | undefined {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      const own = scope.get(name);
      if (own !== undefined) return own;
    }
    return undefined;
  }

  /**
   * LET semantics: update the nearest binding, else bind in this scope. With `limits`, refuses
   * (LimitExceededError) a value that would take the variables in reach past them.
   */
  assign(name: string, value: Value, limits?: ValueLimits): void {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      if (scope.replace(name, value, this, limits)) return;
    }
    this.admit(this, undefined, value, limits);
    this.bind(name, value);
  }

  /** Accounts `value` replacing `old` in this scope's totals, after checking the limits from `from` up. */
  private admit(from: Scope, old: Value | undefined, value: Value, limits: ValueLimits | undefined): void {
    const items = itemsIn(value) - (old === undefined ? 0 : itemsIn(old));
    const chars = charsIn(value) - (old === undefined ? 0 : charsIn(old));
    if (items === 0 && chars === 0) return; // most LETs: a number replacing a number
    if (limits !== undefined && (items > 0 || chars > 0)) {
      let totalItems = items;
      let totalChars = chars;
      for (let scope: Scope | null = from; scope !== null; scope = scope.parent) {
        totalItems += scope.items;
        totalChars += scope.chars;
      }
      if (totalItems > limits.maxValueSize || totalChars > limits.maxStringLength) checkTotals(totalItems, totalChars, 0, limits, "the script's variables together");
    }
    this.items += items;
    this.chars += chars;
  }

  private get(name: string): Value | undefined {
    if (this.loopName === name) return this.loopValue;
    if (this.map !== null) return this.map.get(name);
    const names = this.names;
    if (names === null) return undefined;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return this.values![i];
    return undefined;
  }

  private replace(name: string, value: Value, from: Scope, limits: ValueLimits | undefined): boolean {
    if (this.loopName === name) {
      // Reassigned, the loop variable holds a value of its own, no longer an item of the list.
      this.admit(from, this.loopCounted ? this.loopValue : undefined, value, limits);
      this.loopCounted = true;
      this.loopValue = value;
      return true;
    }
    if (this.map !== null) {
      const old = this.map.get(name);
      if (old === undefined) return false;
      this.admit(from, old, value, limits);
      this.map.set(name, value);
      return true;
    }
    const names = this.names;
    if (names === null) return false;
    for (let i = 0; i < names.length; i++) {
      if (names[i] === name) {
        this.admit(from, this.values![i]!, value, limits);
        this.values![i] = value;
        return true;
      }
    }
    return false;
  }

  private bind(name: string, value: Value): void {
    if (this.map !== null) {
      this.map.set(name, value);
    } else if (this.names === null) {
      this.names = [name];
      this.values = [value];
    } else if (this.names.length < SMALL_SCOPE) {
      this.names.push(name);
      this.values!.push(value);
    } else {
      this.map = new Map(this.names.map((n, i) => [n, this.values![i]!]));
      this.map.set(name, value);
      this.names = this.values = null;
    }
  }

  /** Every name visible from here, nearest first (for "did you mean" suggestions). */
  visibleNames(): string[] {
    const names = new Set<string>();
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      for (const [name] of scope.entries()) names.add(name);
    }
    return [...names];
  }

  /** This scope's own bindings, in creation order. */
  entries(): Array<[string, Value]> {
    const out: Array<[string, Value]> = this.loopName === null ? [] : [[this.loopName, this.loopValue]];
    if (this.map !== null) out.push(...this.map);
    else if (this.names !== null) for (let i = 0; i < this.names.length; i++) out.push([this.names[i]!, this.values![i]!]);
    return out;
  }
}
