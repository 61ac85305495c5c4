// Variable scopes (LANGUAGE.md §3). The top level is one scope; every FOR iteration and every
// element of a list comprehension gets a fresh child scope holding the loop variable and the
// 0-based index of its item; IF bodies share their enclosing scope. LET updates the nearest
// existing binding, or creates one in the current scope.
//
// "Fresh" is what a script sees: a FOR loop keeps one scope object for all its iterations, emptied
// and given the next item at each (reset), and a comprehension whose elements run one after another
// without CALL does the same. A host may have thousands of runs waiting in loops of CALLs, and a
// scope per iteration held across every call's wait was a tenth of what each call keeps. What could
// still see a scope after its iteration, a tool's context (getVar, setVar), knows the item its CALL
// was made at: once the scope holds another item, or has ended (end()), that iteration is over and
// the context refuses (script-call.ts, ScriptCallSite.ended).
//
// The item indexes along a scope's chain are where a CALL stands in the run, beyond its place in
// the text: a call's identity (DURABLE.md §1) is its position and these indexes, outermost first
// (script-call.ts, callIdOf).
//
// A loop body usually binds a handful of names, so a scope keeps the first in two fields of its own
// (an iteration that binds one name allocates nothing but the scope), the next ones in one small
// array of name, value, name, value..., and moves them all to a Map past SMALL_SCOPE names.
//
// The variables in scope are, together, one value within the run's limits (maxValueSize,
// maxStringLength), at every LET as at the end of the run, when they are returned to the host:
// otherwise a thousand LETs of a big list would hold a thousand big lists. Each scope keeps the
// totals of its own variables; a LET that would take the scopes in reach past a limit is refused.
// The loop variable is not counted: it is an item of the list being looped over.
import { charsIn, checkTotals, itemsIn, type Value, type ValueLimits } from '../values/values.js';

/**
 * One element of a list comprehension whose elements run concurrently (comprehension.ts): what a
 * CALL inside it needs to keep the rules of DURABLE.md §4.
 */
export interface ConcurrentElement {
  /** Aborted when an element before this one failed: its calls stop. */
  readonly signal: AbortSignal;
  /**
   * Resolves once every element before this one has finished, in this comprehension and in every
   * comprehension around it: a write or an approval waits for it, and so does the element's work
   * after each of its calls, which keeps that work (NOW(), PRINT) in element order.
   */
  turn(): Promise<void>;
}

const SMALL_SCOPE = 8;

/** The item index of a loop scope whose loop (or element) is over: no item's (see end()). */
const ENDED = -2;

/** Whether a value counts toward the totals at all (numbers, booleans and null do not). */
function weighs(value: Value): boolean {
  return typeof value === 'string' || (typeof value === 'object' && value !== null);
}

/**
 * The totals of a scope's own variables, kept by the top scope of a run and by a scope past
 * SMALL_SCOPE names (a Map). A smaller scope (a loop iteration's) adds its few up when asked:
 * an object of totals for every iteration that binds a list, an object or a string would be one
 * more object per iteration, and a host may have thousands of runs in loops of CALLs.
 */
interface Weight {
  items: number;
  chars: number;
  /** On the top scope of a run: the limits its variables, and those of every scope below, keep to. */
  limits?: ValueLimits;
  /**
   * In the scope of an element of a comprehension whose elements run concurrently: that element.
   * (Kept here, by the few scopes that have one, rather than in a field of every scope.)
   */
  element?: ConcurrentElement;
  /** Past SMALL_SCOPE names: every name of the scope (its first included), in order. */
  map?: Map<string, Value>;
}

export class Scope {
  // A scope is made per loop iteration, so its fields are set in the constructor (`declare`d, not
  // class fields: V8 runs class field initializers as a separate function). The loop variable has
  // its own slot: an iteration that binds nothing else allocates nothing but the scope itself.
  declare readonly parent: Scope | null;
  private declare loopName: string | null;
  private declare loopValue: Value;
  /** The first of the scope's own names (null when it has none, or keeps them in a Map). */
  private declare firstName: string | null;
  private declare firstValue: Value;
  /**
   * The names after the first, as name, value, name, value... (up to SMALL_SCOPE names in all); past
   * that, null, and every name is in the Map its weight keeps.
   */
  private declare rest: Array<string | Value> | null;
  /** The totals of this scope's own variables: on the top scope, and once the names are in a Map. */
  private declare weight: Weight | null;
  /**
   * In the scope of a FOR iteration or of a comprehension's element: the 0-based index of its item
   * in the list; -1 in any other scope.
   */
  declare itemIndex: number;

  constructor(parent: Scope | null, loopName: string | null = null, loopValue: Value = null, limits?: ValueLimits, itemIndex = -1) {
    this.parent = parent;
    this.loopName = loopName;
    this.loopValue = loopValue;
    this.firstName = null;
    this.firstValue = null;
    this.rest = null;
    this.weight = limits === undefined ? null : { items: 0, chars: 0, limits };
    this.itemIndex = itemIndex;
  }

  /** In the scope of an element of a comprehension whose elements run concurrently: that element. */
  get element(): ConcurrentElement | null {
    return this.weight?.element ?? null;
  }

  /**
   * Set on a scope with no variables of its own yet (a new or reset element's): the totals it then
   * keeps start from nothing.
   */
  set element(element: ConcurrentElement | null) {
    if (element !== null) (this.weight ??= { items: 0, chars: 0 }).element = element;
    else if (this.weight?.element !== undefined) this.weight.element = undefined;
  }

  /** The element of a concurrent comprehension this scope is in, if any (the nearest one). */
  nearestElement(): ConcurrentElement | null {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) if (scope.element !== null) return scope.element;
    return null;
  }

  /** The scope of one FOR iteration or comprehension element: `name` bound to the item at `index`. */
  static ofItem(parent: Scope, name: string, item: Value, index: number): Scope {
    return new Scope(parent, name, item, undefined, index);
  }

  /**
   * This loop scope, emptied and given the next item (at `index`): what a fresh scope for the next
   * iteration would be. The iteration before is over: the contexts of its calls see that their item
   * is no longer this scope's.
   */
  reset(loopName: string, loopValue: Value, index: number): this {
    this.loopName = loopName; // cleared if the last iteration assigned to it
    this.loopValue = loopValue;
    this.itemIndex = index;
    this.firstName = null;
    this.firstValue = null;
    this.rest = null;
    this.weight = null;
    return this;
  }

  /**
   * The loop or element this scope served is over: the contexts of the calls made in it see that
   * their item is no longer this scope's (and nothing looks for its index on a call's path again).
   */
  end(): void {
    this.itemIndex = ENDED;
  }

  /** The item indexes of the FOR iterations and comprehension elements this scope is in, outermost first. */
  itemPath(): number[] {
    const path: number[] = [];
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) if (scope.itemIndex >= 0) path.push(scope.itemIndex);
    return path.reverse();
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
   * LET semantics: update the nearest binding, else bind in this scope. Refuses
   * (LimitExceededError) a value that would take the variables in reach past the top scope's limits.
   */
  assign(name: string, value: Value): void {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      if (scope.replace(name, value, this)) return;
    }
    if (weighs(value)) this.admit(this, undefined, value);
    this.bind(name, value);
  }

  /** Accounts `value` replacing `old` in this scope's totals, after checking the limits from `from` up. */
  private admit(from: Scope, old: Value | undefined, value: Value): void {
    const items = itemsIn(value) - (old === undefined ? 0 : itemsIn(old));
    const chars = charsIn(value) - (old === undefined ? 0 : charsIn(old));
    if (items === 0 && chars === 0) return;
    if (items > 0 || chars > 0) {
      let totalItems = items;
      let totalChars = chars;
      let limits: ValueLimits | undefined;
      for (let scope: Scope | null = from; scope !== null; scope = scope.parent) {
        const weight = scope.weight;
        if (weight === null) {
          // A small scope (no Map): its few values added up now.
          if (scope.firstName !== null) {
            totalItems += itemsIn(scope.firstValue);
            totalChars += charsIn(scope.firstValue);
          }
          const pairs = scope.rest;
          if (pairs !== null) {
            for (let i = 1; i < pairs.length; i += 2) {
              totalItems += itemsIn(pairs[i] as Value);
              totalChars += charsIn(pairs[i] as Value);
            }
          }
          continue;
        }
        totalItems += weight.items;
        totalChars += weight.chars;
        if (weight.limits !== undefined) limits = weight.limits;
      }
      if (limits !== undefined && (totalItems > limits.maxValueSize || totalChars > limits.maxStringLength)) {
        checkTotals(totalItems, totalChars, 0, limits, "the script's variables together");
      }
    }
    const weight = this.weight;
    if (weight !== null) {
      weight.items += items;
      weight.chars += chars;
    }
  }

  private get(name: string): Value | undefined {
    if (this.loopName === name) return this.loopValue;
    if (this.firstName === name) return this.firstValue;
    const rest = this.rest;
    if (rest !== null) {
      for (let i = 0; i < rest.length; i += 2) if (rest[i] === name) return rest[i + 1] as Value;
      return undefined;
    }
    return this.weight?.map?.get(name);
  }

  private replace(name: string, value: Value, from: Scope): boolean {
    if (this.loopName === name) {
      // Reassigned, the loop variable holds a value of its own, no longer an item of the list: from
      // now on it is one of the scope's variables like any other, counted with them (first, as it was).
      this.admit(from, undefined, value);
      this.loopName = null;
      this.loopValue = null;
      this.bindFirst(name, value);
      return true;
    }
    if (this.firstName === name) {
      const old = this.firstValue;
      if (weighs(old) || weighs(value)) this.admit(from, old, value);
      this.firstValue = value;
      return true;
    }
    const rest = this.rest;
    if (rest !== null) {
      for (let i = 0; i < rest.length; i += 2) {
        if (rest[i] === name) {
          const old = rest[i + 1] as Value;
          if (weighs(old) || weighs(value)) this.admit(from, old, value);
          rest[i + 1] = value;
          return true;
        }
      }
      return false;
    }
    const map = this.weight?.map;
    if (map === undefined) return false;
    const old = map.get(name);
    if (old === undefined) return false;
    if (weighs(old) || weighs(value)) this.admit(from, old, value);
    map.set(name, value);
    return true;
  }

  private bind(name: string, value: Value): void {
    const map = this.weight?.map;
    if (map !== undefined) {
      map.set(name, value);
    } else if (this.firstName === null) {
      this.firstName = name; // no Map, so no other name either
      this.firstValue = value;
    } else if (this.rest === null) {
      this.rest = [name, value];
    } else if (this.rest.length < 2 * (SMALL_SCOPE - 1)) {
      this.rest.push(name, value);
    } else {
      this.toMap().set(name, value);
    }
  }

  /** A reassigned loop variable's binding, first among the scope's own (where entries() showed it). */
  private bindFirst(name: string, value: Value): void {
    const map = this.weight?.map;
    if (map !== undefined) {
      const others = [...map];
      map.clear();
      map.set(name, value);
      for (const [key, item] of others) map.set(key, item);
      return;
    }
    if (this.firstName !== null) {
      // The first name moves to the front of the others.
      if (this.rest === null) this.rest = [this.firstName, this.firstValue];
      else this.rest.unshift(this.firstName, this.firstValue);
    }
    this.firstName = name;
    this.firstValue = value;
    if (this.rest !== null && this.rest.length > 2 * (SMALL_SCOPE - 1)) this.toMap();
  }

  /** Past SMALL_SCOPE names: every name moves to a Map, and the scope keeps its totals from then on. */
  private toMap(): Map<string, Value> {
    const map = new Map<string, Value>();
    const weight: Weight = this.weight ?? { items: 0, chars: 0 };
    const countAll = this.weight === null;
    const add = (name: string, value: Value) => {
      map.set(name, value);
      if (countAll) {
        weight.items += itemsIn(value);
        weight.chars += charsIn(value);
      }
    };
    if (this.firstName !== null) add(this.firstName, this.firstValue);
    const pairs = this.rest;
    if (pairs !== null) for (let i = 0; i < pairs.length; i += 2) add(pairs[i] as string, pairs[i + 1] as Value);
    this.firstName = null;
    this.firstValue = null;
    this.rest = null;
    weight.map = map;
    this.weight = weight;
    return map;
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
    if (this.firstName !== null) out.push([this.firstName, this.firstValue]);
    const rest = this.rest;
    if (rest !== null) for (let i = 0; i < rest.length; i += 2) out.push([rest[i] as string, rest[i + 1] as Value]);
    else if (this.weight?.map !== undefined) out.push(...this.weight.map);
    return out;
  }
}
