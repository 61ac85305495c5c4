// The system prompt that teaches a model to write Nuwa Script for a registry's tools (TOOLS.md §10):
// the rules models get wrong most often, each with the right way; the built-ins, read from the
// runtime's own table so that every built-in is listed and no other; two short examples that parse
// and run; every tool as a one-line signature; and the session's state when asked.
import { BUILTINS } from '../runtime/builtins.js';
import { parse } from '../syntax/parse.js';
import { NuwaError } from '../errors.js';
import { ToolRegistry, type RegisteredTool } from '../tools/registry.js';
import { Session } from '../tools/session.js';
import { Options, shown } from '../util/options.js';
import { acceptsMore, argumentKey, oneLine, parameterSummaries, typeText } from '../tools/signature.js';

export interface PromptOptions {
  /** Include the session's state (formatStateForPrompt), so the model can plan with it. */
  state?: boolean;
  /** Whose state (default: the registry's own session). */
  session?: Session;
  /** false: no examples; a list of scripts: these instead of the built-in two (each must parse). */
  examples?: boolean | string[];
}

const INTRO = `You write Nuwa Script: a small, safe language for plans of tool calls. The host runs your script, checks every tool call before it runs, and reports what it printed or the first error (kind, line, column) so you can fix it.
Reply with the whole script in one fenced block that starts with \`\`\`nuwa.`;

// Each rule states the mistake models make and what to write instead.
const RULES = `## Rules
- Keywords are UPPERCASE: LET CALL IF THEN ELSE END FOR IN DO AND OR NOT CALC. true, false and null are lowercase. Names are case-sensitive.
- Strings use double quotes only: "text". Comments start with //. Statements need no separator.
- LET name = value creates a variable, or updates it if it already exists (also one from outside the loop you are in).
- Call a tool with named arguments in braces: LET result = CALL tool_name { arg: value }; with no arguments: CALL tool_name {}. Never CALL tool_name(...). A CALL is a value: use it in LET, IF or FORMAT.
- + - * / % work on numbers only. Build text with FORMAT("{name} costs {price}", { name: item, price: p }), never with +. FORMAT reads members too: FORMAT("{e.subject} from {e.from}", { e: email }).
- IF condition THEN ... ELSE ... END. There is no ELSEIF: put the next IF inside ELSE, and close every IF with its own END.
- A condition must be true or false, no truthiness: IF LEN(items) > 0 THEN, not IF items THEN. == never converts types: 1 == "1" is false.
- FOR item IN list DO ... END loops over a list. For an object, loop over its keys: FOR key IN KEYS(obj) DO ... obj[key] ... END.
- A variable first set inside a loop body is gone after each iteration: set totals and result lists before the loop.
- Lists and objects: [1, 2] and { key: "value" }; read them with list[0], obj.key or obj["some key"]. A missing key or index is an error: check with CONTAINS(obj, "key") or LEN(list) first.
- APPEND(list, value) returns a new list and leaves the old one unchanged: LET items = APPEND(items, value).
- [expression FOR x IN list IF condition] makes a list in one expression (IF is optional): LET names = [p.name FOR p IN products IF p.price > 100], LET prices = [CALL get_price { symbol: s } FOR s IN symbols]. x exists only inside the brackets; one FOR, at most one IF (join conditions with AND).
- SUM(list) adds numbers: SUM([o.total FOR o IN orders]). GET(obj, key, default) reads a key held in a variable; SET(obj, key, value) returns a new object. Count by key: LET counts = SET(counts, k, GET(counts, k, 0) + 1).
- CALC { formula: "price * (1 + rate)", vars: { price: p, rate: 0.2 } } evaluates an arithmetic formula.
- PRINT(value) shows one line to the user; print what the user asked for.
- Nuwa has no methods, no other languages' operators and no functions of your own. Write LEN(x) for x.length, UPPER(s) for s.upper(), CONTAINS(s, "a") for "a" in s, LET xs = APPEND(xs, v) for xs.push(v), AND OR NOT for && || !, == for ===, LET n = n + 1 for n += 1, xs[LEN(xs) - 1] for xs[-1], SLICE(xs, 0, 3) for xs[0:3], SORT(xs, "price") for a sort by key. There is no try/except, WHILE, BREAK, RETURN or ?:: a failing CALL stops the script, a FOR covers its whole list, IF ... ELSE ... END chooses.`;

// Illustrations of the rules above (FORMAT, nested IF with its own END, KEYS over an object,
// accumulating before a loop, a comprehension and SUM). The prompt test runs them against tools with these names.
const DEFAULT_EXAMPLES = [
  `LET weather = CALL get_weather { city: "Paris" }
IF weather.temperature > 25 THEN
  PRINT(FORMAT("Hot in Paris: {t} degrees", { t: weather.temperature }))
ELSE
  IF weather.raining THEN
    CALL send_message { to: "me", text: "Take an umbrella" }
  ELSE
    PRINT("Mild and dry")
  END
END`,
  `LET prices = CALL get_prices { symbols: ["AAPL", "MSFT", "NVDA"] }
LET expensive = []
LET total = 0
FOR symbol IN KEYS(prices) DO
  LET total = total + prices[symbol]
  IF prices[symbol] > 300 THEN
    LET expensive = APPEND(expensive, symbol)
  END
END
PRINT(FORMAT("{n} above 300, average {avg}", { n: LEN(expensive), avg: ROUND(total / LEN(KEYS(prices)), 2) }))
LET cheap = [s FOR s IN KEYS(prices) IF prices[s] < 200]
PRINT(FORMAT("{c} cheap, together {t}", { c: cheap, t: SUM([prices[s] FOR s IN cheap]) }))`,
];

/** A compact system prompt for the registry's tools (under 10 KB for ten tools). */
export function buildPrompt(registry: ToolRegistry, options: PromptOptions = {}): string {
  const where = 'buildPrompt(registry, options)';
  if (!isToolRegistry(registry)) throw new NuwaError('TypeError', `${where}: registry must be a ToolRegistry, got ${shown(registry)}`);
  const given = Options.of(where, options);
  const state = given.boolean('state');
  const session = given.check<Session>('session', (value) => value instanceof Session, 'a session from registry.createSession()');
  const examples = given.check<boolean | unknown[]>('examples', (value) => typeof value === 'boolean' || Array.isArray(value), 'true, false or a list of scripts');
  const sections = [INTRO, RULES, builtinsSection(), examplesSection(examples === undefined || typeof examples === 'boolean' ? examples : given.strings('examples')), toolsSection(registry.list())];
  if (state) sections.push(stateSection((session ?? registry.defaultSession).formatStateForPrompt()));
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

function isToolRegistry(value: unknown): value is ToolRegistry {
  try {
    return value instanceof ToolRegistry;
  } catch {
    return false; // a Proxy whose getPrototypeOf trap throws
  }
}

function builtinsSection(): string {
  const usages = [...BUILTINS.values()].map((builtin) => builtin.usage);
  const lines: string[] = [];
  let line = '';
  for (const usage of usages) {
    const next = line === '' ? usage : `${line} · ${usage}`;
    if (next.length > 110 && line !== '') {
      lines.push(line);
      line = usage;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(line);
  return `## Built-in functions (UPPERCASE; they return values)\n${lines.join('\n')}`;
}

function examplesSection(examples: boolean | string[] | undefined): string {
  if (examples === false) return '';
  const scripts = examples === undefined || examples === true ? DEFAULT_EXAMPLES : examples;
  if (scripts.length === 0) return '';
  scripts.forEach((script, i) => {
    if (script.includes('```')) throw new NuwaError('TypeError', `buildPrompt: \`examples\`: example ${i + 1} contains a fence (\`\`\`)`);
    try {
      parse(script, { fileName: `example ${i + 1}` });
    } catch (error) {
      throw new NuwaError('TypeError', `buildPrompt: \`examples\`: example ${i + 1} does not parse: ${(error as Error).message}`, { cause: error });
    }
  });
  const heading = scripts === DEFAULT_EXAMPLES ? '## Examples (their tools are illustrations: use only the tools listed below)' : '## Examples';
  return `${heading}\n${scripts.map((script) => `\`\`\`nuwa\n${script.trim()}\n\`\`\``).join('\n')}`;
}

function toolsSection(tools: RegisteredTool[]): string {
  if (tools.length === 0) return '## Tools\nNo tools are available: write scripts that only compute and PRINT.';
  const legend = 'Use exactly these names. `arg?` is optional, `= x` its default, → what the call returns. A tool marked "asks approval" runs only if the user agrees; otherwise the script stops there.';
  return `## Tools\n${legend}\n${tools.map(toolLine).join('\n')}`;
}

function toolLine(tool: RegisteredTool): string {
  const parameters = parameterSummaries(tool).map((p) => {
    let text = `${argumentKey(p.name)}${p.required ? '' : '?'}: ${p.type}`;
    if (p.default !== undefined) text += ` = ${JSON.stringify(p.default)}`;
    if (p.constraints !== undefined) text += ` (${p.constraints})`;
    if (p.description !== undefined) text += ` "${clip(p.description, 100)}"`;
    return text;
  });
  if (acceptsMore(tool)) parameters.push('...');
  const args = parameters.length === 0 ? '{}' : `{ ${parameters.join(', ')} }`;
  // A level that depends on the arguments (confirmFor) is the highest the tool can take: some calls ask less.
  const approval = tool.confirm === 'write' || tool.confirm === 'destructive' ? ` [${tool.confirmFor === undefined ? 'asks' : 'may ask'} approval: ${tool.confirm}]` : '';
  return `- ${tool.name} ${args} → ${typeText(tool.returnsSchema)}: ${clip(oneLine(tool.description), 300)}${approval}`;
}

function stateSection(state: string): string {
  return `## Current state (shared by the tools; plan with it)\n${state === '' ? '(empty)' : state}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
