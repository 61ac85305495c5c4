// Variable scopes (LANGUAGE.md §3). The top level is one scope; every FOR iteration gets a fresh
// child scope holding the loop variable; IF bodies share their enclosing scope. LET updates the
// nearest existing binding, or creates one in the current scope.
import type { Value } from './values.js';

export class Scope {
  // The loop variable lives in its own slot so an iteration that creates no other variable (the
  // common case) allocates no Map.
  private readonly loopName: string | null;
  private loopValue: Value;
  private vars: Map<string, Value> | null = null;

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
      if (scope.loopName === name) return scope.loopValue;
      if (scope.vars !== null) {
        const value = scope.vars.get(name);
        if (value !== undefined) return value;
      }
    }
    return undefined;
  }

  /** LET semantics: update the nearest binding, else bind in this scope. */
  assign(name: string, value: Value): void {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      if (scope.loopName === name) {
        scope.loopValue = value;
        return;
      }
      if (scope.vars !== null && scope.vars.has(name)) {
        scope.vars.set(name, value);
        return;
      }
    }
    (this.vars ??= new Map()).set(name, value);
  }

  /** Every name visible from here, nearest first (for "did you mean" suggestions). */
  visibleNames(): string[] {
    const names = new Set<string>();
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) {
      if (scope.loopName !== null) names.add(scope.loopName);
      if (scope.vars !== null) for (const name of scope.vars.keys()) names.add(name);
    }
    return [...names];
  }

  /** This scope's own bindings, in creation order. */
  entries(): Array<[string, Value]> {
    const out: Array<[string, Value]> = [];
    if (this.loopName !== null) out.push([this.loopName, this.loopValue]);
    if (this.vars !== null) out.push(...this.vars);
    return out;
  }
}
