// Expressions back to Nuwa Script text, for the code a message suggests. A suggestion is built from
// the tree, not copied from the source: where a repair already put a piece right (`f.name.lower()`
// is LOWER(f.name) in the tree), the suggestion shows the corrected piece, never the mistake it
// replaces. Parentheses appear where precedence needs them, and only there.
import type * as A from './ast.js';
import { isStandIn } from './nodes.js';

/** Suggestions stay short: a longer expression is named by the caller's fallback instead. */
export const PRINT_LIMIT = 80;

// Binding strength, loosest first (LANGUAGE.md §4); a postfix or a primary binds tightest.
const BINARY_LEVEL: Record<string, number> = { OR: 1, AND: 2, '==': 4, '!=': 4, '<': 5, '<=': 5, '>': 5, '>=': 5, '+': 6, '-': 6, '*': 7, '/': 7, '%': 7 };
const PRIMARY = 10;

/** The text of `node`, or undefined when it holds a stand-in or would be longer than `limit`. */
export function printExpression(node: A.Expression, limit = PRINT_LIMIT): string | undefined {
  const budget = { left: limit };
  try {
    return print(node, budget, 0);
  } catch (error) {
    if (error === TOO_LONG) return undefined;
    throw error;
  }
}

/** `printExpression`, or `fallback` when the expression cannot be shown. */
export function printOr(node: A.Expression, fallback: string, limit = PRINT_LIMIT): string {
  return printExpression(node, limit) ?? fallback;
}

const TOO_LONG = new Error('too long');

function spend(budget: { left: number }, text: string): string {
  budget.left -= text.length;
  if (budget.left < 0) throw TOO_LONG;
  return text;
}

/** A string literal as Nuwa writes it (JSON's escapes are Nuwa's). */
export function quote(text: string): string {
  return JSON.stringify(text);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function key(name: string): string {
  return NAME.test(name) ? name : quote(name);
}

function level(node: A.Expression): number {
  if (node.type === 'Binary' || node.type === 'Logical') return BINARY_LEVEL[node.operator]!;
  if (node.type === 'Unary') return node.operator === 'NOT' ? 3 : 8;
  return PRIMARY;
}

function print(node: A.Expression, budget: { left: number }, depth: number): string {
  if (depth > 20 || isStandIn(node)) throw TOO_LONG;
  const inner = (child: A.Expression) => print(child, budget, depth + 1);
  /** A child that must bind at least as tightly as `min`, in parentheses otherwise. */
  const operand = (child: A.Expression, min: number) => (level(child) >= min ? inner(child) : `(${inner(child)})`);
  switch (node.type) {
    case 'Literal':
      return spend(budget, typeof node.value === 'string' ? quote(node.value) : String(node.value));
    case 'Variable':
      return spend(budget, node.name);
    case 'Member':
      return `${operand(node.object, PRIMARY)}${spend(budget, `.${node.property}`)}`;
    case 'Index':
      return `${operand(node.object, PRIMARY)}[${inner(node.index)}]`;
    case 'Unary': {
      const own = level(node);
      return `${spend(budget, node.operator === 'NOT' ? 'NOT ' : node.operator)}${operand(node.operand, own)}`;
    }
    case 'Binary':
    case 'Logical': {
      const own = BINARY_LEVEL[node.operator]!;
      // Left-associative: the right operand needs parentheses at the same level.
      return `${operand(node.left, own)} ${spend(budget, node.operator)} ${operand(node.right, own + 1)}`;
    }
    case 'List':
      return `[${node.elements.map(inner).join(spend(budget, ', '))}]`;
    case 'Comprehension': {
      const condition = node.condition ? ` IF ${inner(node.condition)}` : '';
      return `[${inner(node.element)} FOR ${spend(budget, node.variable)} IN ${inner(node.iterable)}${condition}]`;
    }
    case 'Object':
      return node.properties.length === 0 ? spend(budget, '{}') : `{ ${node.properties.map((p) => `${spend(budget, key(p.key))}: ${inner(p.value)}`).join(', ')} }`;
    case 'FunctionCall':
      return `${spend(budget, node.name)}(${node.arguments.map(inner).join(', ')})`;
    case 'Call':
      return `CALL ${spend(budget, node.tool)} ${inner(node.arguments)}`;
    case 'Calc':
      return `CALC ${inner(node.arguments)}`;
  }
}
