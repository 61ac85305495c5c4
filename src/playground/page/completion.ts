// Completion in the editor: what fits where is decided by the REPL's completer (src/cli/repl-complete.ts,
// from the lexer's tokens before the cursor): a tool name after CALL, an argument name inside a
// CALL's braces, a key after `variable.`, and otherwise keywords, literals, built-ins and variables.
// Here each candidate also gets its kind and what the page knows about it (a tool's description,
// an argument's type, a built-in's usage), and an argument name is inserted with its `: `.
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { complete } from '../../cli/repl-complete.js';
import { BUILTINS } from '../../runtime/builtins.js';
import { KEYWORDS } from '../../syntax/tokens.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { JsonValue } from '../../values/json.js';

export interface CompletionData {
  registry: ToolRegistry;
  /** Variables known now: the last run's, and the names the script binds. */
  variables(): Record<string, JsonValue>;
}

const WORDS = new Set<string>([...KEYWORDS, 'true', 'false', 'null']);
const LET_OR_FOR_NAME = /\b(?:LET|FOR)\s+([A-Za-z_][A-Za-z0-9_]*)/g;

/** The names a script binds with LET or FOR (as unknown values: only their names complete). */
export function boundNames(source: string): string[] {
  return [...source.matchAll(LET_OR_FOR_NAME)].map((match) => match[1]!);
}

export function nuwaCompletion(data: CompletionData): (context: CompletionContext) => CompletionResult | null {
  return (context) => {
    const before = context.state.doc.sliceString(0, context.pos);
    const { registry } = data;
    let argumentsOf: string | undefined;
    let tools = false;
    const [candidates, word] = complete(before, {
      variables: data.variables,
      toolNames: () => {
        tools = true;
        return registry.names();
      },
      parameterNames: (tool) => {
        argumentsOf = tool;
        return Object.keys(registry.lookup(tool)?.parametersSchema.properties ?? {});
      },
    });
    // Typing in blank space opens nothing; Ctrl-Space (explicit) shows what fits there.
    if (candidates.length === 0 || (word === '' && !context.explicit)) return null;
    const options = candidates.map((label): Completion => {
      if (argumentsOf !== undefined) return argumentOption(registry, argumentsOf, label);
      if (tools) return toolOption(registry, label);
      if (word.includes('.')) return { label, type: 'property' };
      if (WORDS.has(label)) return { label, type: 'keyword' };
      const builtin = BUILTINS.get(label);
      if (builtin) return { label, type: 'function', detail: builtin.usage, info: builtin.summary, apply: `${label}(` };
      return { label, type: 'variable' };
    });
    return { from: context.pos - word.length, options, validFor: /^[A-Za-z0-9_.]*$/ };
  };
}

function toolOption(registry: ToolRegistry, name: string): Completion {
  const tool = registry.lookup(name);
  return { label: name, type: 'method', detail: tool ? `${tool.confirm === 'none' ? '' : `${tool.confirm} · `}${tool.category}` : undefined, info: tool?.description };
}

function argumentOption(registry: ToolRegistry, toolName: string, name: string): Completion {
  const schema = registry.lookup(toolName)?.parametersSchema;
  const found = schema?.properties?.[name];
  const property: Record<string, unknown> = typeof found === 'object' ? found : {};
  const required = schema?.required?.includes(name) ?? false;
  return {
    label: name,
    type: 'property',
    detail: [property.type === undefined ? undefined : String(property.type), required ? 'required' : 'optional'].filter(Boolean).join(', '),
    info: typeof property.description === 'string' ? property.description : undefined,
    apply: `${name}: `,
  };
}
