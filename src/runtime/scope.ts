// Variable scopes (LANGUAGE.md §3). The top level is one scope; every FOR iteration gets a fresh
// child scope holding the loop variable; IF bodies share their enclosing scope. LET updates the
// nearest existing binding, or creates one in the current scope.
//
// A loop body usually binds a handful of names, so a scope keeps them in two small arrays and
// only moves to a Map past SMALL_SCOPE names.
import type { Value } from '../values/values.js';

const SMALL_SCOPE = 8;

export class Scope {
  // The loop variable has its own slot: an iteration that binds nothing else allocates nothing but
  // the scope itself.
  private readonly loopName: string | null;
  private loopValue: Value;
  private names: string[] | null = null;
  private values: Value[] | null = null;
  private map: Map<string, Value> | null = null;

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

  /** LET semantics: update the nearest binding, else bind in this scope. */
  assign(name: string, value: Value): void {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      if (scope.replace(name, value)) return;
    }
    this.bind(name, value);
  }

  private get(name: string): Value | undefined {
    if (this.loopName === name) return this.loopValue;
    if (this.map !== null) return this.map.get(name);
    const names = this.names;
    if (names === null) return undefined;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return this.values![i];
    return undefined;
  }

  private replace(name: string, value: Value): boolean {
    if (this.loopName === name) {
      this.loopValue = value;
      return true;
    }
    if (this.map !== null) {
      if (!this.map.has(name)) return false;
      this.map.set(name, value);
      return true;
    }
    const names = this.names;
    if (names === null) return false;
    for (let i = 0; i < names.length; i++) {
      if (names[i] === name) {
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
