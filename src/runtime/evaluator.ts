// The evaluator: an async tree walk, prepared once per AST.
//
// Each node is turned into a JS closure once ("closure compilation"); running a script then calls
// closures instead of switching on node types. Whether a node can reach a CALL was decided by the
// parser (`hasCall`): nodes without one get a synchronous closure, and only the path from the root
// to a CALL is async (so is the path to a list comprehension, a loop that must give the event loop
// a turn when its time slice is spent: waiting.ts). So `LET x = a * 2 + 1` costs no promise at all, and a loop whose body calls
// a tool awaits once per call, not once per node (DESIGN.md, "Performance shape"). Statements run
// synchronously until they must wait (see Exec): a long CALL-free run waits only for the turns it
// gives the event loop once per time slice (Run.yieldDue), at a loop iteration or between statements.
//
// This module compiles the program and its statements; expressions.ts compiles expressions
// (builtin-calls.ts: a built-in's call), and block-runs.ts runs blocks and FOR loops.
import type * as A from '../syntax/ast.js';
import { NuwaError } from '../errors.js';
import { explicitCondition, keysLoop } from './advice.js';
import { compileToolCall, type CallWith } from './calls.js';
import { markWaiting } from './waiting.js';
import type { ScriptRun } from './script-run.js';
import type { ScriptCallSite } from './script-call.js';
import { follow, type Waiting } from '../util/pending.js';
import type { Scope } from './scope.js';
import type { Exec } from './compiled.js';
import { describe, NuwaList, NuwaObject, typeName, type Value } from '../values/values.js';
import { intern } from '../util/intern.js';
import { Suspension } from './suspend.js';
import { blockRunner, LoopRun, statementKinds, type CompiledLoop } from './block-runs.js';
import { compileExpression, compilingIn, mapEach } from './expressions.js';

/** A compiled program. */
export type CompiledProgram = Exec;

const cache = new WeakMap<A.Program, CompiledProgram>();

/**
 * Compiles a program once; running the same AST again reuses the closures. Its top-level statements
 * are compiled as they are first reached, not all before the first runs: a script of a hundred
 * thousand statements would otherwise hold the event loop for the half second that compiling it
 * takes, where statement by statement the run gives it a turn every time slice (TOOLS.md §7).
 */
export function compileProgram(program: A.Program, { once = false }: CompileOptions = {}): CompiledProgram {
  let compiled = cache.get(program);
  if (!compiled) {
    markWaiting(program);
    const runs: Exec[] = new Array(program.body.length);
    for (let i = 0; i < runs.length; i++) {
      runs[i] = once
        ? (rt, scope) => compileTopLevel(program, program.body[i]!)(rt, scope)
        : // Replaces itself once compiled.
          (rt, scope) => (runs[i] = compileTopLevel(program, program.body[i]!))(rt, scope);
    }
    // Always a runner, even for one statement: a suspended built-in needs one to run it again.
    compiled = blockRunner(runs, statementKinds(program.body));
    if (!once) cache.set(program, compiled);
  }
  return compiled;
}

export interface CompileOptions {
  /**
   * The program runs this once only (the interpreter parsed it from text for this run, and nobody
   * else holds it): each top-level statement's closures are left to the garbage collector once it
   * has run, instead of being kept for a next run that never comes. For a long script they are the
   * larger part of its memory (a 100,000-statement script: about 70 MB of closures beside a 50 MB
   * AST). A statement a suspension runs again (suspend.ts) is compiled again, to the same closures.
   */
  once?: boolean;
}

/** Compiles one statement of `program` (error messages look at the whole program: hints.ts). */
function compileTopLevel(program: A.Program, statement: A.Statement): Exec {
  return compilingIn(program, () => compileStatement(statement));
}

function compileBlock(statements: readonly A.Statement[]): Exec {
  const runs = mapEach(statements, compileStatement);
  // One statement needs no runner: a suspension inside it goes to the runner of the statement
  // around it, which runs that statement again (its condition or iterable first, which suspend.ts
  // allows only when nothing was printed).
  if (runs.length === 1) return runs[0]!;
  return blockRunner(runs, statementKinds(statements));
}

function compileStatement(node: A.Statement): Exec {
  switch (node.type) {
    case 'Let':
      return compileLet(node);
    case 'If':
      return compileIf(node);
    case 'For':
      return compileFor(node);
    case 'ExpressionStatement': {
      const call = node.expression.type === 'Call' ? compileCallWith(node.expression) : null;
      if (call !== null) {
        return (rt, scope) => {
          rt.tick(node);
          return call(rt, scope, nothing);
        };
      }
      const expression = compileExpression(node.expression);
      if (expression.sync) {
        const run = expression.sync;
        return (rt, scope) => {
          rt.tick(node);
          run(rt, scope);
          return undefined;
        };
      }
      const run = expression.async!;
      return (rt, scope) => {
        rt.tick(node);
        const value = run(rt, scope);
        return value instanceof Promise ? value.then(nothing) : undefined;
      };
    }
  }
}

function compileLet(node: A.LetStatement): Exec {
  const name = intern(node.name);
  // `LET x = CALL ...`: the value is assigned as the tool answers, in the same microtask.
  const call = node.value.type === 'Call' ? compileCallWith(node.value) : null;
  if (call !== null) {
    // Made once: the site of the call knows the scope to assign in.
    const assign = (value: Value, site: ScriptCallSite): undefined => void site.scope.assign(name, value);
    return (rt, scope) => {
      rt.tick(node);
      return call(rt, scope, assign);
    };
  }
  const value = compileExpression(node.value);
  if (value.sync) {
    const run = value.sync;
    return (rt, scope) => {
      rt.tick(node);
      scope.assign(name, run(rt, scope));
      return undefined;
    };
  }
  const run = value.async!;
  return (rt, scope) => {
    rt.tick(node);
    const result = run(rt, scope);
    if (result instanceof Promise) return result.then((settled) => scope.assign(name, settled));
    scope.assign(name, result);
    return undefined;
  };
}

const nothing = (): undefined => undefined;

function conditionError(value: Value, node: A.IfStatement): NuwaError {
  const explicit = explicitCondition(node.condition, typeName(value) as Parameters<typeof explicitCondition>[1]);
  return new NuwaError(
    'InvalidConditionError',
    `an IF condition must be true or false, got ${describe(value)}: compare explicitly, ${explicit === undefined ? 'e.g. IF x != null THEN or IF LEN(items) > 0 THEN' : `write IF ${explicit} THEN`}`,
    node.condition,
  );
}

function compileIf(node: A.IfStatement): Exec {
  const condition = compileExpression(node.condition);
  const then = compileBlock(node.consequent);
  const otherwise = node.alternate ? compileBlock(node.alternate) : nothing;
  if (condition.sync) {
    const test = condition.sync;
    return (rt, scope) => {
      rt.tick(node);
      const value = test(rt, scope);
      if (value === true) return then(rt, scope);
      if (value === false) return otherwise(rt, scope);
      throw conditionError(value, node);
    };
  }
  const branch = (value: Value, rt: ScriptRun, scope: Scope): Waiting | undefined => {
    if (value === true) return then(rt, scope);
    if (value === false) return otherwise(rt, scope);
    throw conditionError(value, node);
  };
  return afterValue(node, node.condition, condition, branch);
}

function iterableError(value: Value, node: A.ForStatement): NuwaError {
  const hint = value instanceof NuwaObject ? `: to loop over an object's keys, write ${keysLoop(node.variable, node.iterable)}` : '';
  return new NuwaError('InvalidIterableError', `FOR needs a list to loop over, got ${describe(value)}${hint}`, node.iterable);
}

function compileFor(node: A.ForStatement): Exec {
  const iterable = compileExpression(node.iterable);
  const loop: CompiledLoop = {
    node,
    variable: intern(node.variable),
    statements: mapEach(node.body, compileStatement),
    kinds: statementKinds(node.body),
  };

  const run = (rt: ScriptRun, scope: Scope, items: NuwaList): Waiting | undefined => {
    const loopRun = new LoopRun(loop, rt, scope, items);
    let waiting: Waiting | undefined;
    try {
      waiting = loopRun.step();
    } catch (error) {
      if (!(error instanceof Suspension)) throw error;
      waiting = loopRun.suspended(error);
    }
    if (waiting === undefined) return undefined;
    follow(waiting, loopRun);
    return loopRun;
  };

  if (iterable.sync) {
    const list = iterable.sync;
    return (rt, scope) => {
      rt.tick(node);
      const items = list(rt, scope);
      if (!(items instanceof NuwaList)) throw iterableError(items, node);
      return run(rt, scope, items);
    };
  }
  const loopOver = (items: Value, rt: ScriptRun, scope: Scope): Waiting | undefined => {
    if (!(items instanceof NuwaList)) throw iterableError(items, node);
    return run(rt, scope, items);
  };
  return afterValue(node, node.iterable, iterable, loopOver);
}

/**
 * A statement that goes on with the value of an expression that may wait (its sync form is handled
 * by the caller): a CALL hands its answer straight to `next` without a promise; anything else that
 * waits is followed through its promise.
 */
function afterValue(node: A.Node, expression: A.Expression, compiled: ReturnType<typeof compileExpression>, next: (value: Value, rt: ScriptRun, scope: Scope) => Waiting | undefined): Exec {
  const call = expression.type === 'Call' ? compileCallWith(expression) : null;
  if (call !== null) {
    const goOn = (value: Value, site: ScriptCallSite) => next(value, site.run, site.scope);
    return (rt, scope) => {
      rt.tick(node);
      return call(rt, scope, goOn);
    };
  }
  const evaluate = compiled.async!;
  return (rt, scope) => {
    rt.tick(node);
    const value = evaluate(rt, scope);
    return value instanceof Promise ? value.then((settled) => next(settled, rt, scope)) : next(value, rt, scope);
  };
}

/** A CALL statement's or LET's or loop's CALL, compiled as a CallWith; null when its arguments can wait. */
function compileCallWith(node: A.CallExpression): CallWith | null {
  return compileToolCall(node, mapEach(node.arguments.properties, (p) => compileExpression(p.value))).callWith;
}
