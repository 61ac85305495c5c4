// The static checker's walk over expressions: the shape of each value, in evaluation order,
// with what certainly fails reported where the run would fail. Chains of operators and accesses
// are walked as loops, the right side of AND / OR and a comprehension's element as code that may
// not run, and a read of a variable against the bindings of the path it is on.
import type * as A from '../syntax/ast.js';
import { isStandIn } from '../syntax/nodes.js';
import { nameHint } from '../syntax/hints.js';
import { BUILTINS } from '../runtime/builtins.js';
import { NuwaList, objectOf } from '../values/values.js';
import { always, binary, indexOf, logicalSide, memberOf, unary, type Finding } from './operations.js';
import {
  ANY, BOOLEAN, constant, elementShape, join, LIST, listBound, never, OBJECT, ofTypes, only, type Shape,
} from './shapes.js';
import { knownKeys, safeProduct } from './checker-state.js';
import { CallChecker } from './calls.js';

export abstract class ExpressionChecker extends CallChecker {
  protected override expression(node: A.Expression): Shape {
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
}

/**
 * Whether an operation's operand stands in for text error recovery skipped or made up: then the
 * operator itself may be a piece of the mistake (`total +` at the end of a line), so its failure is
 * no finding.
 */
function guessed(...operands: A.Expression[]): boolean {
  return operands.some(isStandIn);
}

/** What `.x` or `[i]` is applied to, for messages: "`p`", "the result of `get_price`". */
function subject(node: A.Expression): string {
  if (node.type === 'Variable') return `\`${node.name}\``;
  if (node.type === 'Call') return `the result of \`${node.tool}\``;
  if (node.type === 'Member') return `\`.${node.property}\``;
  return 'the value';
}
