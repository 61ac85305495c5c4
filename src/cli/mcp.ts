// `nuwa mcp [tool options]`: serves run_script, describe_tools and the loaded tools to one MCP
// client over stdio (stdin/stdout carry the protocol; everything else goes to stderr) until the
// client closes stdin or the process is interrupted; then the MCP servers it started are closed.
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { UsageError, type CliIO } from './io.js';
import { createNuwaMcpServer } from './mcp-server.js';
import { loadRegistry, parseCommandArgs, parseLimits, reportLoadFailures, SHARED_OPTIONS } from './setup.js';

export const MCP_HELP = `Usage: nuwa mcp [options]

Serves, over stdio to an MCP client: run_script (runs a Nuwa Script plan), describe_tools (how to
write scripts for the loaded tools) and each loaded tool (math.add as math__add). A tool's
context.ask goes to the client as an elicitation and context.llm as a sampling request, when the
client supports them.

Options:
  --tools <module>          load tools from an ES module (repeatable)
  --tools-dir <dir>         load executable tools from a directory (repeatable)
  --mcp "<command> [args]"  load the tools of another MCP server (repeatable)
  --std                     load the standard tools: files, HTTP, WebSocket, JSON, CSV, JSON Schema
  --root <dir>              the folder the standard file tools work in (default: the current one)
  --allow-net <hosts>       hosts (host or host:port) the standard network tools may reach,
                            comma-separated (repeatable)
  --state <file.json>       initial session state: a JSON object of key → value
  -y, --yes                 approve every tool call that needs approval (otherwise the client is
                            asked, when it supports elicitation, and they are denied when it does not)
  --timeout <ms>            wall-clock limit for each run_script run and each call
  --max-steps <n>           limit on statements and loop iterations of each run
  --max-tool-calls <n>      limit on tool calls of each run
  -h, --help                show this help
`;

export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, SHARED_OPTIONS);
  if (values.help) {
    io.stdout(MCP_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`mcp takes no file, got ${positionals.join(' ')}`);
  for (const option of ['var', 'json', 'trace'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} is an option of run; run_script takes variables in its input`);
  }
  const limits = parseLimits(values);
  const { registry, failures, close } = await loadRegistry(values, io);
  // stdout is the protocol's channel: a tool that logs with console.log must not corrupt it.
  console.log = console.info = console.debug = (...parts: unknown[]) => console.error(...parts);
  try {
    reportLoadFailures(failures, io);
    const logger = { debug: () => {}, info: (m: string) => io.stderr(`${m}\n`), warn: (m: string) => io.stderr(`warning: ${m}\n`), error: (m: string) => io.stderr(`error: ${m}\n`) };
    const server = createNuwaMcpServer(registry, { yes: values.yes === true, limits, sandboxDir: io.cwd, logger, version: version() });
    const finished = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.connect(new StdioServerTransport());
    await finished;
    await server.close();
    return 0;
  } finally {
    await close();
  }
}

function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
