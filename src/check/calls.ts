// The static checker's view of calls: a tool CALL (its tool, its arguments as far as they are
// known, and the record of it in the plan), a built-in function's name and argument count, FORMAT
// with a template the text fixes, and CALC with a literal formula, each failing as the run would.
import type * as A from '../syntax/ast.js';
import { isStandIn } from '../syntax/nodes.js';
import { arityError, BUILTINS } from '../runtime/builtins.js';
import { evaluateCalc } from '../runtime/calc.js';
import { compileSync } from '../runtime/expressions.js';
import { unknownFunction } from '../runtime/builtin-calls.js';
import { invalidArgumentsMessage, unknownToolMessage } from '../tools/hints.js';
import { formatListHint, placeholderHint } from '../runtime/advice.js';
import { didYouMean } from '../util/suggest.js';
import { NuwaError } from '../errors.js';
import { NuwaObject, setJsonKey, toJson } from '../values/values.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { confirmOf } from '../tools/build.js';
import type { ConfirmLevel } from '../tools/types.js';
import { certainArgumentProblems, type CheckedTool, type StaticArgument } from './arguments.js';
import { ANY, BOOLEAN, constant, fromSchema, LIST, NULL, NUMBER, OBJECT, ofTypes, only, STRING, type Shape } from './shapes.js';
import { CheckerState, knownKeys } from './checker-state.js';

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

export abstract class CallChecker extends CheckerState {
  protected functionCall(node: A.FunctionCall): Shape {
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

  protected toolCall(node: A.CallExpression): Shape {
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
  protected calc(node: A.CalcExpression): Shape {
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
 * What a built-in returns when it returns at all (LANGUAGE.md §5, §8): a run that gets past the call
 * has a value of this type, so `KEYS(o).length` is certainly a mistake.
 */
export const RESULT_TYPES: ReadonlyMap<string, Shape> = new Map([
  ...['LEN', 'NOW', 'NUMBER', 'ROUND', 'FLOOR', 'CEIL', 'ABS', 'MIN', 'MAX', 'SUM'].map((name) => [name, ofTypes(NUMBER)] as const),
  ...['FORMAT', 'STR', 'TYPE', 'JOIN', 'UPPER', 'LOWER', 'TRIM', 'REPLACE'].map((name) => [name, ofTypes(STRING)] as const),
  ...['KEYS', 'APPEND', 'SPLIT', 'SORT', 'REVERSE', 'RANGE'].map((name) => [name, ofTypes(LIST)] as const),
  ['CONTAINS', ofTypes(BOOLEAN)],
  ['SLICE', ofTypes(LIST | STRING)],
  ['SET', ofTypes(OBJECT)],
  ['PRINT', ofTypes(NULL)],
]);


function jsonOf(shape: Shape): JsonValue | undefined {
  if (shape.value === undefined) return undefined;
  try {
    return toJson(shape.value);
  } catch {
    return undefined; // too deep to convert: the run fails on it anyway, with its own error
  }
}
