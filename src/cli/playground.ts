// `nuwa playground [tool options] [--port N] [--open]`: serves the playground page on 127.0.0.1
// (src/playground/server.ts) for trying scripts against the loaded tools, until Ctrl-C. The URL,
// with its token, is the one line on stdout; notes go to stderr.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ASSETS } from '../playground/html.js';
import { DEFAULT_PORT, startPlaygroundServer, toolOutput } from '../playground/server.js';
import { UsageError, type CliIO } from './io.js';
import { openTrace } from './run.js';
import { loadRegistry, parseCommandArgs, parseLimits, parseVariables, reportLoadFailures, SHARED_OPTIONS } from './setup.js';

export const PLAYGROUND_HELP = `Usage: nuwa playground [options]

Serves a web page on 127.0.0.1 for trying scripts against the loaded tools: an editor with
highlighting, completion and problems as you type, Plan, Run, the output, the variables and the
state, and the examples. Scripts run in the page; their tool calls run here, and a call that needs
approval is asked in the page. The URL printed on stdout carries a token: only that page can use
the server. Ctrl-C stops it.

Options:
  --tools <module>          load tools from an ES module (repeatable)
  --tools-dir <dir>         load executable tools from a directory (repeatable)
  --mcp "<command> [args]"  load the tools of an MCP server started with that command (repeatable)
  --state <file.json>       initial session state (Reset in the page goes back to it)
  --var name=<json>         an initial variable of every run (repeatable; non-JSON text is a string)
  -y, --yes                 approve every call that needs approval without asking in the page (the
                            page still lists each one as approved by --yes)
  --timeout <ms>            wall-clock limit for each run, and for each tool call
  --max-steps <n>           limit on statements and loop iterations of each run
  --max-tool-calls <n>      limit on tool calls of each run
  --max-source-bytes <n>    the longest script a run accepts (default 4 MiB)
  --trace <file.jsonl>      write the events of the tool calls the server runs as JSON lines
  --port <n>                the port to serve on (default ${DEFAULT_PORT}; if it is taken, the next free
                            one; 0 for any free port)
  --open                    open the page in the default browser ($BROWSER if set)
  -h, --help                show this help
`;

const PLAYGROUND_OPTIONS = { ...SHARED_OPTIONS, port: { type: 'string' }, open: { type: 'boolean' } } as const;

/** Where the built page is: dist/playground next to dist/cli. */
const PAGE_DIR = fileURLToPath(new URL('../playground/', import.meta.url));

export async function playgroundCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, PLAYGROUND_OPTIONS);
  if (values.help) {
    io.stdout(PLAYGROUND_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`playground takes no file (open scripts in the page), got ${positionals.join(' ')}`);
  if (values.json) throw new UsageError('--json is an option of run and check: the playground shows results in the page');
  const port = parsePort(values.port);
  const limits = parseLimits(values);
  const variables = parseVariables(values.var);
  if (!existsSync(path.join(PAGE_DIR, ASSETS.script))) throw new UsageError(`the playground page is not built (${path.join(PAGE_DIR, ASSETS.script)} is missing): run npm run build`);

  const trace = values.trace === undefined ? undefined : openTrace(values.trace, io.cwd);
  // What tools print or log during a call goes to the page; anything else (a stray timer) to stderr.
  const output = toolOutput({ print: (line) => io.stderr(`${line}\n`), log: (level, message) => io.stderr(`${level}: ${message}\n`) });
  try {
    const { registry, failures, close } = await loadRegistry(values, io, { ...output, sandboxDir: io.cwd });
    try {
      reportLoadFailures(failures, io);
      const server = await startPlaygroundServer({
        registry,
        pageDir: PAGE_DIR,
        port,
        yes: values.yes === true,
        limits,
        variables,
        failures: failures.map(({ source, reason }) => ({ source, reason })),
        ...(trace && { onEvent: (event) => trace.write(event) }),
      }).catch((error: unknown) => {
        throw new UsageError((error as Error).message);
      });
      io.stdout(`${server.url}\n`);
      const count = registry.names().length;
      io.stderr(`Nuwa playground: ${count} tool${count === 1 ? '' : 's'} loaded. Open the URL above in a browser; Ctrl-C stops the server.\n`);
      if (values.open) openInBrowser(server.url, io);
      await untilInterrupted(io);
      await server.close();
      return 0;
    } finally {
      await close(); // MCP servers end with the command
    }
  } finally {
    trace?.close();
  }
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port ${text}: expected a port number from 0 to 65535`);
  return port;
}

/**
 * Resolves when the command should stop: Ctrl-C (or SIGTERM, SIGHUP), or stdout going away. Code
 * a tool left running that throws outside any call is reported and the server goes on.
 */
function untilInterrupted(io: CliIO): Promise<void> {
  const stopFaults = io.onFault?.((message) => io.stderr(`nuwa: warning: a tool threw outside any call: ${message}\n`));
  return new Promise<void>((resolve) => {
    const stop = io.onInterrupt?.(() => {
      stop?.();
      stopFaults?.();
      resolve();
    });
  });
}

/** Opens `url` with $BROWSER, or the system's opener; a failure is a warning (the URL is printed). */
function openInBrowser(url: string, io: CliIO): void {
  const browser = process.env.BROWSER;
  const [command, args]: [string, string[]] =
    browser !== undefined && browser !== ''
      ? [browser, [url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', url]]
          : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', (error) => io.stderr(`nuwa: warning: cannot open a browser (${command}: ${error.message}): open the URL yourself\n`));
    child.unref();
  } catch (error) {
    io.stderr(`nuwa: warning: cannot open a browser (${command}: ${(error as Error).message}): open the URL yourself\n`);
  }
}
