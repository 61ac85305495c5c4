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
import * as A from '../syntax/ast.js';
import { NuwaError } from '../errors.js';
import { undefinedVariableMessage } from './hints.js';
import { BUILTINS_BY_NAME, unknownFunctionMessage } from '../syntax/functions.js';
import { repairFunction } from '../syntax/methods.js';
import { explicitCondition, keysLoop } from './advice.js';
import { arityError, BUILTINS, type Builtin } from './builtins.js';
import { evaluateCalc } from './calc.js';
import { compileBinary } from './binary.js';
import { compileSpine, isLongSpine, type SpineNode } from './chains.js';
import { compileToolCall, type CallWith } from './calls.js';
import { compileComprehension } from './comprehension.js';
import { markWaiting, mayWait } from './waiting.js';
import { BINARY_OPERATIONS, decidedByLeft, indexInto, logicalOperand, member, UNARY_OPERATIONS } from './operators.js';
import type { ScriptRun } from './script-run.js';
import type { ScriptCallSite } from './script-call.js';
import { follow, Pending, type Continuation, type Waiting } from '../util/pending.js';
import { Scope } from './scope.js';
import { evaluatePart, type AsyncEval, type Compiled, type Exec, type SyncEval } from './compiled.js';
import { describe, NuwaList, NuwaObject, typeName, type Value } from '../values/values.js';
import { intern } from '../util/intern.js';
import { callSteps, callStepsAsync, Suspension } from './suspend.js';

/** A compiled program. */
export type CompiledProgram = Exec;

const cache = new WeakMap<A.Program, CompiledProgram>();

/** The program being compiled: error messages look at it to explain a missing name (hints.ts). */
let compiling: A.Program | undefined;

/**
 * Compiles a program once; running the same AST again reuses the closures. Its top-level statements
 * are compiled as they are first reached, not all before the first runs: a script of a hundred
 * thousand statements would otherwise hold the event loop for the half second that compiling it
 * takes, where statement by statement the run gives it a turn every time slice (TOOLS.md §7).
 */
export function compileProgram(program: A.Program): CompiledProgram {
  let compiled = cache.get(program);
  if (!compiled) {
    markWaiting(program);
    const runs: Exec[] = new Array(program.body.length);
    for (let i = 0; i < runs.length; i++) {
      // Replaces itself once compiled.
      runs[i] = (rt, scope) => (runs[i] = compileTopLevel(program, program.body[i]!))(rt, scope);
    }
    // Always a runner, even for one statement: a suspended built-in needs one to run it again.
    compiled = blockRunner(runs, statementKinds(program.body));
    cache.set(program, compiled);
  }
  return compiled;
}

/** Compiles one statement of `program` (error messages look at the whole program: hints.ts). */
function compileTopLevel(program: A.Program, statement: A.Statement): Exec {
  compiling = program;
  try {
    return compileStatement(statement);
  } finally {
    compiling = undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Statements

/**
 * What each statement of a block is to a suspension (suspend.ts): NO_HEAVY when it calls no heavy
 * built-in (its runner then marks nothing: most statements, and a tight loop pays nothing), QUIET
 * when it does and has no CALL (it may be suspended), LOUD when it has a CALL too.
 */
type StatementKind = 0 | 1 | 2;
const NO_HEAVY = 0;
const QUIET = 1;
const LOUD = 2;

function statementKinds(statements: readonly A.Statement[]): StatementKind[] {
  return statements.map((statement) => (!callsHeavy(statement) ? NO_HEAVY : statement.hasCall ? LOUD : QUIET));
}

/** Whether a heavy built-in (one with steps) is called anywhere in `node`. */
function callsHeavy(node: A.Node): boolean {
  const pending: A.Node[] = [node];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.type === 'FunctionCall' && BUILTINS.get(next.name)?.steps !== undefined) return true;
    for (const child of A.childrenOf(next)) pending.push(child);
  }
  return false;
}

function compileBlock(statements: readonly A.Statement[]): Exec {
  const runs = mapEach(statements, compileStatement);
  // One statement needs no runner: a suspension inside it goes to the runner of the statement
  // around it, which runs that statement again (its condition or iterable first, which suspend.ts
  // allows only when nothing was printed).
  if (runs.length === 1) return runs[0]!;
  return blockRunner(runs, statementKinds(statements));
}

function blockRunner(runs: Exec[], kinds: StatementKind[]): Exec {
  return (rt, scope) => {
    for (let i = 0; i < runs.length; i++) {
      if (kinds[i] !== NO_HEAVY) rt.enterStatement(kinds[i] === QUIET, false);
      let waiting: Waiting | undefined;
      try {
        waiting = runs[i]!(rt, scope);
      } catch (error) {
        if (!(error instanceof Suspension)) throw error;
        return new BlockRun(runs, kinds, i, rt, scope, true).after(rt.finishSuspended(error));
      }
      if (waiting !== undefined) return new BlockRun(runs, kinds, i + 1, rt, scope, false).after(waiting);
      if (rt.yieldDue) return new BlockRun(runs, kinds, i + 1, rt, scope, false).after(rt.yieldTurn());
    }
    return undefined;
  };
}

/** The rest of a block once one of its statements had to wait: goes on each time what it waits for is done. */
class BlockRun extends Pending implements Continuation {
  // Fields set in the constructor (`declare`d): see Pending.
  private declare readonly runs: Exec[];
  private declare readonly kinds: StatementKind[];
  private declare next: number;
  /** The next statement is one a suspension runs again. */
  private declare again: boolean;
  private declare readonly rt: ScriptRun;
  private declare readonly scope: Scope;

  constructor(runs: Exec[], kinds: StatementKind[], next: number, rt: ScriptRun, scope: Scope, again: boolean) {
    super();
    this.runs = runs;
    this.kinds = kinds;
    this.next = next;
    this.again = again;
    this.rt = rt;
    this.scope = scope;
  }

  after(waiting: Waiting): this {
    follow(waiting, this);
    return this;
  }

  resume(): void {
    const { runs, kinds, rt, scope } = this;
    try {
      while (this.next < runs.length) {
        const i = this.next++;
        if (kinds[i] !== NO_HEAVY) rt.enterStatement(kinds[i] === QUIET, this.again);
        this.again = false;
        let waiting: Waiting | undefined;
        try {
          waiting = runs[i]!(rt, scope);
        } catch (error) {
          if (!(error instanceof Suspension)) throw error;
          this.next = i;
          this.again = true;
          return follow(rt.finishSuspended(error), this);
        }
        if (waiting !== undefined) return follow(waiting, this);
        if (rt.yieldDue) return follow(rt.yieldTurn(), this);
      }
    } catch (error) {
      return this.rejectWith(error);
    }
    this.resolveWith(undefined);
  }

  fail(error: unknown): void {
    this.rejectWith(error);
  }
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
  const call = node.condition.type === 'Call' ? compileCallWith(node.condition) : null;
  if (call !== null) {
    const decide = (value: Value, site: ScriptCallSite) => branch(value, site.run, site.scope);
    return (rt, scope) => {
      rt.tick(node);
      return call(rt, scope, decide);
    };
  }
  const test = condition.async!;
  return (rt, scope) => {
    rt.tick(node);
    const value = test(rt, scope);
    return value instanceof Promise ? value.then((settled) => branch(settled, rt, scope)) : branch(value, rt, scope);
  };
}

function iterableError(value: Value, node: A.ForStatement): NuwaError {
  const hint = value instanceof NuwaObject ? `: to loop over an object's keys, write ${keysLoop(node.variable, node.iterable)}` : '';
  return new NuwaError('InvalidIterableError', `FOR needs a list to loop over, got ${describe(value)}${hint}`, node.iterable);
}

/** A compiled FOR loop: what each run of it needs. */
interface CompiledLoop {
  node: A.ForStatement;
  variable: string;
  statements: Exec[];
  /** What each of them is to a suspension. */
  kinds: StatementKind[];
  /** Whether the body can call a tool, whose context keeps the scope of its iteration. */
  calls: boolean;
}

/**
 * One run of a FOR loop: where it is — the next item, the next statement of the current iteration —
 * and, once it has had to wait, the Pending of its rest. step() runs the loop from there until it
 * ends (undefined) or must wait (for a tool that answered with a promise, or for a turn of the
 * event loop once the time slice is spent); when that is done, resume() steps on, in the microtask
 * in which it was done. So a long loop keeps running in this one method, optimised once, whether or
 * not it waited, and the body's statements run inline. Lists never change, so iterating `items` is
 * iterating the list as it was when the loop began.
 */
class LoopRun extends Pending implements Continuation {
  // Fields set in the constructor (`declare`d): see Pending.
  private declare next: number;
  private declare statement: number;
  private declare inner: Scope | null;
  /** The scope of the last iteration, emptied for the next one when nothing can have kept it. */
  private declare spare: Scope | null;
  private declare readonly loop: CompiledLoop;
  private declare readonly rt: ScriptRun;
  private declare readonly scope: Scope;
  private declare readonly items: NuwaList;
  /** The statement to run next is one a suspension runs again. */
  private declare again: boolean;

  constructor(loop: CompiledLoop, rt: ScriptRun, scope: Scope, items: NuwaList) {
    super();
    this.next = 0;
    this.statement = 0;
    this.again = false;
    this.inner = null;
    this.spare = null;
    this.loop = loop;
    this.rt = rt;
    this.scope = scope;
    this.items = items;
  }

  step(): Waiting | undefined {
    const { rt, items } = this;
    const { node, statements, kinds } = this.loop;
    let next = this.next;
    let statement = this.statement;
    let inner = this.inner;
    for (;;) {
      if (inner === null) {
        if (next >= items.length) return undefined;
        rt.tick(node);
        const index = next++;
        const item = items.at(index);
        if (this.loop.calls || this.spare === null) inner = this.spare = Scope.ofItem(this.scope, this.loop.variable, item, index);
        else inner = this.spare.reset(item, index);
        statement = 0;
      }
      while (statement < statements.length) {
        if (kinds[statement] !== NO_HEAVY) {
          rt.enterStatement(kinds[statement] === QUIET, this.again);
          this.again = false;
          // Where to run it again from, should a heavy built-in suspend it (suspended() below):
          // saved here, so that the loop needs no try of its own.
          this.next = next;
          this.statement = statement;
          this.inner = inner;
        }
        const waiting = statements[statement++]!(rt, inner);
        if (waiting !== undefined) {
          this.next = next;
          this.statement = statement;
          this.inner = inner;
          return waiting;
        }
      }
      inner = null;
      if (rt.yieldDue) {
        this.next = next;
        this.inner = null;
        return rt.yieldTurn();
      }
    }
  }

  /** A statement of the body was suspended (step() saved where it was): it runs again once the call has finished. */
  suspended(suspension: Suspension): Waiting {
    this.again = true;
    return this.rt.finishSuspended(suspension);
  }

  resume(): void {
    let waiting: Waiting | undefined;
    try {
      waiting = this.step();
    } catch (error) {
      if (!(error instanceof Suspension)) return this.rejectWith(error);
      waiting = this.suspended(error);
    }
    if (waiting === undefined) this.resolveWith(undefined);
    else follow(waiting, this);
  }

  fail(error: unknown): void {
    this.rejectWith(error);
  }
}

function compileFor(node: A.ForStatement): Exec {
  const iterable = compileExpression(node.iterable);
  const loop: CompiledLoop = {
    node,
    variable: intern(node.variable),
    statements: mapEach(node.body, compileStatement),
    kinds: statementKinds(node.body),
    calls: node.body.some((statement) => statement.hasCall),
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
  const call = node.iterable.type === 'Call' ? compileCallWith(node.iterable) : null;
  if (call !== null) {
    const over = (items: Value, site: ScriptCallSite) => loopOver(items, site.run, site.scope);
    return (rt, scope) => {
      rt.tick(node);
      return call(rt, scope, over);
    };
  }
  const list = iterable.async!;
  return (rt, scope) => {
    rt.tick(node);
    const items = list(rt, scope);
    return items instanceof Promise ? items.then((settled) => loopOver(settled, rt, scope)) : loopOver(items, rt, scope);
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

function callBuiltin(builtin: Builtin | undefined, args: Value[], node: A.FunctionCall, rt: ScriptRun): Value {
  if (builtin === undefined) throw unknownFunction(node, rt);
  if (args.length < builtin.minArgs || args.length > builtin.maxArgs) throw arityError(builtin, args.length, node);
  try {
    // A heavy built-in on big arguments works in steps, and may suspend the statement (suspend.ts).
    return builtin.steps === undefined || !builtin.big!(args) ? builtin.call(args, rt, node) : callSteps(builtin.steps, args, node, rt);
  } catch (error) {
    // A limit reached inside a value walk (the string form of a list, say) points at the call.
    throw error instanceof NuwaError ? error.at(node) : error;
  }
}

/**
 * callBuiltin in a closure that may wait anyway (its statement has a CALL, so it is never suspended):
 * a heavy built-in on big arguments lets the event loop in as it goes; any other answers at once.
 */
function callBuiltinWaiting(builtin: Builtin | undefined, args: Value[], node: A.FunctionCall, rt: ScriptRun): Value | Promise<Value> {
  if (builtin?.steps === undefined || args.length < builtin.minArgs || args.length > builtin.maxArgs || !builtin.big!(args)) return callBuiltin(builtin, args, node, rt);
  return callStepsAsync(builtin.steps(args, rt, node), rt).catch((error: unknown) => {
    throw error instanceof NuwaError ? error.at(node) : error;
  });
}

/** The UnknownFunctionError of `NAME(...)`; the checker reports the same one before the run. */
export function unknownFunction(node: A.FunctionCall, rt: Pick<ScriptRun, 'hasTool'>): NuwaError {
  const repair = repairFunction(node.name, node.arguments, BUILTINS_BY_NAME, node);
  return new NuwaError('UnknownFunctionError', unknownFunctionMessage(node.name, (name) => rt.hasTool(name), repair?.hint), node);
}

/** A CALL statement's or LET's or loop's CALL, compiled as a CallWith; null when its arguments can wait. */
function compileCallWith(node: A.CallExpression): CallWith | null {
  return compileToolCall(node, mapEach(node.arguments.properties, (p) => compileExpression(p.value))).callWith;
}
