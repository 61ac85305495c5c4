// The `nuwa` command line: a thin host on the public API. Dispatches to the command, turns usage
// mistakes into exit status 2 with a hint, and never shows a JavaScript stack for a script error.
import { readFileSync } from 'node:fs';
import { describeThrown } from '../util/foreign.js';
import { processIO, UsageError, type CliIO } from './io.js';
import { RUN_HELP, runCommand } from './run.js';

export const HELP = `Nuwa Script: run plans of tool calls written by agents and people.

Usage:
  nuwa run <file.nuwa | ->   [options]  run a script (- reads it from stdin)
  nuwa check <file.nuwa | -> [options]  check a script without running it (--plan: preview its calls)
  nuwa repl                  [options]  interactive session (.help inside lists the dot commands)
  nuwa tools [<name>]        [options]  list the loaded tools, or describe one; --search "<intent>" ranks them
  nuwa prompt                [options]  print a system prompt that teaches a model Nuwa Script and the loaded tools
  nuwa mcp                   [options]  serve run_script, describe_tools and the loaded tools over MCP (stdio)
  nuwa runs [<command>]      [options]  the durable runs (run --durable): list, show, approve, deny, answer, resume, recover, rm
  nuwa --help | --version

Run \`nuwa run --help\` or \`nuwa check --help\` for the options of each command.
`;

/** `nuwa help <command>`: that command's help (each is loaded only to print it). */
async function helpFor(command: string | undefined): Promise<string> {
  switch (command) {
    case 'run':
      return RUN_HELP;
    case 'check':
      return (await import('./check.js')).CHECK_HELP;
    case 'mcp':
      return (await import('./mcp.js')).MCP_HELP;
    case 'runs':
      return (await import('./runs.js')).RUNS_HELP;
    default:
      return HELP;
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io);
      // The other commands are imported on demand, so that `nuwa run` starts without loading the
      // checker, node:repl, MiniSearch or the MCP SDK.
      case 'check':
        return await (await import('./check.js')).checkCommand(rest, io);
      case 'repl':
        return await (await import('./repl.js')).replCommand(rest, io);
      case 'tools':
        return await (await import('./tools.js')).toolsCommand(rest, io);
      case 'prompt':
        return await (await import('./prompt.js')).promptCommand(rest, io);
      case 'mcp':
        return await (await import('./mcp.js')).mcpCommand(rest, io);
      case 'runs':
        return await (await import('./runs.js')).runsCommand(rest, io);
      case '--version':
      case '-v':
        io.stdout(`${version()}\n`);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        io.stdout(await helpFor(command === 'help' ? rest[0] : undefined));
        return 0;
      case undefined:
        io.stderr(HELP);
        return 2;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`nuwa: ${describeThrown(error)}\nRun \`nuwa --help\` for usage.\n`);
      return 2;
    }
    // Not a script error and not a usage error: a fault in a host component. Report it plainly.
    io.stderr(`nuwa: internal error: ${describeThrown(error)}\n`);
    return 1;
  }
}

/**
 * The `nuwa` executable: runs `main` on the real process, waits until stdout and stderr are flushed,
 * and exits — also when a tools module left a handle open. Output that could not be written (other
 * than to a reader that went away) and faults outside any command make the status non-zero.
 */
export async function cli(argv: string[]): Promise<never> {
  const io = processIO();
  let code = await main(argv, io);
  await io.flush();
  if (io.outputFailure !== undefined && !io.outputFailure.closed) {
    io.stderr(`nuwa: ${io.outputFailure.message}\n`);
    code ||= 1;
  }
  if (io.faulted) code ||= 1;
  await io.flush();
  process.exit(code);
}

/** A usage error or a parseArgs error; guarded, as whatever reaches main may come from a tools module. */
function isUsageError(error: unknown): boolean {
  try {
    return error instanceof UsageError || (error instanceof Error && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS'));
  } catch {
    return false;
  }
}
