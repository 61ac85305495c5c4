// What the checker knows of the variables at a point of the script (LANGUAGE.md §3). Each IF
// branch and FOR body gets a layer over the one it started from, holding only what it changes, so
// a branch costs what it assigns, not the number of variables in scope; where branches meet, their
// changes are joined back into the layer they started from.
import { join, type Shape } from './shapes.js';

/** Bound on every path ('yes') or only on some ('maybe'); an absent name is unbound. */
export interface Binding {
  readonly bound: 'yes' | 'maybe';
  readonly shape: Shape;
}

export class Bindings {
  private readonly own = new Map<string, Binding>();

  constructor(private readonly parent: Bindings | null = null) {}

  get(name: string): Binding | undefined {
    for (let layer: Bindings | null = this; layer !== null; layer = layer.parent) {
      const binding = layer.own.get(name);
      if (binding !== undefined) return binding;
    }
    return undefined;
  }

  set(name: string, binding: Binding): void {
    this.own.set(name, binding);
  }

  /** A layer for a branch or a loop body, starting from what is known here. */
  child(): Bindings {
    return new Bindings(this);
  }

  /** The names this layer set (its own changes). */
  changed(): IterableIterator<string> {
    return this.own.keys();
  }

  /** Every name bound here on some path (for "did you mean"). */
  names(): Set<string> {
    const names = new Set<string>();
    for (let layer: Bindings | null = this; layer !== null; layer = layer.parent) for (const name of layer.own.keys()) names.add(name);
    return names;
  }

  /** Takes in what the given branches (children of this layer) know where they meet. */
  merge(branches: readonly Bindings[]): void {
    if (branches.length === 1) {
      for (const [name, binding] of branches[0]!.own) this.own.set(name, binding);
      return;
    }
    const [a, b] = branches as [Bindings, Bindings];
    for (const name of new Set([...a.own.keys(), ...b.own.keys()])) this.own.set(name, joinBinding(a.get(name), b.get(name)));
  }
}

function joinBinding(x: Binding | undefined, y: Binding | undefined): Binding {
  if (x === undefined) return maybe(y!);
  if (y === undefined) return maybe(x);
  if (x === y) return x;
  return { bound: x.bound === 'yes' && y.bound === 'yes' ? 'yes' : 'maybe', shape: join(x.shape, y.shape) };
}

function maybe(binding: Binding): Binding {
  return binding.bound === 'maybe' ? binding : { bound: 'maybe', shape: binding.shape };
}
