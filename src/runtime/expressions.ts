// Expressions compiled to closures (evaluator.ts explains the scheme): a synchronous closure for
// a node that cannot reach a CALL or a list comprehension, an async one for the path to one, which
// stays synchronous until an operand must actually wait.
import type * as A from '../syntax/ast.js';
import { NuwaError } from '../errors.js';
import { undefinedVariableMessage } from './hints.js';
import { BUILTINS } from './builtins.js';
import { evaluateCalc } from './calc.js';
import { compileBinary } from './binary.js';
import { compileSpine, isLongSpine, type SpineNode } from './chains.js';
import { compileToolCall } from './calls.js';
import { compileComprehension } from './comprehension.js';
import { mayWait } from './waiting.js';
import { BINARY_OPERATIONS, decidedByLeft, indexInto, logicalOperand, member, UNARY_OPERATIONS } from './operators.js';
import type { ScriptRun } from './script-run.js';
import type { Scope } from './scope.js';
import { evaluatePart, type AsyncEval, type Compiled, type SyncEval } from './compiled.js';
import { NuwaList, NuwaObject, type Value } from '../values/values.js';
import { intern } from '../util/intern.js';
import { callBuiltin, callBuiltinWaiting } from './builtin-calls.js';

/** The program being compiled: error messages look at it to explain a missing name (hints.ts). */
let compiling: A.Program | undefined;

/** Compiles with `program` as the one error messages look at (hints.ts). */
export function compilingIn<T>(program: A.Program, compile: () => T): T {
  compiling = program;
  try {
    return compile();
  } finally {
    compiling = undefined;
  }
}

/** Array.map without its builtin frame: compiling nests as deep as the script, so frames count. */
export function mapEach<T, R>(items: readonly T[], fn: (item: T) => R): R[] {
  const out: R[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) out[i] = fn(items[i]!);
  return out;
}

export function compileExpression(node: A.Expression): Compiled {
  return mayWait(node) ? { sync: null, async: compileAsync(node) } : { sync: compileSync(node), async: null };
}

export function compileSync(node: A.Expression): SyncEval {
  if (isLongSpine(node)) return compileSpine(node as SpineNode, compileExpression).sync!;
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      return () => value;
    }
    case 'Variable':
      return compileVariable(node);
    case 'List': {
      const shared = sharedList(node);
      if (shared !== undefined) return shared;
      const elements = mapEach(node.elements, compileSync);
      return (rt, scope) => {
        const out: Value[] = new Array(elements.length);
        for (let i = 0; i < elements.length; i++) out[i] = elements[i]!(rt, scope);
        return NuwaList.from(out, rt.valueLimits, node);
      };
    }
    case 'Object': {
      const keys = node.properties.map((p) => intern(p.key));
      const values = mapEach(node.properties, (p) => compileSync(p.value));
      if (new Set(keys).size === keys.length) {
        // Each key once (most literals): the entries go straight into an array of their size.
        return (rt, scope) => {
          const slots: Array<string | Value> = new Array(2 * keys.length);
          for (let i = 0; i < keys.length; i++) {
            slots[2 * i] = keys[i]!;
            slots[2 * i + 1] = values[i]!(rt, scope);
          }
          return NuwaObject.ofSlots(slots).seal(rt.valueLimits, node);
        };
      }
      return (rt, scope) => {
        const out = new NuwaObject();
        for (let i = 0; i < keys.length; i++) out.set(keys[i]!, values[i]!(rt, scope));
        return out.seal(rt.valueLimits, node);
      };
    }
    case 'Binary':
      return compileBinary(node, compileSync(node.left), compileSync(node.right));
    case 'Logical': {
      const left = compileSync(node.left);
      const right = compileSync(node.right);
      return (rt, scope) => decidedByLeft(left(rt, scope), node) ?? logicalOperand(right(rt, scope), node.operator, 'right', node);
    }
    case 'Unary': {
      const operation = UNARY_OPERATIONS[node.operator];
      const operand = compileSync(node.operand);
      return (rt, scope) => operation(operand(rt, scope), node);
    }
    case 'Member': {
      const object = compileSync(node.object);
      const key = intern(node.property);
      return (rt, scope) => member(object(rt, scope), node, key);
    }
    case 'Index': {
      const object = compileSync(node.object);
      const index = compileSync(node.index);
      return (rt, scope) => indexInto(object(rt, scope), index(rt, scope), node);
    }
    case 'Calc': {
      const args = compileSync(node.arguments);
      return (rt, scope) => evaluateCalc(args(rt, scope), node, rt, compileSync);
    }
    case 'FunctionCall':
      return compileFunctionCall(node);
    case 'Call':
    case 'Comprehension':
      throw new Error(`internal: a ${node.type} node reached the synchronous compiler`);
  }
}

/**
 * A list literal of literals (`[1, 2, 3]`) as one list that every run of the script shares (lists
 * never change), not a new one each time: a run whose limits it is over makes its own, and is
 * refused as before. Undefined for any other list, or one over the default limits.
 */
function sharedList(node: A.ListExpression): SyncEval | undefined {
  const values: Value[] = [];
  for (const element of node.elements) {
    if (element.type !== 'Literal') return undefined;
    values.push(element.value);
  }
  let list: NuwaList;
  try {
    list = NuwaList.shared(values);
  } catch {
    return undefined;
  }
  return (rt) => (list.totalItems <= rt.valueLimits.maxValueSize && list.totalChars <= rt.valueLimits.maxStringLength ? list : NuwaList.from(values.slice(), rt.valueLimits, node));
}

function compileAsync(node: A.Expression): AsyncEval {
  if (isLongSpine(node)) return compileSpine(node as SpineNode, compileExpression).async!;
  switch (node.type) {
    case 'List': {
      const elements = mapEach(node.elements, compileExpression);
      return async (rt, scope) => {
        const out: Value[] = new Array(elements.length);
        for (let i = 0; i < elements.length; i++) out[i] = await evaluatePart(elements[i]!, rt, scope);
        return NuwaList.from(out, rt.valueLimits, node);
      };
    }
    case 'Comprehension':
      return compileComprehension(node, compileExpression).async!;
    case 'Object': {
      const keys = node.properties.map((p) => p.key);
      const values = mapEach(node.properties, (p) => compileExpression(p.value));
      return async (rt, scope) => {
        const out = new NuwaObject();
        for (let i = 0; i < keys.length; i++) out.set(keys[i]!, await evaluatePart(values[i]!, rt, scope));
        return out.seal(rt.valueLimits, node);
      };
    }
    case 'Binary': {
      // Synchronous until an operand must wait (`LEN([...]) > 0` makes no promise).
      const operation = BINARY_OPERATIONS[node.operator];
      const left = compileExpression(node.left);
      const right = compileExpression(node.right);
      const withLeft = (l: Value, rt: ScriptRun, scope: Scope): Value | Promise<Value> => {
        const r = evaluatePart(right, rt, scope);
        return r instanceof Promise ? r.then((settled) => operation(l, settled, node, rt.valueLimits)) : operation(l, r, node, rt.valueLimits);
      };
      return (rt, scope) => {
        const l = evaluatePart(left, rt, scope);
        return l instanceof Promise ? l.then((settled) => withLeft(settled, rt, scope)) : withLeft(l, rt, scope);
      };
    }
    case 'Logical': {
      const left = compileExpression(node.left);
      const right = compileExpression(node.right);
      const withLeft = (l: Value, rt: ScriptRun, scope: Scope): Value | Promise<Value> => {
        const decided = decidedByLeft(l, node);
        if (decided !== undefined) return decided;
        const r = evaluatePart(right, rt, scope);
        return r instanceof Promise ? r.then((settled) => logicalOperand(settled, node.operator, 'right', node)) : logicalOperand(r, node.operator, 'right', node);
      };
      return (rt, scope) => {
        const l = evaluatePart(left, rt, scope);
        return l instanceof Promise ? l.then((settled) => withLeft(settled, rt, scope)) : withLeft(l, rt, scope);
      };
    }
    case 'Unary': {
      const operation = UNARY_OPERATIONS[node.operator];
      const operand = compileAsync(node.operand);
      return async (rt, scope) => operation(await operand(rt, scope), node);
    }
    case 'Member': {
      const object = compileAsync(node.object);
      return async (rt, scope) => member(await object(rt, scope), node);
    }
    case 'Index': {
      const object = compileExpression(node.object);
      const index = compileExpression(node.index);
      return async (rt, scope) => {
        const target = object.async ? await object.async(rt, scope) : object.sync!(rt, scope);
        const key = index.async ? await index.async(rt, scope) : index.sync!(rt, scope);
        return indexInto(target, key, node);
      };
    }
    case 'Calc': {
      const args = compileAsync(node.arguments);
      return async (rt, scope) => evaluateCalc(await args(rt, scope), node, rt, compileSync);
    }
    case 'FunctionCall': {
      // Synchronous until an argument must wait: `SUM([...])`, `PRINT(CALL t {})` with a tool that
      // answers at once, make no promise.
      const builtin = BUILTINS.get(node.name);
      const args = mapEach(node.arguments, compileExpression);
      const rest = async (rt: ScriptRun, scope: Scope, values: Value[], from: number, pending: Promise<Value>): Promise<Value> => {
        values[from] = await pending;
        for (let i = from + 1; i < args.length; i++) values[i] = await evaluatePart(args[i]!, rt, scope);
        return callBuiltinWaiting(builtin, values, node, rt);
      };
      return (rt, scope) => {
        const values: Value[] = new Array(args.length);
        for (let i = 0; i < args.length; i++) {
          const value = evaluatePart(args[i]!, rt, scope);
          if (value instanceof Promise) return rest(rt, scope, values, i, value);
          values[i] = value;
        }
        return callBuiltinWaiting(builtin, values, node, rt);
      };
    }
    case 'Call':
      return compileToolCall(node, mapEach(node.arguments.properties, (p) => compileExpression(p.value))).evaluate;
    case 'Literal':
    case 'Variable':
      throw new Error(`internal: a ${node.type} node was marked as containing a CALL`);
  }
}

function compileVariable(node: A.Variable): SyncEval {
  const name = intern(node.name);
  const program = compiling;
  return (rt, scope) => {
    const value = scope.lookup(name);
    if (value !== undefined) return value;
    throw undefinedVariable(node, scope, rt, program);
  };
}

function undefinedVariable(node: A.Variable, scope: Scope, rt: ScriptRun, program: A.Program | undefined): NuwaError {
  const message = undefinedVariableMessage(node, { visibleNames: () => scope.visibleNames(), isTool: (name) => rt.hasTool(name), program });
  return new NuwaError('UndefinedVariableError', message, node);
}

function compileFunctionCall(node: A.FunctionCall): SyncEval {
  const builtin = BUILTINS.get(node.name);
  const args = mapEach(node.arguments, compileSync);
  if (builtin && args.length === 1) {
    const only = args[0]!;
    return (rt, scope) => callBuiltin(builtin, [only(rt, scope)], node, rt);
  }
  return (rt, scope) => {
    const values: Value[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) values[i] = args[i]!(rt, scope);
    return callBuiltin(builtin, values, node, rt);
  };
}
