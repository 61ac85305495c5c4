// The text of the REPL's dot commands that only show things: .help, .tools, .tools <name>, .vars
// and .state. (The ones that act — .reset, .load, .save, .exit — live with the REPL loop.)
import type { ToolRegistry, RegisteredTool } from '../tools/registry.js';
import type { JsonSchema } from '../tools/types.js';
import type { JsonValue } from '../values/json.js';
import { didYouMean } from '../util/suggest.js';
import { formatKey, formatValue } from './print-value.js';
import { WAYS_TO_LOAD_TOOLS } from './setup.js';

export const REPL_HELP = `Type Nuwa Script: statements run as you enter them, and a bare expression shows its value.
An entry that is not finished (an open IF/FOR, bracket or string) continues on a "..." line.

  .help             this help
  .tools            the loaded tools: name, risk level, category, source and summary
  .tools <name>     one tool in full: its arguments and result
  .vars             the session's variables
  .state            the session state that tools share
  .reset            forget the variables, state and entries (back to --var and --state)
  .load <file>      run a script file as one entry
  .save <file>      write the entries that ran without an error to a file, as one script
  .exit             leave (also Ctrl-D)

Keys: Tab completes keywords, built-ins, variables, tool names after CALL and argument names
inside a CALL's braces; Up/Down walk the history (~/.nuwa_history); Ctrl-C stops a running entry
or clears the line, and twice at an empty prompt leaves.
`;

export function listTools(registry: ToolRegistry): string {
  const tools = registry.list();
  if (tools.length === 0) return `No tools are loaded: start the REPL with ${WAYS_TO_LOAD_TOOLS} to load some.\n`;
  const width = Math.max(...tools.map((tool) => tool.name.length));
  return tools.map((tool) => `${tool.name.padEnd(width)}  ${tool.confirm.padEnd(11)}  ${tool.category.padEnd(7)}  ${tool.source.padEnd(10)}  ${firstSentence(tool.description)}`.trimEnd() + '\n').join('');
}

export function describeTool(registry: ToolRegistry, name: string): string | { error: string } {
  const tool = registry.lookup(name);
  if (!tool) {
    const hint = didYouMean(name, registry.names());
    return { error: `there is no tool named ${name}${hint} (.tools lists them)` };
  }
  const lines = [`${tool.name}: ${tool.description}`, `  risk level: ${tool.confirm}${needsApproval(tool) ? ' (asks for approval)' : ''}`, `  category: ${tool.category}, source: ${tool.source}`];
  const properties = tool.parametersSchema.properties ?? {};
  const required = new Set(tool.parametersSchema.required ?? []);
  const names = Object.keys(properties);
  lines.push(names.length === 0 ? '  arguments: none' : '  arguments:');
  for (const key of names) {
    const schema = properties[key]!;
    const details: string[] = [typeOf(schema), required.has(key) ? 'required' : 'optional'];
    if (isSchemaObject(schema) && schema.default !== undefined) details.push(`default ${JSON.stringify(schema.default)}`);
    if (isSchemaObject(schema) && Array.isArray(schema.enum)) details.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    const description = isSchemaObject(schema) && typeof schema.description === 'string' ? `: ${schema.description}` : '';
    lines.push(`    ${formatKey(key)} (${details.join(', ')})${description}`);
  }
  lines.push(`  result: ${typeOf(tool.returnsSchema)}`);
  const example = names.filter((key) => required.has(key)).map((key) => `${formatKey(key)}: …`).join(', ');
  lines.push(`  call: CALL ${tool.name} {${example ? ` ${example} ` : ''}}`);
  return `${lines.join('\n')}\n`;
}

export function listVariables(variables: Record<string, JsonValue>, color: boolean): string {
  const names = Object.keys(variables);
  if (names.length === 0) return 'No variables yet: LET name = value makes one.\n';
  return names.map((name) => `${name} = ${indentAfterFirst(formatValue(variables[name]!, { color }))}\n`).join('');
}

export function listState(state: Record<string, JsonValue>, color: boolean): string {
  const keys = Object.keys(state);
  if (keys.length === 0) return 'The session state is empty.\n';
  return keys.map((key) => `${formatKey(key)} = ${indentAfterFirst(formatValue(state[key]!, { color }))}\n`).join('');
}

function indentAfterFirst(text: string): string {
  return text.replace(/\n/g, '\n  ');
}

function needsApproval(tool: RegisteredTool): boolean {
  return tool.confirm === 'write' || tool.confirm === 'destructive';
}

function firstSentence(text: string): string {
  const match = /^.*?[.!?](?=\s|$)/s.exec(text.trim());
  return (match ? match[0] : text.trim()).replace(/\s+/g, ' ');
}

function isSchemaObject(schema: JsonSchema): schema is { [keyword: string]: unknown } {
  return typeof schema === 'object' && schema !== null;
}

/** A short type for a JSON Schema: `string`, `number | null`, `array of string`, `any`. */
function typeOf(schema: JsonSchema): string {
  if (!isSchemaObject(schema)) return schema ? 'any' : 'nothing';
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array' && isSchemaObject(schema.items as JsonSchema) && (schema.items as { type?: unknown }).type !== undefined) {
    return `array of ${typeOf(schema.items as JsonSchema)}`;
  }
  if (typeof type === 'string') return type;
  if (Array.isArray(schema.enum)) return 'enum';
  return 'any';
}
