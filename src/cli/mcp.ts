// `nuwa mcp [tool options]`: serves run_script, describe_tools and the loaded tools to one MCP
// client over stdio (stdin/stdout carry the protocol; everything else goes to stderr) until the
// client closes stdin or the process is interrupted; then the MCP servers it started are closed.
// One bad message (too large, not JSON) is answered and skipped, never the end of the serving.
import { readFileSync } from 'node:fs';
import { UsageError, type CliIO } from './io.js';
import { createNuwaMcpServer } from './mcp-server.js';
import { NuwaStdioServerTransport } from './mcp-stdio.js';
import { describeThrown } from '../util/foreign.js';
import { loadRegistry, parseCommandArgs, parseLimits, reportLoadFailures, SHARED_OPTIONS, STANDARD_TOOLS_HELP } from './setup.js';

export const MCP_HELP = `Usage: nuwa mcp [options]

Serves, over stdio to an MCP client: run_script (runs a Nuwa Script plan), describe_tools (how to
write scripts for the loaded tools) and each loaded tool (math.add as math__add). A tool's
context.ask goes to the client as an elicitation and context.llm as a sampling request, when the
client supports them.

Options:
  --tools <module>          load tools from an ES module (repeatable)
  --tools-dir <dir>         load executable tools from a directory (repeatable)
  --mcp "<command> [args]"  load the tools of another MCP server (repeatable)
${STANDARD_TOOLS_HELP}  --state <file.json>       initial session state: a JSON object of key → value
  -y, --yes                 approve every tool call that needs approval (otherwise the client is
                            asked, when it supports elicitation, and they are denied when it does not)
  --timeout <ms>            wall-clock limit for each run_script run and each call
  --max-steps <n>           limit on statements and loop iterations of each run
  --max-tool-calls <n>      limit on tool calls of each run
  --max-source-bytes <n>    the longest script run_script accepts (default 4 MiB)
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
    // Whatever ends the serving, other than the client closing stdin (the normal end, which the
    // client knows of), a line on stderr says what it was: a client must never see the server
    // vanish without a word (as when the SDK's transport closed itself on one big message).
    const finished = new Promise<{ why?: string; status: number }>((resolve) => {
      process.stdin.once('end', () => resolve({ status: 0 }));
      process.stdin.once('close', () => resolve({ status: 0 }));
      process.stdin.once('error', (error) => resolve({ why: `stdin failed: ${describeThrown(error)}`, status: 1 }));
      process.once('SIGINT', () => resolve({ why: 'interrupted (SIGINT)', status: 0 }));
      process.once('SIGTERM', () => resolve({ why: 'terminated (SIGTERM)', status: 0 }));
      server.onclose = () => resolve({ why: 'the connection was closed', status: 0 });
      // Nothing left to wait for would otherwise end the process with Node's silent status 13.
      process.once('beforeExit', () => resolve({ why: 'nothing is left to serve', status: 1 }));
    });
    const report = (line: string) => io.stderr(`nuwa mcp: ${line}\n`);
    server.onerror = (error) => report(`protocol error: ${describeThrown(error)}`);
    await server.connect(new NuwaStdioServerTransport({ report }));
    const { why, status } = await finished;
    if (why !== undefined) report(`stopping: ${why}`);
    await server.close();
    return status;
  } finally {
    await close();
  }
}

function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
