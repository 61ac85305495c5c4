// Which expressions may have to wait, beyond those that can reach a CALL (the parser's `hasCall`):
// those that contain a list comprehension.
//
// A comprehension is a loop. A run gives the host's event loop a turn at least every time slice,
// so that timeouts, the host's AbortSignal and Ctrl-C take effect within about 50 ms (TOOLS.md §7);
// a FOR loop does so between iterations, and so must a comprehension between elements. So a
// comprehension, and every expression around it up to its statement, is compiled on the path that
// may return a promise, as for a CALL. The comprehension itself still runs synchronously, element
// after element, until its time slice is spent: it makes a promise only when it gives a turn.
import type * as A from '../syntax/ast.js';
import { childrenOf } from '../syntax/ast.js';
import { mayHoldComprehensions } from '../syntax/parse.js';

const waiting = new WeakSet<A.Node>();
const surveyed = new WeakSet<A.Program>();

/**
 * Marks every node of `program` that contains a list comprehension (the comprehension included).
 * Iterative, in one walk: a program may nest a thousand levels and chain thousands of operators.
 * A program in which parse() found no comprehension is not walked at all.
 */
export function markWaiting(program: A.Program): void {
  if (surveyed.has(program) || !mayHoldComprehensions(program)) return;
  surveyed.add(program);
  const path: A.Node[] = [];
  const pending: Array<readonly A.Node[]> = [];
  const next: number[] = [];
  path.push(program);
  pending.push(childrenOf(program));
  next.push(0);
  while (path.length > 0) {
    const top = path.length - 1;
    const children = pending[top]!;
    if (next[top]! >= children.length) {
      path.pop();
      pending.pop();
      next.pop();
      continue;
    }
    const child = children[next[top]!++]!;
    if (child.type === 'Comprehension') {
      // The path to it waits, up to the first node already known to (an earlier comprehension's).
      for (let i = top; i >= 0 && !waiting.has(path[i]!); i--) waiting.add(path[i]!);
      waiting.add(child);
    }
    if (child.type === 'Literal' || child.type === 'Variable') continue;
    path.push(child);
    pending.push(childrenOf(child));
    next.push(0);
  }
}

/** Whether `node` may have to wait: it can reach a CALL, or contains a comprehension (markWaiting). */
export function mayWait(node: A.Node): boolean {
  return node.hasCall || waiting.has(node);
}
