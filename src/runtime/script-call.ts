// A script's CALL meeting the tool pipeline: where it stands (its position, run and scope) and the
// tool's view of the script's variables from there (context.getVar / setVar), handed to the one
// call path of tools/invoke.ts.
import { isNuwaError, NuwaError, type Position } from '../errors.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { fromJson, toJson, type Value } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import { Pending } from '../util/pending.js';
import type { CallSite, VariableAccess } from '../tools/call-host.js';
import { callTool } from '../tools/invoke.js';
import type { ScriptRun } from './script-run.js';
import type { ConcurrentElement, Scope } from './scope.js';

/**
 * A script's CALL: `andThen` of the tool's checked answer, at once when the tool returned a plain
 * value, else a promise of it (callTool in tools/invoke.ts).
 */
export function callFromScript<R>(
  run: ScriptRun,
  name: string,
  args: JsonObject,
  at: Position,
  scope: Scope,
  andThen: (value: Value, site: ScriptCallSite) => R,
): R | Pending | Promise<unknown> {
  const element = run.concurrentComprehensions > 0 ? scope.nearestElement() : null;
  const site = element === null ? new ScriptCallSite(at, run, scope) : new ElementCallSite(at, run, scope, element.signal);
  run.markScriptCall(site, name);
  if (element !== null) return callInElement(run, element, name, args, site, andThen);
  return callTool(run, name, args, site, 'value', andThen as (result: Value | JsonValue, site: CallSite) => R);
}

/**
 * A CALL in an element of a comprehension whose elements run concurrently (DURABLE.md §4): it takes
 * one of the run's call slots while its tool runs. A call that writes or needs approval first waits
 * for the element's turn (every element before it finished), so such calls never overlap and happen
 * in element order, one approval at a time. And the element goes on from every call only at its
 * turn: what it does after a call (NOW(), PRINT, its next call) happens in element order, the same in
 * every run whatever order the tools answer in — which is what lets a durable run replay it.
 */
async function callInElement<R>(run: ScriptRun, element: ConcurrentElement, name: string, args: JsonObject, site: ScriptCallSite, andThen: (value: Value, site: ScriptCallSite) => R): Promise<R> {
  const tool = run.registry.lookup(name);
  if (tool !== undefined && (tool.confirm === 'write' || tool.confirm === 'destructive' || run.needsApproval.has(tool.confirm))) await element.turn();
  const waiting = run.slots.take(element.signal);
  if (waiting !== undefined) await waiting;
  let value: Value;
  try {
    const answer = callTool(run, name, args, site, 'value');
    value = (answer instanceof Pending ? await answer.asPromise() : await answer) as Value;
  } finally {
    run.slots.give();
  }
  await element.turn();
  return andThen(value, site);
}

/**
 * The identity of a script's CALL (DURABLE.md §1), derived from where it stands, never from timing:
 * the `line:column` of its CALL keyword, then, for each FOR iteration and comprehension element it
 * is in, outermost first, `/` and the 0-based index of that item (`12:9`, `12:9/3`, `12:9/3/0`).
 * The indexes are those the scopes along `scope`'s chain were made for (Scope.itemIndex).
 */
export function callIdOf(at: Position, scope: Scope): string {
  let id = `${at.line}:${at.column}`;
  const path = scope.itemPath();
  for (let i = 0; i < path.length; i++) id += `/${path[i]}`;
  return id;
}

/**
 * A CALL in a script: its position, its run and scope (where the script goes on from it), and the
 * tool's view of the variables at that scope.
 */
export class ScriptCallSite implements CallSite, VariableAccess {
  /** The index of the item the call's FOR iteration or element was at (Scope.itemIndex); -1 in none. */
  private declare readonly item: number;

  constructor(
    private readonly at: Position,
    readonly run: ScriptRun,
    readonly scope: Scope,
  ) {
    this.item = scope.itemIndex;
  }

  /**
   * Whether the FOR iteration or comprehension element the call was made in is over: its scope has
   * gone on to another item, or ended (scope.ts). Its variables are gone, and so is the place
   * that gave the call its identity, so the context refuses what would use them.
   */
  get ended(): boolean {
    return this.scope.itemIndex !== this.item;
  }

  /** The signal of the comprehension element the call is in, when its elements run concurrently (ElementCallSite). */
  get signal(): AbortSignal | undefined {
    return undefined;
  }

  // Read from the CALL node when asked (one is made per call; most are never asked).
  get line(): number {
    return this.at.line;
  }
  get column(): number {
    return this.at.column;
  }
  get fileName(): string | undefined {
    return this.run.fileName;
  }
  /** The call's identity in its run (callIdOf): worked out when asked. */
  get callId(): string {
    return callIdOf(this.at, this.scope);
  }
  get vars(): VariableAccess {
    return this;
  }

  get(name: string): JsonValue | undefined {
    if (this.ended) throw this.over('getVar', name);
    const value = this.scope.lookup(name);
    return value === undefined ? undefined : toJson(value, this.run.valueLimits);
  }

  set(name: string, value: JsonValue): void {
    if (this.ended) throw this.over('setVar', name);
    try {
      this.scope.assign(name, fromJson(value, this.run.valueLimits));
    } catch (error) {
      // A value over the run's limits stops the run, whatever the tool does with the error.
      if (isNuwaError(error) && error.kind === 'LimitExceededError') {
        this.run.stop(error);
        throw error;
      }
      throw new TypeError(`setVar("${name}"): ${describeThrown(error)}`);
    }
  }

  private over(what: string, name: string): NuwaError {
    return new NuwaError('AbortedError', `context.${what}("${name}"): the FOR iteration or comprehension element of its CALL is over, and its variables with it`);
  }
}

/**
 * A CALL in an element of a comprehension whose elements run concurrently: with that element's
 * signal. (A class of its own, so that every other call's site has no field for it: a host may have
 * thousands of calls in flight.)
 */
class ElementCallSite extends ScriptCallSite {
  readonly #signal: AbortSignal;

  constructor(at: Position, run: ScriptRun, scope: Scope, signal: AbortSignal) {
    super(at, run, scope);
    this.#signal = signal;
  }

  override get signal(): AbortSignal {
    return this.#signal;
  }
}
