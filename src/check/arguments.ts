// Which argument problems of a CALL are certain before the script runs. The registered tool's own
// compiled validator (the one the runtime calls) judges the arguments whose values are literals;
// an argument computed at run time can be anything, so problems about its value are dropped, while
// its name (unknown or not) is as certain as a missing required argument.
import type { JsonObject, JsonValue } from '../values/json.js';
import { setJsonKey } from '../values/values.js';
import type { ArgumentProblem, ArgumentValidator } from '../tools/validate.js';
import type { ConfirmLevel, JsonSchema, JsonSchemaObject, ToolCategory } from '../tools/types.js';

/** What the checker needs of a tool: a RegisteredTool has all of it. */
export interface CheckedTool {
  readonly name: string;
  readonly confirm: ConfirmLevel;
  /** The level of one call, when it depends on the arguments (ToolDefinition.confirmFor). */
  readonly confirmFor?: ((args: JsonObject) => ConfirmLevel) | undefined;
  readonly category: ToolCategory;
  readonly parametersSchema: JsonSchemaObject;
  readonly returnsSchema: JsonSchema;
  readonly validateArguments: ArgumentValidator;
}

/** The tools a script may call: a ToolRegistry is one. */
export interface ToolCatalog {
  lookup(name: string): CheckedTool | undefined;
  names(): string[];
}

/** One argument of a CALL: its key, and its value when the text fixes it. */
export interface StaticArgument {
  key: string;
  value: JsonValue | undefined;
}

/**
 * Top-level keywords that relate one argument to another. With any of them, a problem may depend
 * on the arguments we cannot see, so only a call whose every argument is a literal is judged.
 */
const CROSS_ARGUMENT_KEYWORDS = [
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependencies', 'dependentRequired', 'dependentSchemas',
  'patternProperties', 'propertyNames', 'minProperties', 'maxProperties', 'unevaluatedProperties', '$ref', '$dynamicRef', '$recursiveRef',
];

/** A stand-in for a value known only at run time; problems about it are dropped. */
const RUNTIME_VALUE = 0;

export function certainArgumentProblems(tool: CheckedTool, args: readonly StaticArgument[]): ArgumentProblem[] {
  const given: JsonObject = {};
  const runtimeKeys = new Set<string>();
  for (const { key, value } of args) {
    if (value === undefined) runtimeKeys.add(key);
    setJsonKey(given, key, value === undefined ? RUNTIME_VALUE : value);
  }
  const problems = tool.validateArguments(given);
  if (problems === null) return [];
  if (runtimeKeys.size === 0) return problems; // every value is known: the runtime will see exactly this call

  const schema = tool.parametersSchema;
  if (CROSS_ARGUMENT_KEYWORDS.some((keyword) => keyword in schema)) return [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return problems.filter((problem) => {
    const key = topKey(problem.path);
    if (key === undefined) return false;
    if (!runtimeKeys.has(key)) return true;
    // An argument the tool does not declare is refused whatever its value.
    return schema.additionalProperties === false && !Object.hasOwn(properties, key);
  });
}

/** The argument a problem's path starts with: `qty` of `qty`, `items` of `items[0].id`. */
function topKey(path: string): string | undefined {
  if (path === '') return undefined;
  if (path.startsWith('["')) {
    try {
      return JSON.parse(path.slice(1, path.indexOf('"]') + 1)) as string;
    } catch {
      return undefined;
    }
  }
  const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(path);
  return match?.[0];
}
