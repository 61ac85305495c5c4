// A built-in function's call at run time: its arity checked, and a heavy built-in on big arguments
// run in steps, suspending its statement (suspend.ts) or, where the statement may wait anyway,
// letting the event loop in as it goes; and the UnknownFunctionError, which the checker reports too.
import type * as A from '../syntax/ast.js';
import { NuwaError } from '../errors.js';
import { BUILTINS_BY_NAME, unknownFunctionMessage } from '../syntax/functions.js';
import { repairFunction } from '../syntax/methods.js';
import { arityError, type Builtin } from './builtins.js';
import type { ScriptRun } from './script-run.js';
import type { Value } from '../values/values.js';
import { callSteps, callStepsAsync } from './suspend.js';

/** Calls a built-in (undefined: no function of that name) with its arguments' values. */
export function callBuiltin(builtin: Builtin | undefined, args: Value[], node: A.FunctionCall, rt: ScriptRun): Value {
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
export function callBuiltinWaiting(builtin: Builtin | undefined, args: Value[], node: A.FunctionCall, rt: ScriptRun): Value | Promise<Value> {
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
