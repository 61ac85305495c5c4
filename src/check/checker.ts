// The static checker: one walk over the AST, in evaluation order, that follows LANGUAGE.md §3's
// scoping exactly and tracks what is known of each variable on every path (bindings.ts, shapes.ts),
// with the runtime's own operators, messages and argument validator deciding what fails. It reports
// problems and records every CALL the script can reach with how many times it can run there (the
// raw material of a plan). A pure function of the program, the tools' schemas and the names of
// the initial variables: nothing runs, and the tools' functions are never called.
//
// Assumption: variables come from LET, FOR and the initial variables. A tool that binds or
// changes variables through context.setVar is invisible here (pass such names as variables).
//
// The walk is split by what it visits: this module checks statements, over expressions.ts
// (expressions), calls.ts (calls) and checker-state.ts (what is known, and the problems found).
import type * as A from '../syntax/ast.js';
import { isStandIn } from '../syntax/nodes.js';
import { BUILTINS, EFFECT_BUILTINS } from '../runtime/builtins.js';
import { explicitCondition, keysLoop } from '../runtime/advice.js';
import { NuwaList } from '../values/values.js';
import type { ToolCatalog } from './arguments.js';
import { always } from './operations.js';
import type { Problem } from './problems.js';
import {
  ANY, BOOLEAN, constant, elementShape, LIST, listBound, never, NUMBER, OBJECT, ofTypes, only, type Shape,
} from './shapes.js';
import { safeProduct, type LoopFrame, type ReachableCall } from './checker-state.js';
import { RESULT_TYPES } from './calls.js';
import { ExpressionChecker } from './expressions.js';

export type { ReachableCall } from './checker-state.js';

export interface Analysis {
  problems: Problem[];
  calls: ReachableCall[];
}

export interface AnalyseOptions {
  /**
   * Check only what a node's own text decides (unknown tools and functions, argument names and
   * literal values, operations on literals...), as if every variable could hold anything, and
   * report no warnings: for the tree error recovery made of a script whose syntax errors were not
   * all repaired, where a statement may be missing or misplaced (check/recovered.ts).
   */
  local?: boolean;
}

export function analyse(program: A.Program, tools: ToolCatalog, variables: Iterable<string>, options: AnalyseOptions = {}): Analysis {
  const checker = new Checker(tools, variables, options.local === true);
  checker.block(program.body);
  return { problems: checker.problems.sorted(), calls: checker.calls };
}

class Checker extends ExpressionChecker {
  /** Checks statements in order; true when running them certainly fails. */
  block(statements: readonly A.Statement[]): boolean {
    const times = this.times;
    let failure: A.Statement | null = null;
    for (const statement of statements) {
      if (failure !== null && this.times !== 0) {
        this.warning('UnreachableCode', `this never runs: the statement at line ${failure.line} certainly fails first`, statement);
        this.times = 0;
      }
      if (this.statement(statement) && failure === null) failure = statement;
    }
    this.times = times;
    return failure !== null;
  }

  /** Checks one statement; true when it certainly fails whenever it runs. */
  private statement(node: A.Statement): boolean {
    this.failed = false;
    if (isStandIn(node)) return false; // text error recovery skipped: nothing is known of it
    switch (node.type) {
      case 'Let': {
        this.letTarget = node.name;
        this.letTargetRead = false;
        const shape = this.expression(node.value);
        this.letTarget = null;
        this.assign(node, shape, this.letTargetRead);
        return this.failed;
      }
      case 'ExpressionStatement':
        this.expression(node.expression);
        this.discarded(node.expression);
        return this.failed;
      case 'If':
        return this.ifStatement(node);
      case 'For':
        return this.forStatement(node);
    }
  }

  private ifStatement(node: A.IfStatement): boolean {
    const condition = this.expression(node.condition);
    let fails = this.failed;
    if (never(condition, BOOLEAN)) {
      const explicit = explicitCondition(node.condition, soleType(condition));
      this.error(
        'InvalidConditionError',
        `an IF condition must be true or false, but ${always('this one', condition)}: compare explicitly, ${explicit === undefined ? 'e.g. IF x != null THEN or IF LEN(items) > 0 THEN' : `write IF ${explicit} THEN`}`,
        node.condition,
      );
      fails = true;
    }
    const runsThen = !fails && condition.value !== false;
    const runsElse = !fails && condition.value !== true;
    const entry = this.state;
    const { times, dead } = this;

    const afterThen = (this.state = entry.child());
    this.times = runsThen ? times : 0;
    this.dead = dead || condition.value === false;
    const thenFails = this.block(node.consequent);

    const afterElse = (this.state = entry.child());
    this.times = runsElse ? times : 0;
    this.dead = dead || condition.value === true;
    const elseFails = node.alternate ? this.block(node.alternate) : false;
    this.times = times;
    this.dead = dead;
    this.state = entry;

    // Only the branches that can run and finish lead past the IF.
    const continuing = [runsThen && !thenFails ? afterThen : null, runsElse && !elseFails ? afterElse : null].filter((b) => b !== null);
    entry.merge(continuing.length === 0 ? [afterThen, afterElse] : continuing);
    return fails || continuing.length === 0;
  }

  private forStatement(node: A.ForStatement): boolean {
    const iterable = this.expression(node.iterable);
    let fails = this.failed;
    if (never(iterable, LIST)) {
      const hint = only(iterable, OBJECT) ? `: to loop over an object's keys, write ${keysLoop(node.variable, node.iterable)}` : '';
      this.error('InvalidIterableError', `FOR needs a list to loop over, but ${always('this', iterable)}${hint}`, node.iterable);
      fails = true;
    }

    // The body may run many times: what it assigns to outer variables is not known at its start
    // (nor after the loop). Which variables are bound does not change: a LET in the body either
    // updates a binding that exists, or creates one that ends with the iteration.
    // What is known is the type, when every LET of the name in the body makes a value of known type
    // (`LET xs = APPEND(xs, x)` keeps a list a list).
    const entry = this.state;
    for (const [name, types] of assignedIn(node)) {
      const outer = entry.get(name);
      if (outer === undefined || outer.shape === ANY) continue;
      entry.set(name, { bound: outer.bound, shape: types === undefined ? ANY : ofTypes(outer.shape.types | types) });
    }
    const body = (this.state = entry.child());
    body.set(node.variable, { bound: 'yes', shape: elementShape(iterable) });

    const { times, dead } = this;
    const bound = fails ? 0 : listBound(iterable);
    this.times = times === 0 || bound === 0 ? 0 : times === null || bound === undefined ? null : safeProduct(times, bound);
    this.dead = dead || (!fails && bound === 0);
    const frame: LoopFrame = { variable: node.variable, locals: new Set([node.variable]), unread: new Map() };
    this.frames.push(frame);
    const bodyFails = this.block(node.body);
    this.frames.pop();
    this.times = times;
    this.dead = dead;

    for (const [name, let_] of frame.unread) {
      const close = this.suggest(name, entry);
      this.warning(
        'UnusedVariable',
        `\`${name}\` is set but never read: a variable first set inside a FOR body disappears at the end of each iteration${close}`,
        let_,
      );
    }
    for (const name of body.changed()) {
      if (entry.get(name) === undefined) this.departed.set(name, { loopLine: node.line, loopVariable: name === node.variable });
    }
    this.state = entry;
    const runsAtLeastOnce = iterable.value instanceof NuwaList && iterable.value.length > 0;
    return fails || (bodyFails && runsAtLeastOnce);
  }

  private assign(node: A.LetStatement, shape: Shape, readsItself: boolean): void {
    const { name } = node;
    const frame = this.frames[this.frames.length - 1];
    if (frame !== undefined && this.state.get(name) === undefined) {
      // Certainly unbound before: this LET creates a variable of the current iteration. (When its
      // value reads the name, the unbound read is the problem to report, not the unused result.)
      frame.locals.add(name);
      if (!frame.unread.has(name) && !readsItself) frame.unread.set(name, node);
    }
    this.state.set(name, { bound: 'yes', shape });
  }

  /** A statement whose value nobody uses: fine for CALL and PRINT, a likely mistake otherwise. */
  private discarded(expression: A.Expression): void {
    if (expression.type === 'Call') return;
    if (expression.type === 'FunctionCall') {
      if (!BUILTINS.has(expression.name) || EFFECT_BUILTINS.has(expression.name)) return;
      const first = expression.arguments[0];
      const example = first?.type === 'Variable' ? `LET ${first.name} = ${expression.name}(${first.name}, ...)` : `LET result = ${expression.name}(...)`;
      this.warning(
        'DiscardedResult',
        `the result of ${expression.name} is thrown away: built-ins change nothing, they return a new value; keep it, e.g. ${example}`,
        expression,
      );
      return;
    }
    this.warning('DiscardedResult', 'the value of this expression is thrown away: keep it with LET name = ..., or PRINT it', expression);
  }
}

/** The one type a shape allows, by its name, if it allows only one. */
function soleType(shape: Shape): 'list' | 'string' | 'number' | 'object' | 'null' | 'boolean' | undefined {
  const names = { 16: 'list', 8: 'string', 4: 'number', 32: 'object', 1: 'null', 2: 'boolean' } as const;
  return names[shape.types as keyof typeof names];
}

// The variables a FOR body assigns with LET (at any depth), other than its own loop variable.
const assignedCache = new WeakMap<A.ForStatement, ReadonlyMap<string, number | undefined>>();

function assignedIn(loop: A.ForStatement): ReadonlyMap<string, number | undefined> {
  let names = assignedCache.get(loop);
  if (names === undefined) {
    const found = new Map<string, number | undefined>();
    collectAssigned(loop.body, found);
    found.delete(loop.variable);
    names = found;
    assignedCache.set(loop, names);
  }
  return names;
}

/** The names the statements assign, each with the types of the values its LETs make (undefined: not known). */
function collectAssigned(statements: readonly A.Statement[], into: Map<string, number | undefined>): void {
  const add = (name: string, types: number | undefined) => {
    const known = into.has(name) ? into.get(name) : 0;
    into.set(name, known === undefined || types === undefined ? undefined : known | types);
  };
  for (const statement of statements) {
    if (statement.type === 'Let') add(statement.name, resultTypes(statement.value));
    else if (statement.type === 'If') {
      collectAssigned(statement.consequent, into);
      if (statement.alternate) collectAssigned(statement.alternate, into);
    } else if (statement.type === 'For') {
      for (const [name, types] of assignedIn(statement)) add(name, types);
    }
  }
}

/**
 * The types a value can have when the expression yields one at all, from its form alone (operators
 * and built-ins have one result type); undefined when that depends on what its names hold.
 */
function resultTypes(node: A.Expression): number | undefined {
  switch (node.type) {
    case 'Literal':
      return constant(node.value).types;
    case 'List':
    case 'Comprehension':
      return LIST;
    case 'Object':
      return OBJECT;
    case 'Logical':
      return BOOLEAN;
    case 'Unary':
      return node.operator === 'NOT' ? BOOLEAN : NUMBER;
    case 'Binary':
      return ['+', '-', '*', '/', '%'].includes(node.operator) ? NUMBER : BOOLEAN;
    case 'FunctionCall':
      return BUILTINS.has(node.name) ? RESULT_TYPES.get(node.name)?.types : undefined;
    default:
      return undefined;
  }
}
