// The messages of "not defined" and "no such function" errors, which decide what the author (often a
// model) tries next, so each points at the likely fix before the generic advice: a keyword or
// literal written the wrong way, a tool used without CALL, a variable that only lived inside a loop,
// a counter never initialised. The facts about loops come from the program's AST, looked at only
// when an error is being built.
import type * as A from '../syntax/ast.js';
import { childrenOf } from '../syntax/ast.js';
import { builtinForMethod, expressionName, nameHint } from '../syntax/hints.js';
import { didYouMean } from '../util/suggest.js';
import { printExpression, printOr } from '../syntax/print.js';
import { BUILTINS } from './builtins.js';

export interface NameContext {
  /** Names bound where the error happened, for "did you mean". */
  visibleNames?: () => Iterable<string>;
  isTool?: (name: string) => boolean;
  /** The program being run, when known: where the name is set tells why it is missing. */
  program?: A.Program;
}

/** The message of an UndefinedVariableError for reading `node`. */
export function undefinedVariableMessage(node: A.Variable, context: NameContext = {}): string {
  const { name } = node;
  const notDefined = `\`${name}\` is not defined`;
  const hint = nameHint(name);
  if (hint) return `${notDefined}: ${hint}`;
  if (context.isTool?.(name)) return `\`${name}\` is a tool, not a variable: call it with CALL ${name} { ... }`;
  const builtin = BUILTINS.get(name);
  if (builtin) return `${notDefined}: ${name} is a function: call it as ${builtin.usage}`;
  const why = context.program && whereItIsSet(context.program, node);
  if (why) return why;
  return `${notDefined}: set it with LET ${name} = ... before reading it${didYouMean(name, context.visibleNames?.() ?? [])}`;
}

/**
 * `.length` on a list or string: point at LEN; `.price` on a list (of objects, most likely): the
 * first item's, or every item's. Empty when there is nothing better to say.
 */
export function memberHint(property: string, object: A.Expression, kind: 'list' | 'string' | undefined): string {
  if (kind === undefined) return '';
  if (builtinForMethod(property) === 'LEN') return `: for the length write LEN(${printOr(object, expressionName(object, '...'))})`;
  const list = printExpression(object);
  if (kind !== 'list' || list === undefined || builtinForMethod(property) !== undefined) return '';
  const initial = /^[A-Za-z]/.exec(expressionName(object, 'x'))?.[0]?.toLowerCase() ?? 'x';
  const item = initial === list ? 'item' : initial;
  const whole = object.type === 'Variable' || object.type === 'Member' || object.type === 'Index' ? list : `(${list})`;
  return `: it is a list: for its first item write ${whole}[0].${property}, for every item [${item}.${property} FOR ${item} IN ${list}]`;
}

// ---------------------------------------------------------------------------------------------
// Where a name is set, relative to where it was read

type Parent = Map<A.Node, A.Node>;


/** Every node's parent, and the statements that bind `name` (iteratively: programs nest deep). */
function survey(program: A.Program, name: string): { parent: Parent; lets: A.LetStatement[]; loops: A.ForStatement[]; comprehensions: A.ComprehensionExpression[] } {
  const parent: Parent = new Map();
  const lets: A.LetStatement[] = [];
  const loops: A.ForStatement[] = [];
  const comprehensions: A.ComprehensionExpression[] = [];
  const stack: A.Node[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'Let' && node.name === name) lets.push(node);
    if (node.type === 'For' && node.variable === name) loops.push(node);
    if (node.type === 'Comprehension' && node.variable === name) comprehensions.push(node);
    for (const child of childrenOf(node)) {
      parent.set(child, node);
      stack.push(child);
    }
  }
  const byPosition = (a: A.Node, b: A.Node) => a.line - b.line || a.column - b.column;
  return { parent, lets: lets.sort(byPosition), loops, comprehensions };
}

function ancestors(node: A.Node, parent: Parent): A.Node[] {
  const out: A.Node[] = [];
  for (let at = parent.get(node); at !== undefined; at = parent.get(at)) out.push(at);
  return out;
}

function nearest<K extends A.Node['type']>(node: A.Node, parent: Parent, type: K): Extract<A.Node, { type: K }> | undefined {
  for (let at = parent.get(node); at !== undefined; at = parent.get(at)) if (at.type === type) return at as Extract<A.Node, { type: K }>;
  return undefined;
}

const isBefore = (a: A.NodeBase, b: A.NodeBase) => a.line < b.line || (a.line === b.line && a.column < b.column);

/** Why `read` finds no binding, from where its name is set in the program; undefined if unclear. */
function whereItIsSet(program: A.Program, read: A.Variable): string | undefined {
  const { name } = read;
  const { parent, lets, loops, comprehensions } = survey(program, name);
  if (!parent.has(read)) return undefined; // not a node of this program
  const readAncestors = new Set(ancestors(read, parent));
  const readLoop = nearest(read, parent, 'For');

  // LET count = count + 1, with nothing before it.
  const own = [...readAncestors].find((n): n is A.LetStatement => n.type === 'Let' && n.name === name);
  if (own && !lets.some((l) => l !== own && isBefore(l, own) && !insideLoopNotContaining(l, parent, readAncestors))) {
    const loop = nearest(own, parent, 'For');
    const start = `\`${name}\` is read before it has a value (LET ${name} = ${name} ... needs a first value)`;
    return loop
      ? `${start}: initialise it before the loop, e.g. LET ${name} = 0 above the FOR on line ${loop.line}; the LET inside the loop then updates it`
      : `${start}: initialise it first, e.g. LET ${name} = 0 on an earlier line`;
  }

  const loopVariable = loops.find((loop) => !readAncestors.has(loop));
  const here = `\`${name}\` is not defined here`;
  if (loopVariable) {
    return `${here}: it is the loop variable of the FOR on line ${loopVariable.line} and exists only inside that loop; to keep a value, set another variable before the loop (LET last = null) and update it inside (LET last = ${name})`;
  }
  const comprehension = comprehensions.find((c) => !readAncestors.has(c));
  if (comprehension && lets.length === 0) {
    return `${here}: it is the variable of the list comprehension on line ${comprehension.line} and exists only inside its brackets`;
  }

  for (const set of lets) {
    const loop = nearest(set, parent, 'For');
    if (loop && !readAncestors.has(loop)) {
      return `${here}: it was first set inside the FOR loop on line ${loop.line}, and a variable first set in a loop body disappears at the end of each iteration; write LET ${name} = ... before the loop (for example LET ${name} = 0 or []) and the LET inside the loop updates it`;
    }
    if (loop && loop === readLoop && !isBefore(set, read)) {
      return `${here}: it is set later in the loop body (line ${set.line}), and what a loop body sets lives only until the end of its iteration; LET ${name} = ... before the FOR on line ${loop.line} to carry a value from one iteration to the next`;
    }
  }
  const later = lets.find((set) => !isBefore(set, read));
  if (later && !lets.some((set) => isBefore(set, read))) return `${here}: it is first set on line ${later.line}, after this line; move LET ${name} = ... above where it is read`;
  const inBranch = lets.find((set) => isBefore(set, read) && nearest(set, parent, 'If') !== undefined && !readAncestors.has(nearest(set, parent, 'If')!));
  if (inBranch) {
    const branch = nearest(inBranch, parent, 'If')!;
    return `${here}: it is set only inside the IF on line ${branch.line}, and that branch did not run; LET ${name} = ... before the IF to give it a default`;
  }
  return undefined;
}

/** A LET inside a loop that does not contain the read: its binding is gone after the loop. */
function insideLoopNotContaining(set: A.LetStatement, parent: Parent, readAncestors: Set<A.Node>): boolean {
  const loop = nearest(set, parent, 'For');
  return loop !== undefined && !readAncestors.has(loop);
}

