// The static checker: one walk over the AST, in evaluation order, that follows LANGUAGE.md §3's
// scoping exactly and tracks what is known of each variable on every path (bindings.ts, shapes.ts),
// with the runtime's own operators, messages and argument validator deciding what fails. It reports
// problems and records every CALL the script can reach with how many times it can run there (the
// raw material of a plan). A pure function of the program, the tools' schemas and the names of
// the initial variables: nothing runs, and the tools' functions are never called.
//
// Assumption: variables come from LET, FOR and the initial variables. A tool that binds or
// changes variables through context.setVar is invisible here (pass such names as variables).
import type * as A from '../syntax/ast.js';
import { isStandIn } from '../syntax/nodes.js';
import type { ErrorKind, Position } from '../errors.js';
import { nameHint } from '../syntax/hints.js';
import { arityError, BUILTINS, EFFECT_BUILTINS } from '../runtime/builtins.js';
import { evaluateCalc } from '../runtime/calc.js';
import { compileSync, unknownFunction } from '../runtime/evaluator.js';
import { invalidArgumentsMessage, unknownToolMessage } from '../tools/hints.js';
import { explicitCondition, formatListHint, keysLoop, placeholderHint } from '../runtime/advice.js';
import { didYouMean } from '../util/suggest.js';
import { NuwaError } from '../errors.js';
import { NuwaList, NuwaObject, objectOf, setJsonKey, toJson } from '../values/values.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { confirmOf } from '../tools/build.js';
import type { ConfirmLevel } from '../tools/types.js';
import { Bindings, type Binding } from './bindings.js';
import { certainArgumentProblems, type CheckedTool, type StaticArgument, type ToolCatalog } from './arguments.js';
import { always, binary, indexOf, logicalSide, memberOf, unary, type Finding } from './operations.js';
import { ProblemList, type Problem, type WarningKind } from './problems.js';
import {
  ANY, BOOLEAN, constant, elementShape, fromSchema, join, LIST, listBound, never, NULL, NUMBER, OBJECT, ofTypes, only, STRING, type Shape,
} from './shapes.js';

/** A CALL the script can reach, and at most how many times it runs there (null: unknown). */
export interface ReachableCall {
  node: A.CallExpression;
  tool: CheckedTool;
  maxCount: number | null;
  /** The call's risk level: the tool's, or what its confirmFor answers when every argument is a literal. */
  confirm: ConfirmLevel;
  /** Inside a list comprehension's element (or its IF): its runs may overlap (DURABLE.md §4). */
  concurrent: boolean;
}

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


/**
 * The risk level a plan shows for a CALL. A tool whose level depends on its arguments (confirmFor)
 * is judged on them only when every argument is a literal, so that the run sees exactly that call;
 * otherwise the plan shows the tool's own level, the highest it can take.
 */
function plannedConfirm(tool: CheckedTool, args: readonly StaticArgument[]): ConfirmLevel {
  if (tool.confirmFor === undefined || args.some((arg) => arg.value === undefined)) return tool.confirm;
  const given: JsonObject = {};
  for (const { key, value } of args) setJsonKey(given, key, value!);
  // The validator fills the defaults in (the arguments passed certainArgumentProblems already).
  return tool.validateArguments(given) === null ? confirmOf(tool, given) : tool.confirm;
}

/** A FOR body being checked: its loop variable and the variables it creates, not yet read. */
interface LoopFrame {
  readonly variable: string;
  readonly locals: Set<string>;
  readonly unread: Map<string, A.LetStatement>;
}

/** Why a name is unbound although the script did bind it somewhere: for the message's hint. */
interface Departed {
  loopLine: number;
  loopVariable: boolean;
  /** Bound by a list comprehension (at loopLine), not a FOR. */
  comprehension?: boolean;
}

const ALWAYS_BOUND: Binding = { bound: 'yes', shape: ANY };

class Checker {
  readonly problems = new ProblemList();
  readonly calls: ReachableCall[] = [];
  private state = new Bindings();
  private readonly frames: LoopFrame[] = [];
  private readonly departed = new Map<string, Departed>();
  /** How many times the code being checked can run: 0 never, null unknown. */
  private times: number | null = 1;
  /** How many comprehension elements enclose the code being checked (its CALLs may run concurrently). */
  private elements = 0;
  /**
   * Code that can never run whatever happens (a branch of a constant condition, a loop over an empty
   * list): what would fail there is only a warning, since the script can still succeed. Code after
   * a certain failure is unreachable too, but its errors are the author's next ones to fix.
   */
  private dead = false;
  /** Whether the statement being checked has certainly failed by the current point. */
  private failed = false;
  /** The variable the enclosing LET assigns, for the hint on `LET total = total + x`. */
  private letTarget: string | null = null;
  /** Whether the enclosing LET's value reads the variable it assigns. */
  private letTargetRead = false;
  /**
   * "Did you mean" compares a name with every variable in scope: a script with thousands of
   * problems and of variables gets suggestions on its first problems only, so checking stays fast.
   */
  private suggestionsLeft = 100;

  constructor(
    private readonly tools: ToolCatalog,
    variables: Iterable<string>,
    private readonly local = false,
  ) {
    for (const name of variables) this.state.set(name, ALWAYS_BOUND);
  }

  // --- reporting ------------------------------------------------------------------------------

  /** An error, or a warning in code that can never run. */
  private error(kind: ErrorKind, message: string, at: Position): void {
    if (this.dead) {
      if (!this.local) this.problems.add(kind, `${message} (this code never runs)`, at, 'warning');
    } else {
      this.problems.add(kind, message, at, 'error');
      this.failed = true;
    }
  }

  private finding(finding: Finding | undefined, at: Position): void {
    if (finding) this.error(finding.kind, finding.message, at);
  }

  private warning(kind: WarningKind | 'UndefinedVariableError', message: string, at: Position): void {
    if (!this.local) this.problems.add(kind, message, at, 'warning');
  }

  // --- statements -----------------------------------------------------------------------------

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

  // --- expressions ----------------------------------------------------------------------------

  private expression(node: A.Expression): Shape {
    if (isStandIn(node)) return ANY;
    switch (node.type) {
      case 'Literal':
        return constant(node.value);
      case 'Variable':
        return this.read(node);
      case 'List':
        return this.list(node);
      case 'Comprehension':
        return this.comprehension(node);
      case 'Object':
        return this.object(node);
      case 'Unary': {
        const outcome = unary(node, this.expression(node.operand));
        this.finding(outcome.error, node);
        return outcome.shape;
      }
      case 'Binary':
      case 'Logical':
      case 'Member':
      case 'Index':
        return this.chain(node);
      case 'Call':
        return this.toolCall(node);
      case 'Calc':
        return this.calc(node);
      case 'FunctionCall':
        return this.functionCall(node);
    }
  }

  /**
   * Binary operators and postfix accesses lean left, as deep as a chain is long (thousands of
   * links are legal): walked as a loop from the innermost operand out, never by recursion.
   */
  private chain(top: A.BinaryExpression | A.LogicalExpression | A.MemberExpression | A.IndexExpression): Shape {
    const links: Array<A.BinaryExpression | A.LogicalExpression | A.MemberExpression | A.IndexExpression> = [];
    let base: A.Expression = top;
    while (base.type === 'Binary' || base.type === 'Logical' || base.type === 'Member' || base.type === 'Index') {
      links.push(base);
      base = base.type === 'Binary' || base.type === 'Logical' ? base.left : base.object;
    }
    // A link after one that certainly fails never runs, and its error would repeat the mistake
    // (`"a" + x + "b"` is one string joined with `+`, `o.a.b` one missing key): only the first link
    // of a chain that fails is reported. An operand's own failure (`"a" + str(n)`) is another mistake,
    // and the link is still reported: fixing the operand leaves it.
    const failedBefore = this.failed;
    this.failed = false;
    let shape = this.expression(base);
    let failed = this.failed;
    let linkFailed = false;
    let subjectNode: A.Expression = base;
    for (let i = links.length - 1; i >= 0; i--) {
      const node = links[i]!;
      this.failed = false;
      let error: Finding | undefined;
      switch (node.type) {
        case 'Binary': {
          const outcome = binary(node, shape, this.expression(node.right));
          if (!guessed(node.left, node.right)) error = outcome.error;
          shape = outcome.shape;
          break;
        }
        case 'Logical':
          shape = this.logical(node, shape);
          break;
        case 'Member': {
          const outcome = memberOf(node, shape, subject(subjectNode));
          error = outcome.error;
          shape = outcome.shape;
          break;
        }
        case 'Index': {
          const outcome = indexOf(node, shape, this.expression(node.index), subject(subjectNode));
          if (!guessed(node.object, node.index)) error = outcome.error;
          shape = outcome.shape;
          break;
        }
      }
      if (!linkFailed) this.finding(error, node);
      linkFailed = linkFailed || error !== undefined;
      failed = failed || this.failed;
      subjectNode = node;
    }
    this.failed = failedBefore || failed;
    return shape;
  }

  /** AND / OR: the right side runs only when the left does not decide. */
  private logical(node: A.LogicalExpression, left: Shape): Shape {
    const operandGuessed = guessed(node.left, node.right);
    if (!operandGuessed) this.finding(logicalSide(node.operator, 'left', left), node);
    const decisive = node.operator === 'OR';
    const skipped = left.value === decisive;
    const certain = left.value === !decisive;
    const { times, dead } = this;
    const failedBefore = this.failed;
    if (skipped) {
      this.times = 0;
      this.dead = true;
    }
    const right = this.expression(node.right);
    if (!operandGuessed) this.finding(logicalSide(node.operator, 'right', right), node);
    this.times = times;
    this.dead = dead;
    // A failure on the right stops the script only when the right side certainly runs.
    if (!certain) this.failed = failedBefore;
    if (skipped) return constant(decisive);
    if (certain && typeof right.value === 'boolean') return constant(right.value);
    return ofTypes(BOOLEAN);
  }

  private read(node: A.Variable): Shape {
    const { name } = node;
    if (this.local) return ANY;
    this.markRead(name);
    if (name === this.letTarget) this.letTargetRead = true;
    const binding = this.state.get(name);
    if (binding === undefined) {
      this.error('UndefinedVariableError', this.unboundMessage(name), node);
      return ANY;
    }
    if (binding.bound === 'maybe') {
      this.warning(
        'UndefinedVariableError',
        `\`${name}\` may not be defined here: some paths to this point set it and others do not (an IF without ELSE, or only one branch): set it before the IF, or on every path`,
        node,
      );
    }
    return binding.shape;
  }

  private markRead(name: string): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!;
      if (frame.unread.delete(name) || frame.locals.has(name)) return;
    }
  }

  private unboundMessage(name: string): string {
    let message = `\`${name}\` is not defined here: no LET sets it before this point`;
    const departed = this.departed.get(name);
    let hint = nameHint(name);
    if (!hint && BUILTINS.has(name)) hint = `${name} is a function: call it as ${BUILTINS.get(name)!.usage}`;
    if (!hint && this.letTarget === name) hint = `LET ${name} = ... reads ${name} before it has a value: set it first, e.g. LET ${name} = 0`;
    if (!hint && departed?.comprehension) {
      hint = `\`${name}\` is the variable of the list comprehension at line ${departed.loopLine}: it exists only inside its brackets`;
    } else if (!hint && departed !== undefined) {
      hint = departed.loopVariable
        ? `\`${name}\` is the loop variable of the FOR at line ${departed.loopLine}: it exists only inside that loop`
        : `\`${name}\` is first set inside the FOR body at line ${departed.loopLine}, and such variables disappear at the end of each iteration: set it before the loop to keep its value`;
    }
    if (hint) return `${message}; ${hint}`;
    return message + this.suggest(name, this.state);
  }

  private suggest(name: string, bindings: Bindings): string {
    if (this.suggestionsLeft <= 0) return '';
    this.suggestionsLeft--;
    return didYouMean(name, bindings.names());
  }

  private list(node: A.ListExpression): Shape {
    const shapes = node.elements.map((element) => this.expression(element));
    if (shapes.every((s) => s.value !== undefined)) return constant(NuwaList.from(shapes.map((s) => s.value!)));
    const items = shapes.reduce<Shape | undefined>((acc, s) => (acc === undefined ? s : join(acc, s)), undefined);
    return items === undefined || items === ANY ? { types: LIST, maxItems: shapes.length } : { types: LIST, maxItems: shapes.length, items };
  }

  /**
   * `[element FOR x IN list IF condition]`: the list once, then the condition and the element as a
   * FOR body, as many times as the list has items, with `x` bound in a layer of their own.
   */
  private comprehension(node: A.ComprehensionExpression): Shape {
    const iterable = this.expression(node.iterable);
    let fails = false;
    if (never(iterable, LIST)) {
      const hint = only(iterable, OBJECT) ? `: to go over an object's keys, write [... FOR key IN KEYS(obj)]` : '';
      this.error('InvalidIterableError', `a list comprehension needs a list to go over (FOR ${node.variable} IN list), but ${always('this', iterable)}${hint}`, node.iterable);
      fails = true;
    }
    const entry = this.state;
    this.state = entry.child();
    this.state.set(node.variable, { bound: 'yes', shape: elementShape(iterable) });
    const { times, dead } = this;
    const failedBefore = this.failed;
    const bound = fails ? 0 : listBound(iterable);
    this.times = times === 0 || bound === 0 ? 0 : times === null || bound === undefined ? null : safeProduct(times, bound);
    this.dead = dead || (!fails && bound === 0);
    // A read of the variable is this comprehension's, whatever a FOR body around it set.
    this.frames.push({ variable: node.variable, locals: new Set([node.variable]), unread: new Map() });
    this.elements++;

    let kept = true;
    if (node.condition !== null) {
      const condition = this.expression(node.condition);
      if (never(condition, BOOLEAN)) {
        this.error(
          'InvalidConditionError',
          `the IF condition of a list comprehension must be true or false, but ${always('this one', condition)}: compare explicitly, e.g. [x FOR x IN xs IF x != null]`,
          node.condition,
        );
      }
      kept = condition.value !== false;
      if (!kept) {
        this.times = 0;
        this.dead = true;
      }
    }
    const element = this.expression(node.element);

    this.elements--;
    this.frames.pop();
    this.times = times;
    this.dead = dead;
    this.state = entry;
    if (entry.get(node.variable) === undefined) {
      this.departed.set(node.variable, { loopLine: node.line, loopVariable: true, comprehension: true });
    }
    // What fails inside fails the statement only when an element certainly runs.
    const runsAtLeastOnce = iterable.value instanceof NuwaList && iterable.value.length > 0;
    if (!fails && !runsAtLeastOnce) this.failed = failedBefore;
    const maxItems = fails ? 0 : kept ? bound : 0;
    const out: { -readonly [K in keyof Shape]: Shape[K] } = { types: LIST };
    if (maxItems !== undefined) out.maxItems = maxItems;
    if (kept && element !== ANY) out.items = element;
    return out;
  }

  private object(node: A.ObjectExpression): Shape {
    const shapes = node.properties.map((p) => this.expression(p.value));
    if (!shapes.every((s) => s.value !== undefined) || !knownKeys(node)) return ofTypes(OBJECT);
    return constant(objectOf(node.properties.map((p, i) => [p.key, shapes[i]!.value!] as const)));
  }

  private functionCall(node: A.FunctionCall): Shape {
    const shapes = node.arguments.map((argument) => this.expression(argument));
    const builtin = BUILTINS.get(node.name);
    if (builtin === undefined) {
      this.error('UnknownFunctionError', unknownFunction(node, { hasTool: (name) => this.tools.lookup(name) !== undefined }).message, node);
    } else if (node.arguments.some(isStandIn)) {
      // An argument recovery made up, or skipped: the count is a guess.
    } else if (node.arguments.length < builtin.minArgs || node.arguments.length > builtin.maxArgs) {
      this.error('FunctionArgumentError', arityError(builtin, node.arguments.length, node).message, node);
    } else if (node.name === 'FORMAT') {
      this.format(node, shapes);
    }
    return builtin === undefined ? ANY : (RESULT_TYPES.get(node.name) ?? ANY);
  }

  /**
   * FORMAT with a template the text fixes: each placeholder must name a key of its values, when
   * the keys are known (an object literal's, or a known object's), and the values must be an
   * object, not a list. Reported at the literal at fault, with the message the run would give.
   */
  private format(node: A.FunctionCall, [template, values]: Shape[]): void {
    if (typeof template?.value !== 'string') return;
    const valuesNode = node.arguments[1];
    if (values !== undefined && only(values, LIST)) {
      this.error('FunctionArgumentError', `FORMAT expects an object of values second, got a list${formatListHint(node)}`, valuesNode!);
      return;
    }
    let keys: Map<string, Shape> | undefined;
    if (values === undefined) keys = new Map();
    else if (values.value instanceof NuwaObject) {
      const object = values.value;
      keys = new Map([...object.keys()].map((key) => [key, constant(object.get(key)!)]));
    }
    else if (valuesNode?.type === 'Object' && knownKeys(valuesNode)) keys = new Map(valuesNode.properties.map((p) => [p.key, ANY]));
    if (keys === undefined) return;
    const described = keys.size === 0 ? 'is empty' : `has keys ${[...keys.keys()].slice(0, 20).join(', ')}`;
    for (const [, path] of template.value.matchAll(PLACEHOLDER)) {
      if (path === undefined) continue;
      const [root, ...rest] = path.split('.');
      let shape = keys.get(root!);
      if (shape === undefined) {
        this.error('FunctionArgumentError', `FORMAT has no value for {${path}}: the values object ${described}${placeholderHint(path, [...keys.keys()], valuesNode)}`, node.arguments[0]!);
        return;
      }
      for (const name of rest) {
        if (!(shape.value instanceof NuwaObject)) break;
        const next = shape.value.get(name);
        if (next === undefined) {
          this.error('FunctionArgumentError', `FORMAT has no value for {${path}}: ${root} has keys ${[...shape.value.keys()].slice(0, 20).join(', ')}${didYouMean(name, shape.value.keys())}`, node.arguments[0]!);
          return;
        }
        shape = constant(next);
      }
    }
  }

  private toolCall(node: A.CallExpression): Shape {
    const args = node.arguments.properties.map((p) => ({ key: p.key, value: jsonOf(this.expression(p.value)) }));
    const tool = this.tools.lookup(node.tool);
    if (tool === undefined) {
      this.error('ToolNotFoundError', unknownToolMessage(node.tool, this.tools.names()), node);
      return ANY;
    }
    // Arguments error recovery could not read: nothing is certain about them.
    if (!knownKeys(node.arguments)) return fromSchema(tool.returnsSchema, `the declared result of \`${tool.name}\``);
    const problems = certainArgumentProblems(tool, args);
    if (problems.length > 0) {
      this.error('ToolArgumentError', invalidArgumentsMessage(tool.name, problems), node);
      return ANY; // the tool never runs: nothing to plan
    }
    if (this.times !== 0) this.calls.push({ node, tool, maxCount: this.times, confirm: plannedConfirm(tool, args), concurrent: this.elements > 0 });
    return fromSchema(tool.returnsSchema, `the declared result of \`${tool.name}\``);
  }

  /**
   * CALC: with a literal formula and known `vars` keys, the runtime's own CALC reads the formula
   * (values computed at run time stand in as 1), so a formula that does not parse or names a
   * missing variable is reported as the run would report it.
   */
  private calc(node: A.CalcExpression): Shape {
    if (!knownKeys(node.arguments)) {
      for (const property of node.arguments.properties) this.expression(property.value);
      return ofTypes(NUMBER | BOOLEAN);
    }
    const input = new NuwaObject();
    let readable = true;
    let allKnown = true;
    for (const property of node.arguments.properties) {
      if (property.key === 'vars' && property.value.type === 'Object') {
        if (!knownKeys(property.value)) readable = false;
        // Each value on its own: the keys are known even where the values are not.
        const vars = new NuwaObject();
        for (const entry of property.value.properties) {
          const value = this.expression(entry.value).value;
          if (value === undefined) allKnown = false;
          vars.set(entry.key, value ?? 1);
        }
        input.set('vars', vars.seal());
        continue;
      }
      const value = this.expression(property.value).value;
      if (value === undefined) {
        allKnown = false;
        if (property.key === 'formula' || property.key === 'vars') readable = false;
      }
      input.set(property.key, value ?? 1);
    }
    const result = ofTypes(NUMBER | BOOLEAN);
    if (!readable) return result;
    try {
      const value = evaluateCalc(input.seal(), node, undefined as never, compileSync);
      return allKnown ? constant(value) : result;
    } catch (error) {
      if (error instanceof NuwaError && (allKnown || error.kind === 'CalcError')) this.error(error.kind, error.message, node);
      return result;
    }
  }
}

// A FORMAT placeholder (runtime/builtins-text.ts): `{{`, `}}`, or `{name}` / `{name.field}`.
const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g;

/**
 * Whether an operation's operand stands in for text error recovery skipped or made up: then the
 * operator itself may be a piece of the mistake (`total +` at the end of a line), so its failure is
 * no finding.
 */
function guessed(...operands: A.Expression[]): boolean {
  return operands.some(isStandIn);
}

/**
 * What a built-in returns when it returns at all (LANGUAGE.md §5, §8): a run that gets past the call
 * has a value of this type, so `KEYS(o).length` is certainly a mistake.
 */
const RESULT_TYPES: ReadonlyMap<string, Shape> = new Map([
  ...['LEN', 'NOW', 'NUMBER', 'ROUND', 'FLOOR', 'CEIL', 'ABS', 'MIN', 'MAX', 'SUM'].map((name) => [name, ofTypes(NUMBER)] as const),
  ...['FORMAT', 'STR', 'TYPE', 'JOIN', 'UPPER', 'LOWER', 'TRIM', 'REPLACE'].map((name) => [name, ofTypes(STRING)] as const),
  ...['KEYS', 'APPEND', 'SPLIT', 'SORT', 'REVERSE', 'RANGE'].map((name) => [name, ofTypes(LIST)] as const),
  ['CONTAINS', ofTypes(BOOLEAN)],
  ['SLICE', ofTypes(LIST | STRING)],
  ['SET', ofTypes(OBJECT)],
  ['PRINT', ofTypes(NULL)],
]);

/** The one type a shape allows, by its name, if it allows only one. */
function soleType(shape: Shape): 'list' | 'string' | 'number' | 'object' | 'null' | 'boolean' | undefined {
  const names = { 16: 'list', 8: 'string', 4: 'number', 32: 'object', 1: 'null', 2: 'boolean' } as const;
  return names[shape.types as keyof typeof names];
}

/** Whether every key of an object literal is known: none stands in for text error recovery skipped. */
function knownKeys(node: A.ObjectExpression): boolean {
  return !isStandIn(node) && node.properties.every((property) => !isStandIn(property));
}

/** What `.x` or `[i]` is applied to, for messages: "`p`", "the result of `get_price`". */
function subject(node: A.Expression): string {
  if (node.type === 'Variable') return `\`${node.name}\``;
  if (node.type === 'Call') return `the result of \`${node.tool}\``;
  if (node.type === 'Member') return `\`.${node.property}\``;
  return 'the value';
}

function jsonOf(shape: Shape): JsonValue | undefined {
  if (shape.value === undefined) return undefined;
  try {
    return toJson(shape.value);
  } catch {
    return undefined; // too deep to convert: the run fails on it anyway, with its own error
  }
}

function safeProduct(a: number, b: number): number | null {
  const product = a * b;
  return Number.isSafeInteger(product) ? product : null;
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

