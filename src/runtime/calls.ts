// A script's CALL, compiled: its arguments made into the plain JSON object the tool gets, checked
// against the run's limits as they are added, and the call handed to the tool pipeline (callFromScript in script-call.ts), which
// answers at once when the tool does (tools/invoke.ts).
import type * as A from '../syntax/ast.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { checkTotals, MAX_VALUE_DEPTH, setJsonKey, toJson, type Value } from '../values/values.js';
import { intern } from '../util/intern.js';
import { Pending, type Waiting } from '../util/pending.js';
import type { AsyncEval, Compiled } from './compiled.js';
import type { ScriptRun } from './script-run.js';
import { callFromScript, type ScriptCallSite } from './script-call.js';
import type { Scope } from './scope.js';

/**
 * A CALL whose arguments need no waiting, with what to do with its answer (`andThen`): done at once
 * when the tool answers at once, else in the microtask in which its promise settles (callTool).
 */
export type CallWith = <R>(rt: ScriptRun, scope: Scope, andThen: (value: Value, site: ScriptCallSite) => R) => R | Waiting;

const same = <T>(value: T): T => value;

/**
 * A CALL, from its node and its compiled argument values: as a CallWith when no argument can wait
 * (null otherwise), and as an expression (`evaluate`), for a CALL inside a bigger expression.
 */
export function compileToolCall(node: A.CallExpression, values: Compiled[]): { callWith: CallWith | null; evaluate: AsyncEval } {
  const tool = intern(node.tool);
  const keys = node.arguments.properties.map((p) => p.key);
  const keyChars = keys.reduce((sum, key) => sum + key.length, 0);
  const make = argumentsMaker(keys);
  const refuse = (items: number, chars: number, depth: number, rt: ScriptRun): never => {
    checkTotals(items, chars, depth, rt.valueLimits, `the arguments of \`${tool}\``, node.arguments);
    throw new Error('internal: arguments over the limits were not refused');
  };

  // The arguments object is a value built here, expanded into plain JSON for the tool: its totals
  // are checked as each argument is added, before that argument is expanded.
  const build = (rt: ScriptRun, parts: Value[]): JsonObject => {
    const json: JsonValue[] = new Array(parts.length);
    let items = keys.length;
    let chars = keyChars;
    let depth = 1;
    for (let i = 0; i < parts.length; i++) {
      const value = parts[i]!;
      if (typeof value === 'object' && value !== null) {
        items += value.totalItems;
        chars += value.totalChars;
        if (value.depth >= depth) depth = value.depth + 1;
        if (items > rt.valueLimits.maxValueSize || chars > rt.valueLimits.maxStringLength || depth > MAX_VALUE_DEPTH) refuse(items, chars, depth, rt);
        json[i] = toJson(value, rt.valueLimits);
      } else {
        if (typeof value === 'string' && (chars += value.length) > rt.valueLimits.maxStringLength) refuse(items, chars, depth, rt);
        json[i] = value;
      }
    }
    return make(json);
  };

  // One argument that is a number, a boolean or null adds nothing to check.
  const buildOne = (rt: ScriptRun, value: Value): JsonObject =>
    typeof value === 'number' || typeof value === 'boolean' || value === null ? make.one(value) : build(rt, [value]);

  if (values.every((v) => v.sync !== null)) {
    const syncValues = values.map((v) => v.sync!);
    const only = syncValues.length === 1 ? syncValues[0]! : undefined;
    // No await of our own: the tool's answer (or the promise of it) goes straight to `andThen`.
    const callWith: CallWith =
      only !== undefined
        ? (rt, scope, andThen) => callFromScript(rt, tool, buildOne(rt, only(rt, scope)), node, scope, andThen)
        : (rt, scope, andThen) => {
            const parts: Value[] = new Array(syncValues.length);
            for (let i = 0; i < syncValues.length; i++) parts[i] = syncValues[i]!(rt, scope);
            return callFromScript(rt, tool, build(rt, parts), node, scope, andThen);
          };
    // As a part of a bigger expression, whose closures await promises, a Pending becomes one.
    const evaluate: AsyncEval = (rt, scope) => {
      const value = callWith(rt, scope, same);
      return value instanceof Pending ? (value.asPromise() as Promise<Value>) : (value as Value | Promise<Value>);
    };
    return { callWith, evaluate };
  }
  return {
    callWith: null,
    evaluate: async (rt, scope) => {
      const parts: Value[] = new Array(values.length);
      for (let i = 0; i < values.length; i++) {
        const part = values[i]!;
        parts[i] = part.async !== null ? await part.async(rt, scope) : part.sync!(rt, scope);
      }
      return (await callFromScript(rt, tool, build(rt, parts), node, scope, same)) as Value;
    },
  };
}

/** Makes the arguments object of a CALL from its values (`one`: from its only value). */
interface ArgumentsMaker {
  (values: JsonValue[]): JsonObject;
  one(value: JsonValue): JsonObject;
}

/**
 * The arguments object of a CALL with these keys, made as an object literal with the keys written
 * out, compiled once per CALL: every object it makes then has the same shape from the start, where
 * setting keys one by one on `{}` looked the shape up again on every call (a tenth of a CALL). Where
 * code cannot be made from text (a host that forbids it), and for a `__proto__` key (which a literal
 * would take as the prototype), the keys are set one by one.
 */
function argumentsMaker(keys: string[]): ArgumentsMaker {
  if (!keys.includes('__proto__')) {
    try {
      const literal = (value: (i: number) => string) => `({ ${keys.map((key, i) => `${JSON.stringify(key)}: ${value(i)}`).join(', ')} })`;
      const make = new Function('v', `return ${literal((i) => `v[${i}]`)};`) as ArgumentsMaker;
      make.one = new Function('v', `return ${literal(() => 'v')};`) as (value: JsonValue) => JsonObject;
      return make;
    } catch {
      // no code from text here: set the keys one by one
    }
  }
  const make = ((values: JsonValue[]) => {
    const args: JsonObject = {};
    for (let i = 0; i < keys.length; i++) setJsonKey(args, keys[i]!, values[i]!);
    return args;
  }) as ArgumentsMaker;
  make.one = (value) => make([value]);
  return make;
}
