// The operators of LANGUAGE.md §4 on values. Each is chosen once per AST node at compile time, so
// the evaluator calls the right one directly instead of switching on the operator at run time.
import type { BinaryExpression, IndexExpression, LogicalExpression, MemberExpression, UnaryExpression } from '../syntax/ast.js';
import { NuwaError, type Position } from '../errors.js';
import { didYouMean } from '../util/suggest.js';
import { memberHint } from './hints.js';
import { concatenationHint, mixedComparisonHint, negativeIndexHint } from './advice.js';
import { describe, equals, formatKeys, NuwaList, NuwaObject, typeName, type Value, type ValueLimits } from '../values/values.js';

/** `limits` bounds the walks `==` and `!=` make over big values (and lets them watch the clock). */
export type BinaryOperation = (left: Value, right: Value, at: Position, limits?: ValueLimits) => Value;
export type UnaryOperation = (operand: Value, at: Position) => Value;

function typeError(message: string, at: Position): NuwaError {
  return new NuwaError('TypeError', message, at);
}

function finite(result: number, operator: string, at: Position): number {
  if (Number.isFinite(result)) return result;
  throw typeError(`the result of \`${operator}\` is too large to be a number (overflow)`, at);
}

function needNumbers(operator: string, left: Value, right: Value, at: Position): never {
  if (operator === '+' && (typeof left === 'string' || typeof right === 'string')) {
    const hint = concatenationHint(at as BinaryExpression);
    throw typeError(`\`+\` adds numbers; it cannot join ${describe(left)} and ${describe(right)}${hint}`, at);
  }
  throw typeError(`\`${operator}\` needs two numbers, got ${describe(left)} and ${describe(right)}`, at);
}

function divisionByZero(operator: string, at: Position): NuwaError {
  return new NuwaError('DivisionByZeroError', `\`${operator}\` by zero: check the divisor before dividing`, at);
}

function ordering(operator: string, test: (order: number) => boolean): BinaryOperation {
  return (left, right, at) => {
    if (typeof left === 'number' && typeof right === 'number') return test(left < right ? -1 : left > right ? 1 : 0);
    if (typeof left === 'string' && typeof right === 'string') return test(left < right ? -1 : left > right ? 1 : 0);
    const node = (at as Partial<BinaryExpression>).type === 'Binary' ? (at as BinaryExpression) : undefined;
    let hint = '';
    if (typeof left === 'string' && typeof right === 'number') hint = mixedComparisonHint(left, right, node, true);
    else if (typeof left === 'number' && typeof right === 'string') hint = mixedComparisonHint(right, left, node, false);
    throw typeError(`\`${operator}\` compares two numbers or two strings, got ${describe(left)} and ${describe(right)}${hint}`, at);
  };
}

export const BINARY_OPERATIONS: Record<BinaryExpression['operator'], BinaryOperation> = {
  '+': (l, r, at) => (typeof l === 'number' && typeof r === 'number' ? finite(l + r, '+', at) : needNumbers('+', l, r, at)),
  '-': (l, r, at) => (typeof l === 'number' && typeof r === 'number' ? finite(l - r, '-', at) : needNumbers('-', l, r, at)),
  '*': (l, r, at) => (typeof l === 'number' && typeof r === 'number' ? finite(l * r, '*', at) : needNumbers('*', l, r, at)),
  '/': (l, r, at) => {
    if (typeof l !== 'number' || typeof r !== 'number') return needNumbers('/', l, r, at);
    if (r === 0) throw divisionByZero('/', at);
    return finite(l / r, '/', at);
  },
  '%': (l, r, at) => {
    if (typeof l !== 'number' || typeof r !== 'number') return needNumbers('%', l, r, at);
    if (r === 0) throw divisionByZero('%', at);
    return l % r;
  },
  '==': (l, r, _at, limits) => equals(l, r, limits),
  '!=': (l, r, _at, limits) => !equals(l, r, limits),
  '<': ordering('<', (o) => o < 0),
  '<=': ordering('<=', (o) => o <= 0),
  '>': ordering('>', (o) => o > 0),
  '>=': ordering('>=', (o) => o >= 0),
};

export const UNARY_OPERATIONS: Record<UnaryExpression['operator'], UnaryOperation> = {
  '-': (v, at) => {
    if (typeof v === 'number') return v === 0 ? 0 : -v;
    throw typeError(`unary \`-\` needs a number, got ${describe(v)}`, at);
  },
  '+': (v, at) => {
    if (typeof v === 'number') return v;
    throw typeError(`unary \`+\` needs a number, got ${describe(v)}`, at);
  },
  NOT: (v, at) => {
    if (typeof v === 'boolean') return !v;
    throw typeError(`NOT needs a boolean, got ${describe(v)}${typeName(v) === 'null' ? '' : ': compare explicitly, e.g. NOT (x == 0)'}`, at);
  },
};

/** AND / OR operands must be booleans (no truthiness). */
export function logicalOperand(value: Value, operator: 'AND' | 'OR', side: 'left' | 'right', at: Position): boolean {
  if (typeof value === 'boolean') return value;
  throw typeError(`the ${side} side of ${operator} must be a boolean, got ${describe(value)}: compare explicitly, e.g. x != null`, at);
}

/**
 * Short-circuit: the result of `left AND/OR ...` when the left side alone decides it (false for AND,
 * true for OR), or undefined when the right side must be evaluated.
 */
export function decidedByLeft(left: Value, node: LogicalExpression): boolean | undefined {
  const decisive = node.operator === 'OR';
  return logicalOperand(left, node.operator, 'left', node) === decisive ? decisive : undefined;
}

// --- member access and indexing (LANGUAGE.md §4) --------------------------------------------

/** `object.key`, where `key` is node.property (interned by the caller, for a quicker lookup). */
export function member(object: Value, node: MemberExpression, key: string = node.property): Value {
  if (object instanceof NuwaObject) {
    const value = object.get(key);
    if (value !== undefined) return value;
    const keys = keysForMessage(object);
    throw new NuwaError(
      'MemberAccessError',
      `the object has no key "${node.property}"${didYouMean(node.property, keys)} (its keys: ${keys.length ? formatKeys(keys, 8, object.size) : 'none'})`,
      node,
    );
  }
  const hint = memberHint(node.property, node.object, typeof object === 'string' ? 'string' : object instanceof NuwaList ? 'list' : undefined);
  throw new NuwaError('MemberAccessError', `\`.${node.property}\` needs an object, got ${describe(object)}${hint}`, node);
}

export function indexInto(target: Value, index: Value, node: IndexExpression): Value {
  if (target instanceof NuwaList) {
    if (typeof index !== 'number' || !Number.isInteger(index)) {
      throw new NuwaError('TypeError', `a list index must be a whole number, got ${describe(index)}`, node);
    }
    if (index < 0 || index >= target.length) {
      const range = target.length === 0 ? 'the list is empty' : `valid indexes are 0 to ${target.length - 1}`;
      const negative = index < 0 ? `; ${negativeIndexHint(node, index)}` : '';
      throw new NuwaError('IndexOutOfBoundsError', `index ${index} is outside the list: ${range}${negative}`, node);
    }
    return target.at(index);
  }
  if (target instanceof NuwaObject) {
    if (typeof index !== 'string') throw new NuwaError('TypeError', `an object is indexed by a string key, got ${describe(index)}`, node);
    const value = target.get(index);
    if (value !== undefined) return value;
    const keys = keysForMessage(target);
    throw new NuwaError('MemberAccessError', `the object has no key "${index}"${didYouMean(index, keys)} (its keys: ${keys.length ? formatKeys(keys, 8, target.size) : 'none'})`, node);
  }
  throw new NuwaError('TypeError', `only lists and objects can be indexed, got ${describe(target)}`, node);
}

/** The keys a "did you mean" looks among: all of them for an ordinary object, the first few thousand of a huge one. */
function keysForMessage(object: NuwaObject): string[] {
  const keys: string[] = [];
  for (const key of object.keys()) {
    if (keys.length === 5000) break;
    keys.push(key);
  }
  return keys;
}
