// The `nuwa` command line: a thin host on the public API. Dispatches to the command, turns usage
// mistakes into exit status 2 with a hint, and never shows a JavaScript stack for a script error.
import { readFileSync } from 'node:fs';
import { describeThrown } from '../util/foreign.js';
import { didYouMean } from '../util/suggest.js';
import { colorFlag } from './color.js';
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
  nuwa playground            [options]  try scripts in a web page on 127.0.0.1 against the loaded tools
  nuwa --help | --version

Run \`nuwa <command> --help\` (or \`nuwa help <command>\`) for the options of a command.
`;

/** A command: what it does, and its help text (each is loaded only when used). */
interface Command {
  run(args: string[], io: CliIO): Promise<number>;
  help(): Promise<string>;
}

// The commands other than `run` are imported on demand, so that `nuwa run` starts without loading
// the checker, node:repl, MiniSearch or the MCP SDK.
const COMMANDS: Record<string, Command> = {
  run: { run: runCommand, help: async () => RUN_HELP },
  check: { run: async (args, io) => (await import('./check.js')).checkCommand(args, io), help: async () => (await import('./check.js')).CHECK_HELP },
  repl: { run: async (args, io) => (await import('./repl.js')).replCommand(args, io), help: async () => (await import('./repl.js')).REPL_USAGE },
  tools: { run: async (args, io) => (await import('./tools.js')).toolsCommand(args, io), help: async () => (await import('./tools.js')).TOOLS_HELP },
  prompt: { run: async (args, io) => (await import('./prompt.js')).promptCommand(args, io), help: async () => (await import('./prompt.js')).PROMPT_HELP },
  mcp: { run: async (args, io) => (await import('./mcp.js')).mcpCommand(args, io), help: async () => (await import('./mcp.js')).MCP_HELP },
  runs: { run: async (args, io) => (await import('./runs.js')).runsCommand(args, io), help: async () => (await import('./runs.js')).RUNS_HELP },
  playground: { run: async (args, io) => (await import('./playground.js')).playgroundCommand(args, io), help: async () => (await import('./playground.js')).PLAYGROUND_HELP },
};

function commandNamed(name: string | undefined): Command | undefined {
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

/** What to say about a first argument that is no command: the closest commands, as for options. */
function unknownCommand(name: string): UsageError {
  if (name.startsWith('-')) return new UsageError(`unknown option \`${name}\`: options go after the command, as in nuwa run <file> ${name}`);
  const names = [...Object.keys(COMMANDS), 'help'];
  const close = didYouMean(name, names);
  return new UsageError(`unknown command \`${name}\`${close || `: the commands are ${names.join(', ')}`}`);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [command, ...rest] = argv;
  const known = commandNamed(command);
  try {
    if (known) return await known.run(rest, withColorFlag(io, colorFlag(rest)));
    switch (command) {
      case '--version':
      case '-v':
        io.stdout(`${version()}\n`);
        return 0;
      case '--help':
      case '-h':
        io.stdout(HELP);
        return 0;
      case 'help': {
        // `nuwa help <command>`: that command's help.
        if (rest[0] === undefined) {
          io.stdout(HELP);
          return 0;
        }
        const asked = commandNamed(rest[0]);
        if (asked === undefined) throw unknownCommand(rest[0]);
        io.stdout(await asked.help());
        return 0;
      }
      case undefined:
        io.stderr(HELP);
        return 2;
      default:
        throw unknownCommand(command);
    }
  } catch (error) {
    if (isUsageError(error)) {
      // The help of the command the mistake was made in: it lists that command's options.
      io.stderr(`nuwa: ${describeThrown(error)}\nRun \`nuwa ${known ? `${command} ` : ''}--help\` for usage.\n`);
      return 2;
    }
    // Not a script error and not a usage error: a fault in a host component. Report it plainly.
    io.stderr(`nuwa: internal error: ${describeThrown(error)}\n`);
    return 1;
  }
}

/** `io` with --color / --no-color applied: they override what the environment says. */
function withColorFlag(io: CliIO, flag: boolean | undefined): CliIO {
  if (flag === undefined) return io;
  return Object.create(io, { color: { value: flag }, colorStdout: { value: flag } }) as CliIO;
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
