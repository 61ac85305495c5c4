// The evaluator: an async tree walk, prepared once per AST.
//
// Each node is turned into a JS closure once ("closure compilation"); running a script then calls
// closures instead of switching on node types. Whether a node can reach a CALL was decided by the
// parser (`hasCall`): nodes without one get a synchronous closure, and only the path from the root
// to a CALL is async. So `LET x = a * 2 + 1` costs no promise at all, and a loop whose body calls
// a tool awaits once per call, not once per node (DESIGN.md, "Performance shape").
import type * as A from '../syntax/ast.js';
import { NuwaError } from '../errors.js';
import type { JsonObject } from '../values/json.js';
import { undefinedVariableMessage, unknownFunctionMessage } from './hints.js';
import { arityError, BUILTINS, type Builtin } from './builtins.js';
import { evaluateCalc } from './calc.js';
import { compileSpine, isLongSpine, type SpineNode } from './chains.js';
import { BINARY_OPERATIONS, decidedByLeft, indexInto, logicalOperand, member, UNARY_OPERATIONS } from './operators.js';
import type { Run } from './run.js';
import { Scope } from './scope.js';
import { describe, setJsonKey, toJson, type NuwaObject, type Value } from '../values/values.js';

export type SyncEval = (rt: Run, scope: Scope) => Value;
export type AsyncEval = (rt: Run, scope: Scope) => Promise<Value>;
/** A compiled expression: exactly one of the two is set, chosen by the node's `hasCall`. */
export interface Compiled {
  sync: SyncEval | null;
  async: AsyncEval | null;
}

type SyncExec = (rt: Run, scope: Scope) => void;
type AsyncExec = (rt: Run, scope: Scope) => Promise<void>;
interface CompiledStatement {
  sync: SyncExec | null;
  async: AsyncExec | null;
}

/** A compiled program: `sync` when nothing in it can call a tool. */
export interface CompiledProgram {
  sync: SyncExec | null;
  async: AsyncExec | null;
}

const cache = new WeakMap<A.Program, CompiledProgram>();

/** The program being compiled: error messages look at it to explain a missing name (hints.ts). */
let compiling: A.Program | undefined;

/** Compiles a program once; running the same AST again reuses the closures. */
export function compileProgram(program: A.Program): CompiledProgram {
  let compiled = cache.get(program);
  if (!compiled) {
    compiling = program;
    try {
      compiled = compileBlock(program.body);
    } finally {
      compiling = undefined;
    }
    cache.set(program, compiled);
  }
  return compiled;
}

// ---------------------------------------------------------------------------------------------
// Statements

function compileBlock(statements: A.Statement[]): CompiledStatement {
  const parts = mapEach(statements, compileStatement);
  if (parts.every((p) => p.sync !== null)) {
    const runs = parts.map((p) => p.sync!);
    if (runs.length === 1) return { sync: runs[0]!, async: null };
    return {
      sync: (rt, scope) => {
        for (let i = 0; i < runs.length; i++) runs[i]!(rt, scope);
      },
      async: null,
    };
  }
  return {
    sync: null,
    async: async (rt, scope) => {
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!;
        if (part.async !== null) await part.async(rt, scope);
        else part.sync!(rt, scope);
      }
    },
  };
}

function compileStatement(node: A.Statement): CompiledStatement {
  switch (node.type) {
    case 'Let':
      return compileLet(node);
    case 'If':
      return compileIf(node);
    case 'For':
      return compileFor(node);
    case 'ExpressionStatement': {
      const expression = compileExpression(node.expression);
      if (expression.sync) {
        const run = expression.sync;
        return {
          sync: (rt, scope) => {
            rt.tick(node);
            run(rt, scope);
          },
          async: null,
        };
      }
      const run = expression.async!;
      return {
        sync: null,
        async: async (rt, scope) => {
          rt.tick(node);
          await run(rt, scope);
        },
      };
    }
  }
}

function compileLet(node: A.LetStatement): CompiledStatement {
  const { name } = node;
  const value = compileExpression(node.value);
  if (value.sync) {
    const run = value.sync;
    return {
      sync: (rt, scope) => {
        rt.tick(node);
        scope.assign(name, run(rt, scope));
      },
      async: null,
    };
  }
  const run = value.async!;
  return {
    sync: null,
    async: async (rt, scope) => {
      rt.tick(node);
      scope.assign(name, await run(rt, scope));
    },
  };
}

function conditionError(value: Value, node: A.IfStatement): NuwaError {
  return new NuwaError(
    'InvalidConditionError',
    `an IF condition must be true or false, got ${describe(value)}: compare explicitly, e.g. IF x != null THEN or IF LEN(items) > 0 THEN`,
    node.condition,
  );
}

function compileIf(node: A.IfStatement): CompiledStatement {
  const condition = compileExpression(node.condition);
  const consequent = compileBlock(node.consequent);
  const alternate = node.alternate ? compileBlock(node.alternate) : null;
  if (!node.hasCall) {
    const test = condition.sync!;
    const then = consequent.sync!;
    const otherwise = alternate?.sync ?? null;
    return {
      sync: (rt, scope) => {
        rt.tick(node);
        const value = test(rt, scope);
        if (value === true) then(rt, scope);
        else if (value === false) {
          if (otherwise !== null) otherwise(rt, scope);
        } else throw conditionError(value, node);
      },
      async: null,
    };
  }
  return {
    sync: null,
    async: async (rt, scope) => {
      rt.tick(node);
      const value = condition.async ? await condition.async(rt, scope) : condition.sync!(rt, scope);
      const branch = value === true ? consequent : value === false ? alternate : null;
      if (typeof value !== 'boolean') throw conditionError(value, node);
      if (branch === null) return;
      if (branch.async) await branch.async(rt, scope);
      else branch.sync!(rt, scope);
    },
  };
}

function iterableError(value: Value, node: A.ForStatement): NuwaError {
  const hint = value instanceof Map ? ': to loop over an object, use FOR key IN KEYS(obj) DO' : '';
  return new NuwaError('InvalidIterableError', `FOR needs a list to loop over, got ${describe(value)}${hint}`, node.iterable);
}

function compileFor(node: A.ForStatement): CompiledStatement {
  const { variable } = node;
  const iterable = compileExpression(node.iterable);
  if (!node.hasCall) {
    const list = iterable.sync!;
    const run = compileBlock(node.body).sync!;
    return {
      sync: (rt, scope) => {
        rt.tick(node);
        const items = list(rt, scope);
        if (!Array.isArray(items)) throw iterableError(items, node);
        // Lists are never mutated in place, so iterating `items` is iterating the list as it was.
        for (let i = 0; i < items.length; i++) {
          rt.tick(node);
          run(rt, new Scope(scope, variable, items[i]!));
        }
      },
      async: null,
    };
  }
  // The body's statements run inline: one async function less to enter per iteration.
  const statements = mapEach(node.body, compileStatement);
  return {
    sync: null,
    async: async (rt, scope) => {
      rt.tick(node);
      const items = iterable.async ? await iterable.async(rt, scope) : iterable.sync!(rt, scope);
      if (!Array.isArray(items)) throw iterableError(items, node);
      for (let i = 0; i < items.length; i++) {
        rt.tick(node);
        const inner = new Scope(scope, variable, items[i]!);
        for (let j = 0; j < statements.length; j++) {
          const statement = statements[j]!;
          if (statement.async !== null) await statement.async(rt, inner);
          else statement.sync!(rt, inner);
        }
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** Array.map without its builtin frame: compiling nests as deep as the script, so frames count. */
function mapEach<T, R>(items: readonly T[], fn: (item: T) => R): R[] {
  const out: R[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) out[i] = fn(items[i]!);
  return out;
}

export function compileExpression(node: A.Expression): Compiled {
  return node.hasCall ? { sync: null, async: compileAsync(node) } : { sync: compileSync(node), async: null };
}

/**
 * Evaluates a part inside an async closure. Returning the sync value directly (not from an async
 * function) means `await evaluatePart(...)` on a sync part costs only the await itself; single parts use
 * the inline form `x.async ? await x.async(...) : x.sync!(...)`, which costs nothing when sync.
 */
export function evaluatePart(part: Compiled, rt: Run, scope: Scope): Value | Promise<Value> {
  return part.async !== null ? part.async(rt, scope) : part.sync!(rt, scope);
}

export function compileSync(node: A.Expression): SyncEval {
  if (isLongSpine(node)) return compileSpine(node as SpineNode).sync!;
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      return () => value;
    }
    case 'Variable':
      return compileVariable(node);
    case 'List': {
      const elements = mapEach(node.elements, compileSync);
      return (rt, scope) => {
        const out: Value[] = new Array(elements.length);
        for (let i = 0; i < elements.length; i++) out[i] = elements[i]!(rt, scope);
        return out;
      };
    }
    case 'Object': {
      const keys = node.properties.map((p) => p.key);
      const values = mapEach(node.properties, (p) => compileSync(p.value));
      return (rt, scope) => {
        const out: NuwaObject = new Map();
        for (let i = 0; i < keys.length; i++) out.set(keys[i]!, values[i]!(rt, scope));
        return out;
      };
    }
    case 'Binary': {
      const operation = BINARY_OPERATIONS[node.operator];
      const left = compileSync(node.left);
      const right = compileSync(node.right);
      return (rt, scope) => operation(left(rt, scope), right(rt, scope), node);
    }
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
      return (rt, scope) => member(object(rt, scope), node);
    }
    case 'Index': {
      const object = compileSync(node.object);
      const index = compileSync(node.index);
      return (rt, scope) => indexInto(object(rt, scope), index(rt, scope), node);
    }
    case 'Calc': {
      const args = compileSync(node.arguments);
      return (rt, scope) => evaluateCalc(args(rt, scope), node, rt);
    }
    case 'FunctionCall':
      return compileFunctionCall(node);
    case 'Call':
      throw new Error('internal: a CALL node reached the synchronous compiler');
  }
}

function compileAsync(node: A.Expression): AsyncEval {
  if (isLongSpine(node)) return compileSpine(node as SpineNode).async!;
  switch (node.type) {
    case 'List': {
      const elements = mapEach(node.elements, compileExpression);
      return async (rt, scope) => {
        const out: Value[] = new Array(elements.length);
        for (let i = 0; i < elements.length; i++) out[i] = await evaluatePart(elements[i]!, rt, scope);
        return out;
      };
    }
    case 'Object': {
      const keys = node.properties.map((p) => p.key);
      const values = mapEach(node.properties, (p) => compileExpression(p.value));
      return async (rt, scope) => {
        const out: NuwaObject = new Map();
        for (let i = 0; i < keys.length; i++) out.set(keys[i]!, await evaluatePart(values[i]!, rt, scope));
        return out;
      };
    }
    case 'Binary': {
      const operation = BINARY_OPERATIONS[node.operator];
      const left = compileExpression(node.left);
      const right = compileExpression(node.right);
      return async (rt, scope) => {
        const l = left.async ? await left.async(rt, scope) : left.sync!(rt, scope);
        const r = right.async ? await right.async(rt, scope) : right.sync!(rt, scope);
        return operation(l, r, node);
      };
    }
    case 'Logical': {
      const left = compileExpression(node.left);
      const right = compileExpression(node.right);
      return async (rt, scope) => {
        const decided = decidedByLeft(left.async ? await left.async(rt, scope) : left.sync!(rt, scope), node);
        if (decided !== undefined) return decided;
        const r = right.async ? await right.async(rt, scope) : right.sync!(rt, scope);
        return logicalOperand(r, node.operator, 'right', node);
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
      return async (rt, scope) => evaluateCalc(await args(rt, scope), node, rt);
    }
    case 'FunctionCall': {
      const builtin = BUILTINS.get(node.name);
      const args = mapEach(node.arguments, compileExpression);
      return async (rt, scope) => {
        const values: Value[] = new Array(args.length);
        for (let i = 0; i < args.length; i++) values[i] = await evaluatePart(args[i]!, rt, scope);
        return callBuiltin(builtin, values, node, rt);
      };
    }
    case 'Call':
      return compileToolCall(node);
    case 'Literal':
    case 'Variable':
      throw new Error(`internal: a ${node.type} node was marked as containing a CALL`);
  }
}

function compileVariable(node: A.Variable): SyncEval {
  const { name } = node;
  const program = compiling;
  return (rt, scope) => {
    const value = scope.lookup(name);
    if (value !== undefined) return value;
    throw undefinedVariable(node, scope, rt, program);
  };
}

function undefinedVariable(node: A.Variable, scope: Scope, rt: Run, program: A.Program | undefined): NuwaError {
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

function callBuiltin(builtin: Builtin | undefined, args: Value[], node: A.FunctionCall, rt: Run): Value {
  if (builtin === undefined) throw unknownFunction(node, rt);
  if (args.length < builtin.minArgs || args.length > builtin.maxArgs) throw arityError(builtin, args.length, node);
  return builtin.call(args, rt, node);
}

/** The UnknownFunctionError of `NAME(...)`; the checker reports the same one before the run. */
export function unknownFunction(node: A.FunctionCall, rt: Pick<Run, 'hasTool'>): NuwaError {
  return new NuwaError('UnknownFunctionError', unknownFunctionMessage(node.name, (name) => rt.hasTool(name)), node);
}

function compileToolCall(node: A.CallExpression): AsyncEval {
  const { tool } = node;
  const keys = node.arguments.properties.map((p) => p.key);
  const values = mapEach(node.arguments.properties, (p) => compileExpression(p.value));
  const argument = (value: Value) => (typeof value === 'object' && value !== null ? toJson(value) : value);
  if (values.every((v) => v.sync !== null)) {
    const syncValues = values.map((v) => v.sync!);
    // No await of our own: the tool call's promise is handed straight to the caller.
    return (rt, scope) => {
      const args: JsonObject = {};
      for (let i = 0; i < keys.length; i++) setJsonKey(args, keys[i]!, argument(syncValues[i]!(rt, scope)));
      return rt.callTool(tool, args, node, scope);
    };
  }
  return async (rt, scope) => {
    const args: JsonObject = {};
    for (let i = 0; i < keys.length; i++) setJsonKey(args, keys[i]!, argument(await evaluatePart(values[i]!, rt, scope)));
    return rt.callTool(tool, args, node, scope);
  };
}
