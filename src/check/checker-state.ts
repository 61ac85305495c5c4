// What the static checker's walk knows at each point, and how it reports: the bindings of the
// variables on the current path, the FOR bodies and comprehensions around the code being checked,
// how many times that code can run and whether it can run at all, and the problems and reachable
// CALLs found so far. The walk itself is split by what it visits: statements (checker.ts),
// expressions (expressions.ts) and calls (calls.ts), each a layer over this one.
import type * as A from '../syntax/ast.js';
import { isStandIn } from '../syntax/nodes.js';
import type { ErrorKind, Position } from '../errors.js';
import { didYouMean } from '../util/suggest.js';
import type { ConfirmLevel } from '../tools/types.js';
import { Bindings, type Binding } from './bindings.js';
import type { CheckedTool, ToolCatalog } from './arguments.js';
import type { Finding } from './operations.js';
import { ProblemList, type WarningKind } from './problems.js';
import { ANY, type Shape } from './shapes.js';

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

/** A FOR body being checked: its loop variable and the variables it creates, not yet read. */
export interface LoopFrame {
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

export abstract class CheckerState {
  readonly problems = new ProblemList();
  readonly calls: ReachableCall[] = [];
  protected state = new Bindings();
  protected readonly frames: LoopFrame[] = [];
  protected readonly departed = new Map<string, Departed>();
  /** How many times the code being checked can run: 0 never, null unknown. */
  protected times: number | null = 1;
  /** How many comprehension elements enclose the code being checked (its CALLs may run concurrently). */
  protected elements = 0;
  /**
   * Code that can never run whatever happens (a branch of a constant condition, a loop over an empty
   * list): what would fail there is only a warning, since the script can still succeed. Code after
   * a certain failure is unreachable too, but its errors are the author's next ones to fix.
   */
  protected dead = false;
  /** Whether the statement being checked has certainly failed by the current point. */
  protected failed = false;
  /** The variable the enclosing LET assigns, for the hint on `LET total = total + x`. */
  protected letTarget: string | null = null;
  /** Whether the enclosing LET's value reads the variable it assigns. */
  protected letTargetRead = false;
  /**
   * "Did you mean" compares a name with every variable in scope: a script with thousands of
   * problems and of variables gets suggestions on its first problems only, so checking stays fast.
   */
  protected suggestionsLeft = 100;

  constructor(
    protected readonly tools: ToolCatalog,
    variables: Iterable<string>,
    protected readonly local = false,
  ) {
    for (const name of variables) this.state.set(name, ALWAYS_BOUND);
  }

  // --- reporting ------------------------------------------------------------------------------

  /** An error, or a warning in code that can never run. */
  protected error(kind: ErrorKind, message: string, at: Position): void {
    if (this.dead) {
      if (!this.local) this.problems.add(kind, `${message} (this code never runs)`, at, 'warning');
    } else {
      this.problems.add(kind, message, at, 'error');
      this.failed = true;
    }
  }

  protected finding(finding: Finding | undefined, at: Position): void {
    if (finding) this.error(finding.kind, finding.message, at);
  }

  protected warning(kind: WarningKind | 'UndefinedVariableError', message: string, at: Position): void {
    if (!this.local) this.problems.add(kind, message, at, 'warning');
  }

  protected suggest(name: string, bindings: Bindings): string {
    if (this.suggestionsLeft <= 0) return '';
    this.suggestionsLeft--;
    return didYouMean(name, bindings.names());
  }

  /** The shape of an expression's value, reporting what certainly fails in it (expressions.ts). */
  protected abstract expression(node: A.Expression): Shape;
}

/** Whether every key of an object literal is known: none stands in for text error recovery skipped. */
export function knownKeys(node: A.ObjectExpression): boolean {
  return !isStandIn(node) && node.properties.every((property) => !isStandIn(property));
}

/** a × b, or null (unknown) when the product is too large to count exactly. */
export function safeProduct(a: number, b: number): number | null {
  const product = a * b;
  return Number.isSafeInteger(product) ? product : null;
}
