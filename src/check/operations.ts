// The operators of LANGUAGE.md §4 on shapes. When both operands are known values, the runtime's
// own operation computes the result (or the exact error the run would raise); otherwise the types
// decide: an operation is an error only when no value of the operands' shapes could succeed.
import type * as A from '../syntax/ast.js';
import { NuwaError, type ErrorKind } from '../errors.js';
import { BINARY_OPERATIONS, indexInto, member, UNARY_OPERATIONS } from '../runtime/operators.js';
import { concatenationHint, mixedComparisonHint, negativeIndexHint } from '../runtime/advice.js';
import { memberHint } from '../runtime/hints.js';
import type { Value } from '../values/values.js';
import {
  ANY, BOOLEAN, constant, describeTypes, elementShape, LIST, memberShape, never, NUMBER, OBJECT, ofTypes, only, schemaForbidsKey, STRING,
  type Shape,
} from './shapes.js';

export interface Finding {
  kind: ErrorKind;
  message: string;
}

/** The shape of an operation's result, and the error it certainly raises, if any. */
export interface Outcome {
  shape: Shape;
  error?: Finding;
}

/** Runs the runtime's operation on known values: its result, or the error the run would raise. */
function fold(operation: () => Value): Outcome {
  try {
    return { shape: constant(operation()) };
  } catch (error) {
    if (error instanceof NuwaError) return { shape: ANY, error: { kind: error.kind, message: error.message } };
    return { shape: ANY };
  }
}

function typeError(message: string): Outcome {
  return { shape: ANY, error: { kind: 'TypeError', message } };
}

/** "`p` is always a number (the declared result of `get_price`)". */
export function always(subject: string, shape: Shape): string {
  return `${subject} is always ${describeTypes(shape.types)}${shape.source ? ` (${shape.source})` : ''}`;
}

const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const ORDERING = new Set(['<', '<=', '>', '>=']);

export function binary(node: A.BinaryExpression, left: Shape, right: Shape): Outcome {
  const { operator } = node;
  if (left.value !== undefined && right.value !== undefined) return fold(() => BINARY_OPERATIONS[operator](left.value!, right.value!, node));
  if (ARITHMETIC.has(operator)) {
    const bad = never(left, NUMBER) ? ['left', left] as const : never(right, NUMBER) ? ['right', right] as const : null;
    if (bad !== null) {
      const joinsText = operator === '+' && (only(left, STRING) || only(right, STRING));
      return typeError(
        joinsText
          ? `\`+\` adds numbers and cannot join strings (${always(`its ${bad[0]} side`, bad[1])})${concatenationHint(node)}`
          : `\`${operator}\` needs two numbers, but ${always(`its ${bad[0]} side`, bad[1])}`,
      );
    }
    // A known zero divisor fails whatever the dividend: with the runtime's own message.
    if ((operator === '/' || operator === '%') && right.value === 0) return fold(() => BINARY_OPERATIONS[operator](1, 0, node));
    return { shape: ofTypes(NUMBER) };
  }
  if (ORDERING.has(operator) && (left.types & right.types & (NUMBER | STRING)) === 0) {
    const text = (shape: Shape) => (typeof shape.value === 'string' ? shape.value : undefined);
    const number = (shape: Shape) => (typeof shape.value === 'number' ? shape.value : undefined);
    const convert =
      only(left, STRING) && only(right, NUMBER)
        ? mixedComparisonHint(text(left), number(right), node, true)
        : only(left, NUMBER) && only(right, STRING)
          ? mixedComparisonHint(text(right), number(left), node, false)
          : '';
    return typeError(
      `\`${operator}\` compares two numbers or two strings, but here it compares ${describeTypes(left.types)} with ${describeTypes(right.types)}${convert}`,
    );
  }
  return { shape: ofTypes(BOOLEAN) };
}

export function unary(node: A.UnaryExpression, operand: Shape): Outcome {
  const { operator } = node;
  if (operand.value !== undefined) return fold(() => UNARY_OPERATIONS[operator](operand.value!, node));
  if (operator === 'NOT') {
    if (never(operand, BOOLEAN)) return typeError(`NOT needs a boolean, but ${always('its operand', operand)}: compare explicitly, e.g. NOT (x == 0)`);
    return { shape: ofTypes(BOOLEAN) };
  }
  if (never(operand, NUMBER)) return typeError(`unary \`${operator}\` needs a number, but ${always('its operand', operand)}`);
  return { shape: ofTypes(NUMBER) };
}

/** `AND` / `OR` take booleans only: the finding when a side can never be one. */
export function logicalSide(operator: 'AND' | 'OR', side: 'left' | 'right', shape: Shape): Finding | undefined {
  if (!never(shape, BOOLEAN)) return undefined;
  return { kind: 'TypeError', message: `the ${side} side of ${operator} must be a boolean, but ${always('it', shape)}: compare explicitly, e.g. x != null` };
}

export function memberOf(node: A.MemberExpression, object: Shape, subject: string): Outcome {
  if (object.value !== undefined) return fold(() => member(object.value!, node));
  if (never(object, OBJECT)) {
    const hint = memberHint(node.property, node.object, only(object, LIST) ? 'list' : only(object, STRING) ? 'string' : undefined);
    return { shape: ANY, error: { kind: 'MemberAccessError', message: `\`.${node.property}\` needs an object, but ${always(subject, object)}${hint}` } };
  }
  if (schemaForbidsKey(object, node.property)) {
    const keys = Object.keys(object.schema!.properties as object);
    return {
      shape: ANY,
      error: {
        kind: 'MemberAccessError',
        message: `${subject} has no key "${node.property}": ${object.source ?? 'its declared schema'} allows only ${keys.length ? keys.join(', ') : 'no keys'}`,
      },
    };
  }
  return { shape: memberShape(object, node.property) };
}

export function indexOf(node: A.IndexExpression, target: Shape, index: Shape, subject: string): Outcome {
  if (target.value !== undefined && index.value !== undefined) return fold(() => indexInto(target.value!, index.value!, node));
  // `xs[-1]` fails whatever xs is: out of a list's range, and no key of an object.
  if (typeof index.value === 'number' && index.value < 0 && Number.isInteger(index.value)) {
    return { shape: ANY, error: { kind: (target.types & LIST) !== 0 ? 'IndexOutOfBoundsError' : 'TypeError', message: `index ${index.value} is outside any list: ${negativeIndexHint(node, index.value)}` } };
  }
  const listWorks = (target.types & LIST) !== 0 && !never(index, NUMBER);
  const objectWorks = (target.types & OBJECT) !== 0 && !never(index, STRING);
  if (!listWorks && !objectWorks) {
    if (never(target, LIST | OBJECT)) return typeError(`only lists and objects can be indexed, but ${always(subject, target)}`);
    if (only(target, LIST)) return typeError(`a list index must be a whole number, but ${always('this index', index)}`);
    if (only(target, OBJECT)) return typeError(`an object is indexed by a string key, but ${always('this index', index)}`);
    return typeError(`${subject} is a list or an object, and ${always('this index', index)}: neither can be indexed by it`);
  }
  return { shape: only(target, LIST) ? elementShape(target) : ANY };
}
