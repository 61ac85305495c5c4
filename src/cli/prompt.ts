// `nuwa prompt`: prints the system prompt that teaches a model Nuwa Script and the loaded tools
// (buildPrompt, TOOLS.md §10), with the session state when --state gives one.
import { buildPrompt } from '../prompt/prompt.js';
import { UsageError, type CliIO } from './io.js';
import { loadRegistry, parseCommandArgs, reportLoadFailures, SHARED_OPTIONS, TOOL_SOURCES_HELP } from './setup.js';

export const PROMPT_HELP = `Usage: nuwa prompt [options]

Prints a system prompt that teaches a model to write Nuwa Script for the loaded tools: the language
rules, the built-in functions, two examples and every tool's signature.

Options:
${TOOL_SOURCES_HELP}  --state <file.json>       include this session state (a JSON object of key → value)
  -h, --help                show this help
`;

export async function promptCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, SHARED_OPTIONS);
  if (values.help) {
    io.stdout(PROMPT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`prompt takes no arguments, got ${positionals.join(' ')}`);
  const { registry, failures, close } = await loadRegistry(values, io);
  try {
    reportLoadFailures(failures, io);
    io.stdout(buildPrompt(registry, { state: values.state !== undefined }));
    return 0;
  } finally {
    await close();
  }
}
