// `nuwa tools [<name>]`: what the loaded tools are (CLI.md). The list is one line per tool (name, risk
// level, category, source, first sentence); a name shows one tool in full; --search ranks the tools
// for an intent; --json prints the same as JSON. A thin host on the public API: everything shown
// comes from the registry, its search and the schema summaries buildPrompt uses too.
import pc from 'picocolors';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import type { SearchResult } from '../tools/search.js';
import { argumentKey, firstSentence, parameterSummaries, typeText, type ParameterSummary } from '../tools/signature.js';
import type { ConfirmLevel } from '../tools/types.js';
import { didYouMean } from '../util/suggest.js';
import { COLOR_HELP, COLOR_OPTIONS } from './color.js';
import { UsageError, type CliIO } from './io.js';
import type { LoadFailure } from '../tools/outside.js';
import { loadRegistry, parseCommandArgs, SHARED_OPTIONS, TOOL_SOURCES_HELP, WAYS_TO_LOAD_TOOLS } from './setup.js';

export const TOOLS_HELP = `Usage: nuwa tools [<name>] [options]

Lists the loaded tools, one per line: name, risk level, category, source and what it does.
With a name, shows that tool in full: its parameters, result type and risk level.

Options:
${TOOL_SOURCES_HELP}  --search "<intent>"       rank the tools for what you want to do, with scores
  --json                    print JSON instead of text
${COLOR_HELP}  -h, --help                show this help
`;

const OPTIONS = { ...SHARED_OPTIONS, search: { type: 'string' }, ...COLOR_OPTIONS } as const;

type Paint = ReturnType<typeof pc.createColors>;

export async function toolsCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS);
  if (values.help) {
    io.stdout(TOOLS_HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`tools takes at most one tool name, got ${positionals.length}`);
  const [name] = positionals;
  if (name !== undefined && values.search !== undefined) throw new UsageError('give a tool name or --search, not both');
  const { registry, failures, close } = await loadRegistry(values, io);
  try {
    return await show(registry, failures, name, values.search, values.json === true, io);
  } finally {
    await close();
  }
}

async function show(registry: ToolRegistry, failures: LoadFailure[], name: string | undefined, search: string | undefined, json: boolean, io: CliIO): Promise<number> {
  const paint = pc.createColors(io.colorStdout === true && !json);

  if (search !== undefined) {
    const results = await registry.search(search);
    io.stdout(json ? `${JSON.stringify({ intent: search, results: results.map(searchJson) }, null, 2)}\n` : searchText(search, results, paint));
    return 0;
  }
  if (name !== undefined) {
    const tool = registry.get(name);
    if (tool === undefined) {
      const known = registry.names();
      throw new UsageError(`there is no tool "${name}"${didYouMean(name, known)}${known.length === 0 ? ` (no tools are loaded: load some with ${WAYS_TO_LOAD_TOOLS})` : ''}`);
    }
    io.stdout(json ? `${JSON.stringify(toolJson(tool), null, 2)}\n` : describeText(tool, paint));
    return 0;
  }
  const tools = registry.list();
  io.stdout(json ? `${JSON.stringify({ tools: tools.map(toolJson), failures }, null, 2)}\n` : listText(tools, failures, paint));
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Text

function risk(level: ConfirmLevel, paint: Paint): (text: string) => string {
  return level === 'destructive' ? paint.red : level === 'write' ? paint.yellow : level === 'read' ? paint.green : paint.dim;
}

/** Pads plain text to a width before colouring, so columns line up with or without colour. */
function column(text: string, width: number, colour: (text: string) => string = (t) => t): string {
  return colour(text) + ' '.repeat(Math.max(0, width - text.length));
}

function listText(tools: RegisteredTool[], failures: LoadFailure[], paint: Paint): string {
  const lines: string[] = [];
  if (tools.length === 0) lines.push(`No tools are loaded. Load some with ${WAYS_TO_LOAD_TOOLS}.`);
  const nameWidth = Math.max(4, ...tools.map((tool) => tool.name.length));
  for (const tool of tools) {
    lines.push(
      [
        column(tool.name, nameWidth, paint.bold),
        column(tool.confirm, 11, risk(tool.confirm, paint)),
        column(tool.category, 7),
        column(tool.source, 10),
        firstSentence(tool.description),
      ]
        .join('  ')
        .trimEnd(),
    );
  }
  for (const failure of failures) lines.push(`${paint.red('failed')}  ${failure.source}: ${failure.reason}`);
  return `${lines.join('\n')}\n`;
}

function describeText(tool: RegisteredTool, paint: Paint): string {
  const lines = [paint.bold(tool.name), tool.description.trim(), ''];
  const facts: Array<[string, string]> = [
    ['risk level', `${risk(tool.confirm, paint)(tool.confirm)} (${riskMeaning(tool.confirm)})${tool.confirmFor === undefined ? '' : '; lower for some calls, depending on their arguments'}`],
    ['category', tool.category],
    ['source', tool.source],
  ];
  if (tool.id !== undefined) facts.push(['id', tool.id]);
  if (tool.title !== undefined) facts.push(['title', tool.title]);
  if (tool.timeoutMs !== undefined) facts.push(['timeout', `${tool.timeoutMs} ms`]);
  if (tool.keywords.length > 0) facts.push(['keywords', tool.keywords.join(', ')]);
  for (const [label, value] of facts) lines.push(`${column(label, 11)} ${value}`);
  lines.push('', paint.bold('Parameters'));
  const parameters = parameterSummaries(tool);
  if (parameters.length === 0) lines.push('  (none)');
  const nameWidth = Math.max(...parameters.map((p) => argumentKey(p.name).length), 0);
  const typeWidth = Math.max(...parameters.map((p) => p.type.length), 0);
  const markWidth = Math.max(...parameters.map((p) => requirement(p).length), 0);
  for (const p of parameters) {
    const details = [p.description, p.constraints].filter((text) => text !== undefined).join('; ');
    lines.push(`  ${[column(argumentKey(p.name), nameWidth, paint.bold), column(p.type, typeWidth, paint.cyan), column(requirement(p), markWidth, p.required ? paint.yellow : paint.dim), details].join('  ').trimEnd()}`);
  }
  if (tool.parametersSchema.additionalProperties !== false && tool.parametersSchema.additionalProperties !== undefined) lines.push('  (other arguments are accepted too)');
  lines.push('', `${paint.bold('Returns')}  ${paint.cyan(typeText(tool.returnsSchema))}`);
  return `${lines.join('\n')}\n`;
}

function requirement(p: ParameterSummary): string {
  if (p.required) return 'required';
  return p.default === undefined ? 'optional' : `default ${JSON.stringify(p.default)}`;
}

function riskMeaning(level: ConfirmLevel): string {
  switch (level) {
    case 'none':
      return 'runs without asking';
    case 'read':
      return 'reads; runs without asking by default';
    case 'write':
      return 'changes something; asks for approval by default';
    case 'destructive':
      return 'cannot be undone; asks for approval by default';
  }
}

function searchText(intent: string, results: SearchResult[], paint: Paint): string {
  if (results.length === 0) return `No tool matches "${intent}".\n`;
  const nameWidth = Math.max(...results.map((r) => r.tool.name.length));
  const lines = results.map((result) =>
    [column(result.score.toFixed(2), 4, paint.cyan), column(result.tool.name, nameWidth, paint.bold), column(result.tool.confirm, 11, risk(result.tool.confirm, paint)), firstSentence(result.tool.description)]
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// JSON

function toolJson(tool: RegisteredTool): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: tool.name,
    description: tool.description,
    confirm: tool.confirm,
    category: tool.category,
    source: tool.source,
  };
  if (tool.id !== undefined) out.id = tool.id;
  if (tool.title !== undefined) out.title = tool.title;
  if (tool.keywords.length > 0) out.keywords = tool.keywords;
  if (tool.timeoutMs !== undefined) out.timeoutMs = tool.timeoutMs;
  out.parameters = parameterSummaries(tool);
  out.returns = typeText(tool.returnsSchema);
  out.parametersSchema = tool.parametersSchema;
  out.returnsSchema = tool.returnsSchema;
  return out;
}

function searchJson(result: SearchResult): Record<string, unknown> {
  const out: Record<string, unknown> = { name: result.tool.name, score: result.score };
  if (result.ftsRank !== undefined) out.ftsRank = result.ftsRank;
  if (result.vectorRank !== undefined) out.vectorRank = result.vectorRank;
  out.confirm = result.tool.confirm;
  out.category = result.tool.category;
  out.source = result.tool.source;
  out.description = result.tool.description;
  return out;
}
