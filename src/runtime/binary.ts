// Binary operators compiled for speed: one closure per operator, with the common case — two numbers,
// or a number and a literal — inline, and everything else (other types, errors, overflow) left to
// the operations of operators.ts, which decide every case and word every error. A closure per
// operator, instead of one that calls a table entry, is what lets the engine inline the arithmetic:
// in a loop like `LET sum = sum + x * 2 - 1` this halves the cost of the expression.
import type * as A from '../syntax/ast.js';
import { equals, type Value } from '../values/values.js';
import { BINARY_OPERATIONS } from './operators.js';
import type { ScriptRun } from './script-run.js';
import type { Scope } from './scope.js';

type SyncEval = (rt: ScriptRun, scope: Scope) => Value;

/** `left <operator> right`, both synchronous. */
export function compileBinary(node: A.BinaryExpression, left: SyncEval, right: SyncEval): SyncEval {
  const constant = node.right.type === 'Literal' ? node.right.value : undefined;
  if (typeof constant === 'number') return withNumber(node, left, constant);
  const slow = BINARY_OPERATIONS[node.operator];
  switch (node.operator) {
    case '+':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        if (typeof l === 'number' && typeof r === 'number') {
          const result = l + r;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, r, node);
      };
    case '-':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        if (typeof l === 'number' && typeof r === 'number') {
          const result = l - r;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, r, node);
      };
    case '*':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        if (typeof l === 'number' && typeof r === 'number') {
          const result = l * r;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, r, node);
      };
    case '<':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        return typeof l === 'number' && typeof r === 'number' ? l < r : slow(l, r, node);
      };
    case '<=':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        return typeof l === 'number' && typeof r === 'number' ? l <= r : slow(l, r, node);
      };
    case '>':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        return typeof l === 'number' && typeof r === 'number' ? l > r : slow(l, r, node);
      };
    case '>=':
      return (rt, scope) => {
        const l = left(rt, scope);
        const r = right(rt, scope);
        return typeof l === 'number' && typeof r === 'number' ? l >= r : slow(l, r, node);
      };
    case '==':
      // Equality walks values (watching the clock as it goes): scalars are equal only when identical.
      if (constant !== undefined) return (rt, scope) => left(rt, scope) === constant;
      return (rt, scope) => equals(left(rt, scope), right(rt, scope), rt.valueLimits);
    case '!=':
      if (constant !== undefined) return (rt, scope) => left(rt, scope) !== constant;
      return (rt, scope) => !equals(left(rt, scope), right(rt, scope), rt.valueLimits);
    default:
      return (rt, scope) => slow(left(rt, scope), right(rt, scope), node);
  }
}

/** `left <operator> k` for a number literal k: the common `x * 2`, `n + 1`, `i % 2 == 0`, `x > 10`. */
function withNumber(node: A.BinaryExpression, left: SyncEval, k: number): SyncEval {
  const slow = BINARY_OPERATIONS[node.operator];
  switch (node.operator) {
    case '+':
      return (rt, scope) => {
        const l = left(rt, scope);
        if (typeof l === 'number') {
          const result = l + k;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, k, node);
      };
    case '-':
      return (rt, scope) => {
        const l = left(rt, scope);
        if (typeof l === 'number') {
          const result = l - k;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, k, node);
      };
    case '*':
      return (rt, scope) => {
        const l = left(rt, scope);
        if (typeof l === 'number') {
          const result = l * k;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, k, node);
      };
    case '/':
      if (k === 0) break;
      return (rt, scope) => {
        const l = left(rt, scope);
        if (typeof l === 'number') {
          const result = l / k;
          if (Number.isFinite(result)) return result;
        }
        return slow(l, k, node);
      };
    case '%':
      if (k === 0) break;
      return (rt, scope) => {
        const l = left(rt, scope);
        return typeof l === 'number' ? l % k : slow(l, k, node);
      };
    case '<':
      return (rt, scope) => {
        const l = left(rt, scope);
        return typeof l === 'number' ? l < k : slow(l, k, node);
      };
    case '<=':
      return (rt, scope) => {
        const l = left(rt, scope);
        return typeof l === 'number' ? l <= k : slow(l, k, node);
      };
    case '>':
      return (rt, scope) => {
        const l = left(rt, scope);
        return typeof l === 'number' ? l > k : slow(l, k, node);
      };
    case '>=':
      return (rt, scope) => {
        const l = left(rt, scope);
        return typeof l === 'number' ? l >= k : slow(l, k, node);
      };
    case '==':
      return (rt, scope) => left(rt, scope) === k;
    case '!=':
      return (rt, scope) => left(rt, scope) !== k;
  }
  return (rt, scope) => slow(left(rt, scope), k, node);
}
