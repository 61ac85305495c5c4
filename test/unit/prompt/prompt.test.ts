// Unit tests for buildPrompt (TOOLS.md §10): every tool, parameter and built-in appears, the examples
// in it parse and run against the tools they name, the state is included when asked, and the prompt
// stays under 10 KB for ten realistic tools.
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/prompt/prompt.js';
import { BUILTINS } from '../../../src/runtime/builtins.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { parse } from '../../../src/syntax/parse.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { defineTool } from '../../../src/tools/forms.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { JsonSchemaObject, ToolDefinition } from '../../../src/tools/types.js';

function def(name: string, description: string, parameters: JsonSchemaObject, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description, parameters, returns: 'any', execute: () => null, ...extra };
}

/** Ten tools as a real host would register them, with several parameters each. */
function tenTools(): ToolRegistry {
  const registry = new ToolRegistry();
  const s = (description: string, extra = {}) => ({ type: 'string', description, ...extra });
  registry.register(def('get_weather', 'Current weather conditions for a city: temperature in °C, wind speed and whether it rains.', { type: 'object', properties: { city: s('City name, e.g. Paris'), units: s('Units', { enum: ['metric', 'imperial'], default: 'metric' }) }, required: ['city'] }, { returns: { type: 'object', properties: { temperature: { type: 'number' }, raining: { type: 'boolean' } } } }));
  registry.register(def('send_email', 'Send an email message to one or more recipients.', { type: 'object', properties: { to: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Recipient addresses' }, subject: s('Subject line'), body: s('Message text'), cc: { type: 'array', items: { type: 'string' }, description: 'Copy to' } }, required: ['to', 'subject', 'body'] }, { confirm: 'write', category: 'network' }));
  registry.register(def('search_web', 'Search the web and return the top results with titles, links and snippets.', { type: 'object', properties: { query: s('What to search for'), limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'How many results' } }, required: ['query'] }, { returns: { type: 'array', items: { type: 'object' } } }));
  registry.register(def('read_file', 'Read a text file from the workspace.', { type: 'object', properties: { path: s('Path relative to the workspace'), encoding: s('Text encoding', { default: 'utf8' }) }, required: ['path'] }, { category: 'file', confirm: 'read', returns: 'string' }));
  registry.register(def('write_file', 'Write text to a file, replacing it if it exists.', { type: 'object', properties: { path: s('Path relative to the workspace'), content: s('Text to write'), append: { type: 'boolean', default: false, description: 'Append instead of replacing' } }, required: ['path', 'content'] }, { category: 'file', confirm: 'write' }));
  registry.register(def('get_stock_price', 'Latest trading price of a stock in USD.', { type: 'object', properties: { symbol: s('Ticker symbol', { pattern: '^[A-Z]{1,5}$' }) }, required: ['symbol'] }, { returns: 'number' }));
  registry.register(def('place_order', 'Buy or sell shares of a stock at the market price.', { type: 'object', properties: { symbol: s('Ticker symbol'), side: s('Direction', { enum: ['buy', 'sell'] }), quantity: { type: 'integer', minimum: 1, description: 'Number of shares' } }, required: ['symbol', 'side', 'quantity'] }, { confirm: 'destructive' }));
  registry.register(def('create_calendar_event', 'Schedule a meeting on the calendar and invite attendees.', { type: 'object', properties: { title: s('Event title'), start: s('Start time', { format: 'date-time' }), minutes: { type: 'integer', default: 30, description: 'Duration in minutes' }, attendees: { type: 'array', items: { type: 'string' }, description: 'Email addresses' } }, required: ['title', 'start'] }, { confirm: 'write' }));
  registry.register(def('query_database', 'Run a read-only SQL query against the analytics database and return the rows.', { type: 'object', properties: { sql: s('A SELECT statement'), max_rows: { type: 'integer', default: 100, description: 'Row limit' } }, required: ['sql'] }, { returns: { type: 'array', items: { type: 'object' } } }));
  registry.register(defineTool({ id: 'translate-text', name: 'Translate Text', description: 'Translate text into another language.', input: { type: 'object', properties: { text: s('Text to translate'), target: s('Language code, e.g. fr') }, required: ['text', 'target'] }, output: { type: 'string' }, execute: async () => ({ success: true, data: '' }) }));
  return registry;
}

describe('buildPrompt', () => {
  it('stays under 10 KB for ten tools', () => {
    const prompt = buildPrompt(tenTools(), { state: true });
    expect(tenTools().list()).toHaveLength(10);
    expect(Buffer.byteLength(prompt)).toBeLessThan(10 * 1024);
  });

  it('says what to write instead of the constructs models bring from other languages, and every replacement is Nuwa', () => {
    const prompt = buildPrompt(new ToolRegistry());
    const pairs: Array<[string, string]> = [
      ['LEN(x)', 'x.length'], ['UPPER(s)', 's.upper()'], ['CONTAINS(s, "a")', '"a" in s'], ['LET xs = APPEND(xs, v)', 'xs.push(v)'],
      ['AND OR NOT', '&& || !'], ['==', '==='], ['LET n = n + 1', 'n += 1'], ['xs[LEN(xs) - 1]', 'xs[-1]'], ['SLICE(xs, 0, 3)', 'xs[0:3]'],
    ];
    for (const [nuwa, foreign] of pairs) expect(prompt).toContain(`${nuwa} for ${foreign}`);
    for (const word of ['try/except', 'WHILE', 'BREAK', 'RETURN']) expect(prompt).toContain(word);
    for (const [nuwa] of pairs) expect(tokenize(nuwa).problems, nuwa).toEqual([]);
  });

  it('lists every tool with every parameter, its type and whether it is required', () => {
    const registry = tenTools();
    const prompt = buildPrompt(registry);
    for (const tool of registry.list()) {
      const line = prompt.split('\n').find((l) => l.startsWith(`- ${tool.name} `));
      expect(line, tool.name).toBeDefined();
      expect(line).toContain(tool.description.split('.')[0]);
      for (const [name, schema] of Object.entries(tool.parametersSchema.properties ?? {})) {
        const required = tool.parametersSchema.required?.includes(name);
        expect(line).toContain(`${name}${required ? '' : '?'}: `);
        const description = (schema as { description?: string }).description;
        if (description) expect(line).toContain(`"${description}"`);
      }
    }
  });

  it('writes types, defaults, enums, bounds, results and risk levels as a model needs them', () => {
    const prompt = buildPrompt(tenTools());
    expect(prompt).toContain('- get_weather { city: string "City name, e.g. Paris", units?: "metric" | "imperial" = "metric" "Units" } → { temperature?: number, raining?: boolean }:');
    expect(prompt).toContain('to: list of string (at least 1 items) "Recipient addresses"');
    expect(prompt).toContain('limit?: integer = 5 (≥ 1, ≤ 20) "How many results"');
    expect(prompt).toMatch(/- send_email .*\[asks approval: write\]$/m);
    expect(prompt).toMatch(/- place_order .*\[asks approval: destructive\]$/m);
    expect(prompt).toMatch(/- read_file [^\n]*→ string: Read a text file from the workspace\.$/m);
    expect(prompt).toContain('- translate_text { text: string "Text to translate", target: string "Language code, e.g. fr" } → string');
  });

  it('lists every built-in of the runtime, with its usage', () => {
    const prompt = buildPrompt(new ToolRegistry());
    for (const builtin of BUILTINS.values()) expect(prompt).toContain(builtin.usage);
  });

  it('teaches the rules models get wrong most', () => {
    const prompt = buildPrompt(new ToolRegistry());
    expect(prompt).toMatch(/Keywords are UPPERCASE: LET CALL IF THEN ELSE END FOR IN DO AND OR NOT CALC/);
    expect(prompt).toMatch(/double quotes only/);
    expect(prompt).toMatch(/never with \+/);
    expect(prompt).toMatch(/There is no ELSEIF: put the next IF inside ELSE, and close every IF with its own END/);
    expect(prompt).toMatch(/FOR key IN KEYS\(obj\)/);
    expect(prompt).toMatch(/\[expression FOR x IN list IF condition\] makes a list in one expression/);
    expect(prompt).toMatch(/x exists only inside the brackets/);
    expect(prompt).toMatch(/LET counts = SET\(counts, k, GET\(counts, k, 0\) \+ 1\)/);
    expect(prompt).toMatch(/FORMAT\("\{e\.subject\} from \{e\.from\}", \{ e: email \}\)/);
    expect(prompt).toMatch(/```nuwa/);
  });

  it('has two examples that parse, and that run against the tools they name', async () => {
    const prompt = buildPrompt(tenTools());
    const examples = [...prompt.matchAll(/```nuwa\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(examples).toHaveLength(2);
    // Illustrative tools with the names the examples use.
    const registry = new ToolRegistry();
    const calls: string[] = [];
    const stub = (name: string, result: unknown, parameters: JsonSchemaObject) =>
      registry.register({ name, description: name, parameters, returns: 'any', execute: () => (calls.push(name), result as never) });
    stub('get_weather', { temperature: 12, raining: true }, { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    stub('send_message', null, { type: 'object', properties: { to: { type: 'string' }, text: { type: 'string' } }, required: ['to', 'text'] });
    stub('get_prices', { AAPL: 190, MSFT: 415.5, NVDA: 121.4 }, { type: 'object', properties: { symbols: { type: 'array', items: { type: 'string' } } }, required: ['symbols'] });
    const printed: string[] = [];
    for (const example of examples) {
      const named = [...example.matchAll(/CALL\s+([A-Za-z_][\w.]*)/g)].map((match) => match[1]!);
      expect(named.length).toBeGreaterThan(0);
      for (const name of named) expect(registry.has(name), name).toBe(true);
      parse(example);
      await new Interpreter(registry, { print: (line) => printed.push(line) }).run(example);
    }
    expect(calls).toEqual(['get_weather', 'send_message', 'get_prices']);
    expect(printed).toEqual(['1 above 300, average 242.3', '["AAPL","NVDA"] cheap, together 311.4']);
  });

  it('includes the state when asked, from the registry’s session or another', () => {
    const registry = tenTools();
    registry.setState('portfolio', { AAPL: 10 }, { description: 'shares held' });
    expect(buildPrompt(registry)).not.toContain('portfolio');
    expect(buildPrompt(registry, { state: true })).toContain('## Current state (shared by the tools; plan with it)\nportfolio: {"AAPL":10} (shares held)');
    const session = registry.createSession();
    session.setState('budget', 500);
    const prompt = buildPrompt(registry, { state: true, session });
    expect(prompt).toContain('budget: 500');
    expect(prompt).not.toContain('portfolio');
    expect(buildPrompt(new ToolRegistry(), { state: true })).toContain('## Current state (shared by the tools; plan with it)\n(empty)');
  });

  it('examples: false leaves them out; a host’s own replace them, and must parse', () => {
    const registry = tenTools();
    expect(buildPrompt(registry, { examples: false })).not.toContain('```nuwa\n');
    const own = buildPrompt(registry, { examples: ['LET t = CALL get_weather { city: "Lima" }\nPRINT(t.temperature)'] });
    expect(own).toContain('## Examples\n```nuwa\nLET t = CALL get_weather { city: "Lima" }');
    expect(own).not.toContain('get_prices');
    expect(() => buildPrompt(registry, { examples: ['let x = 1'] })).toThrow(/example 1 does not parse/);
    expect(() => buildPrompt(registry, { examples: ['PRINT(1) // ```'] })).toThrow(/contains a fence/);
    expect(() => buildPrompt(registry, { examples: 'LET x = 1' as never })).toThrow(/`examples` must be true, false or a list of scripts/);
  });

  it('says when there are no tools', () => {
    expect(buildPrompt(new ToolRegistry())).toContain('No tools are available: write scripts that only compute and PRINT.');
  });

  it('marks tools that accept more arguments than they declare', () => {
    const registry = new ToolRegistry();
    registry.register(def('log', 'Logs fields', { type: 'object', properties: { level: { type: 'string' } }, additionalProperties: true }));
    expect(buildPrompt(registry)).toContain('- log { level?: string, ... } → any: Logs fields');
  });
});
