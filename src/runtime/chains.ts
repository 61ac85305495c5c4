// Long operator chains, compiled as loops.
//
// Binary operators are left-associative and postfix operators chain to the left, so `a + b + c + ...`
// or `x.a.b.c...` is a tree that leans left, as deep as the chain is long. Compiled as nested
// closures, a chain of thousands would recurse thousands of frames deep, at compile time and at
// run time. Past SPINE_THRESHOLD links the evaluator compiles the chain here, as a loop over its
// links; shorter chains keep the nested closures, which are faster.
import type * as A from '../syntax/ast.js';
import { evaluatePart, type Compiled } from './compiled.js';
import { BINARY_OPERATIONS, decidedByLeft, indexInto, logicalOperand, member } from './operators.js';
import type { Value } from '../values/values.js';
import type { ScriptRun } from './script-run.js';

const SPINE_THRESHOLD = 64;

export type SpineNode = A.BinaryExpression | A.LogicalExpression | A.MemberExpression | A.IndexExpression;

function spineChild(node: A.Expression): A.Expression | undefined {
  switch (node.type) {
    case 'Binary':
    case 'Logical':
      return node.left;
    case 'Member':
    case 'Index':
      return node.object;
    default:
      return undefined;
  }
}

export function isLongSpine(node: A.Expression): boolean {
  let length = 0;
  for (let next = spineChild(node); next !== undefined; next = spineChild(next)) {
    if (++length >= SPINE_THRESHOLD) return true;
  }
  return false;
}

interface SpineLink {
  node: SpineNode;
  /** The right operand or the index; null for `.name`. */
  operand: Compiled | null;
}

/** `compile` compiles the chain's operands (the evaluator's compileExpression). */
export function compileSpine(top: SpineNode, compile: (node: A.Expression) => Compiled): Compiled {
  const links: SpineLink[] = [];
  let base: A.Expression = top;
  for (let next = spineChild(base); next !== undefined; next = spineChild(base)) {
    const node = base as SpineNode;
    const operand = node.type === 'Binary' || node.type === 'Logical' ? node.right : node.type === 'Index' ? node.index : null;
    links.push({ node, operand: operand === null ? null : compile(operand) });
    base = next;
  }
  links.reverse(); // innermost (first applied) first
  const start = compile(base);
  // Synchronous when every part is (no CALL, no comprehension in the chain).
  if (start.sync !== null && links.every((link) => link.operand === null || link.operand.sync !== null)) {
    const first = start.sync!;
    return {
      sync: (rt, scope) => {
        let value = first(rt, scope);
        for (let i = 0; i < links.length; i++) {
          const { node, operand } = links[i]!;
          if (node.type === 'Logical') {
            value = decidedByLeft(value, node) ?? logicalOperand(operand!.sync!(rt, scope), node.operator, 'right', node);
          } else {
            value = applyLink(node, value, operand === null ? null : operand.sync!(rt, scope), rt);
          }
        }
        return value;
      },
      async: null,
    };
  }
  return {
    sync: null,
    async: async (rt, scope) => {
      let value = start.async ? await start.async(rt, scope) : start.sync!(rt, scope);
      for (let i = 0; i < links.length; i++) {
        const { node, operand } = links[i]!;
        if (node.type === 'Logical') {
          value = decidedByLeft(value, node) ?? logicalOperand(await evaluatePart(operand!, rt, scope), node.operator, 'right', node);
        } else {
          value = applyLink(node, value, operand === null ? null : await evaluatePart(operand, rt, scope), rt);
        }
      }
      return value;
    },
  };
}

function applyLink(node: Exclude<SpineNode, A.LogicalExpression>, value: Value, operand: Value, rt: ScriptRun): Value {
  switch (node.type) {
    case 'Binary':
      return BINARY_OPERATIONS[node.operator](value, operand, node, rt.valueLimits);
    case 'Member':
      return member(value, node);
    case 'Index':
      return indexInto(value, operand, node);
  }
}
