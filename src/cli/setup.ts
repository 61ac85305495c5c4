// The options every tool-loading command shares (CLI.md): --tools, --tools-dir, --mcp, --std (with
// --root and --allow-net), --state, --var and the limits.
// Each problem is a UsageError (exit status 2) naming the option and what to write instead.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { JsonValue } from '../values/json.js';
import { copyJson, NotJsonError, setJsonKey } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import { didYouMean } from '../util/suggest.js';
import { splitCommandLine } from '../providers/command-line.js';
import { installProviders } from '../providers/install.js';
import { ToolLoadError } from '../providers/load-error.js';
import type { LoadFailure, McpConnection } from '../tools/outside.js';
import type { Limits } from '../tools/limits.js';
import { ToolRegistry, type ToolRegistryOptions } from '../tools/registry.js';
import { UsageError, type CliIO } from './io.js';

/** The options `check` and `run` add to the shared ones. */
export const CHECK_OPTIONS = {
  plan: { type: 'boolean' },
  check: { type: 'boolean' },
} as const;

/** The help lines of the standard tools' options, the same in every command that loads tools. */
export const STANDARD_TOOLS_HELP = `  --std                     load the standard tools: files, HTTP, WebSocket, JSON, CSV, JSON Schema
  --root <dir>              the folder the standard file tools work in (default: the current one)
  --allow-net <hosts>       hosts (host or host:port) the standard network tools may reach,
                            comma-separated (repeatable)
`;

/** The help lines of every way to load tools (SHARED_OPTIONS' tools, tools-dir, mcp and the standard tools'). */
export const TOOL_SOURCES_HELP = `  --tools <module>          load tools from an ES module (repeatable)
  --tools-dir <dir>         load executable tools from a directory (repeatable)
  --mcp "<command> [args]"  load the tools of an MCP server started with that command (repeatable)
${STANDARD_TOOLS_HELP}`;

export const SHARED_OPTIONS = {
  tools: { type: 'string', multiple: true },
  'tools-dir': { type: 'string', multiple: true },
  mcp: { type: 'string', multiple: true },
  std: { type: 'boolean' },
  root: { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  state: { type: 'string' },
  var: { type: 'string', multiple: true },
  yes: { type: 'boolean', short: 'y' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-tool-calls': { type: 'string' },
  'max-source-bytes': { type: 'string' },
  trace: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Options = NonNullable<ParseArgsConfig['options']>;
export type ParsedCommandArgs<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/**
 * A command's arguments, parsed strictly (node:util parseArgs). An unknown option is a usage error
 * that names the closest option of this command (`--tool` → `--tools`), where Node's own message
 * only explains how to pass a positional argument that starts with `-`.
 */
export function parseCommandArgs<O extends Options>(args: string[], options: O): ParsedCommandArgs<O> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const named = /'(?:-\w, )?(-[^' ]*)/.exec((error as Error).message)?.[1];
    if (named === undefined) throw error;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const names = Object.keys(options).map((name) => `--${name}`);
      throw new UsageError(`unknown option \`${named}\`${didYouMean(named, names)}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw badOptionValue(named, args, options);
    throw error;
  }
}

/**
 * An option without its value, or a value where none goes, in one line. Node's own message is
 * three lines about `--option=-XYZ`; here `--max-steps -1` is told what --max-steps takes.
 */
function badOptionValue(option: string, args: string[], options: Options): UsageError {
  const name = option.replace(/^--?/, '');
  const config = options[name] ?? Object.values(options).find((o) => o.short === name);
  if (config?.type === 'boolean') return new UsageError(`${option} takes no value`);
  const at = args.findIndex((arg, i) => arg === option && (i + 1 === args.length || args[i + 1]!.startsWith('-')));
  const next = at < 0 ? undefined : args[at + 1];
  const number = isNumberOption(name) ? name : undefined;
  if (next === undefined) return new UsageError(`${option} needs a value${number ? `: ${NUMBER_OPTIONS[number].what}` : ''}`);
  // The value starts with `-`: a negative number, or the option's value was left out.
  if (number) return numberError(number, next);
  return new UsageError(`${option} needs a value, and ${next} is an option (a value that starts with - is written ${option}=${next})`);
}

/** The options that take a number: what each takes (parseLimits, and the playground's --port). */
type NumberOption = 'timeout' | 'max-steps' | 'max-tool-calls' | 'max-source-bytes' | 'port';
const NUMBER_OPTIONS: Record<NumberOption, { what: string; max: number }> = {
  timeout: { what: 'a whole number of milliseconds, 0 or more', max: Number.MAX_SAFE_INTEGER },
  'max-steps': { what: 'a whole number, 0 or more', max: Number.MAX_SAFE_INTEGER },
  'max-tool-calls': { what: 'a whole number, 0 or more', max: Number.MAX_SAFE_INTEGER },
  'max-source-bytes': { what: 'a whole number of bytes, 0 or more', max: Number.MAX_SAFE_INTEGER },
  port: { what: 'a port number from 0 to 65535', max: 65_535 },
};

const isNumberOption = (name: string): name is NumberOption => Object.hasOwn(NUMBER_OPTIONS, name);

function numberError(name: NumberOption, text: string): UsageError {
  return new UsageError(`--${name} ${text}: expected ${NUMBER_OPTIONS[name].what}`);
}

/** The number an option such as --max-steps or --port was given, or a usage error saying what it takes. */
export function readNumberOption(name: NumberOption, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !(n <= NUMBER_OPTIONS[name].max)) throw numberError(name, text);
  return n;
}

export interface SharedValues {
  tools?: string[];
  'tools-dir'?: string[];
  mcp?: string[];
  std?: boolean;
  root?: string;
  'allow-net'?: string[];
  state?: string;
  var?: string[];
  timeout?: string;
  'max-steps'?: string;
  'max-tool-calls'?: string;
  'max-source-bytes'?: string;
}

export type { LoadFailure };

/** Every way to load tools, for the messages that say none are loaded. */
export const WAYS_TO_LOAD_TOOLS = '--tools <module> (an ES module), --tools-dir <dir> (programs in any language), --mcp "<command>" (an MCP server) or --std (the standard tools)';

export interface LoadedTools {
  registry: ToolRegistry;
  /** What failed to load without stopping the rest (print them as warnings). */
  failures: LoadFailure[];
  /** Stops the MCP servers started for --mcp; call it when the command is done, also on failure. */
  close(): Promise<void>;
}

/**
 * Builds the registry from --tools, --tools-dir and --mcp (in that order) and --state. A source that
 * cannot load at all (a missing module or directory, an MCP server that does not start) is a
 * UsageError, after closing what was already started; a single bad file of a directory is a failure.
 * `options` are the registry's (where tools' print and logger go, for a command that routes them).
 */
// The CLI loads tools from outside the process through the registry, as any host does.
installProviders();

export async function loadRegistry(values: SharedValues, io: CliIO, options: ToolRegistryOptions = {}): Promise<LoadedTools> {
  const std = stdOptions(values, io.cwd);
  const registry = new ToolRegistry(options);
  const failures: LoadFailure[] = [];
  const connections: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  };
  // Ctrl-C (or SIGTERM, SIGHUP) while tools load (a slow --tool-info, an MCP server starting) stops
  // the probes and the servers already started, instead of leaving them behind.
  const interrupted = new AbortController();
  const stopWatching = io.onInterrupt?.((why) => {
    const what = why.kind === 'signal' ? (why.signal === 'SIGINT' ? 'Ctrl-C' : why.signal) : why.message;
    interrupted.abort(new UsageError(`interrupted (${what}) while loading tools`));
  });
  const stopIfInterrupted = () => {
    if (interrupted.signal.aborted) throw interrupted.signal.reason;
  };
  // The module loader is loaded only for --tools: `nuwa run` starts faster without it.
  let modules: typeof import('../providers/module.js') | undefined;
  try {
    if (std !== undefined) await registerStd(registry, std);
    for (const specifier of values.tools ?? []) {
      modules ??= await import('../providers/module.js');
      await modules.loadToolModule(registry, specifier, io.cwd);
    }
    for (const dir of values['tools-dir'] ?? []) {
      const loaded = await registry.loadExecutables(path.resolve(io.cwd, dir), { signal: interrupted.signal });
      failures.push(...loaded.failures.map((failure) => ({ ...failure, source: path.relative(io.cwd, failure.source) || failure.source })));
    }
    for (const text of values.mcp ?? []) {
      stopIfInterrupted();
      const connection = await slowStartNotes(io, text, () => registry.connectMcp({ ...parseMcpCommand(text), cwd: io.cwd, signal: interrupted.signal }));
      connections.push(connection);
      failures.push(...connection.failures);
    }
    stopIfInterrupted();
    if (values.state !== undefined) applyState(registry, values.state, io.cwd);
  } catch (error) {
    await close();
    if (error instanceof ToolLoadError) throw new UsageError(error.message);
    throw error;
  } finally {
    stopWatching?.();
  }
  return { registry, failures, close };
}

/** How long an MCP server may take to start before the user is told what is being waited for. */
export const SLOW_START_MS = 1_000;

/**
 * Starts an MCP server with `start`; when that takes longer than SLOW_START_MS, says so on stderr,
 * and then which server it was once it is up (a server fetched by npx can take a minute, with
 * nothing else to show). Only where stderr is a terminal: a person is waiting there, while a
 * program reading stderr wants nothing but warnings and errors. Never on stdout.
 */
export async function slowStartNotes(io: CliIO, command: string, start: () => Promise<McpConnection>): Promise<McpConnection> {
  if (!io.progress) return start();
  const began = Date.now();
  let noted = false;
  const timer = setTimeout(() => {
    noted = true;
    io.stderr(`nuwa: starting the MCP server \`${command}\`...\n`);
  }, SLOW_START_MS);
  try {
    const connection = await start();
    if (noted) {
      const { name, version } = connection.server;
      const count = connection.tools.length;
      io.stderr(`nuwa: MCP server \`${command}\` ready after ${((Date.now() - began) / 1000).toFixed(1)} s: ${name}${version ? ` ${version}` : ''}, ${count} tool${count === 1 ? '' : 's'} as ${connection.name}.*\n`);
    }
    return connection;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The options of the standard tools (--std, --root DIR, --allow-net HOSTS), or undefined without
 * --std. --allow-net takes comma-separated hosts and may be repeated. --root or --allow-net without
 * --std is a usage error: alone they would load nothing, and the script's calls would fail later.
 */
function stdOptions(values: SharedValues, cwd: string): { root: string; allowNet: string[] } | undefined {
  const allowNet = (values['allow-net'] ?? []).flatMap((text) => text.split(',')).map((host) => host.trim()).filter((host) => host !== '');
  if (!values.std) {
    const given = values.root !== undefined ? '--root' : values['allow-net'] !== undefined ? '--allow-net' : undefined;
    if (given) throw new UsageError(`${given} configures the standard tools: add --std to load them`);
    return undefined;
  }
  return { root: path.resolve(cwd, values.root ?? '.'), allowNet };
}

/** Loads the standard tools (only now: a command without --std never loads `ws` or `csv-parse`). */
async function registerStd(registry: ToolRegistry, options: { root: string; allowNet: string[] }): Promise<void> {
  const { registerStdTools, StdOptionError } = await import('../std/index.js');
  try {
    registerStdTools(registry, options);
  } catch (error) {
    if (!(error instanceof StdOptionError)) throw error;
    const flag = error.option === 'allowNet' ? '--allow-net' : `--${error.option}`;
    throw new UsageError(`${flag}: ${error.problem}`);
  }
}

/** `--mcp "<command> [args]"` → `{ command, args }` (quoting rules: src/providers/command-line.ts). */
export function parseMcpCommand(text: string): { command: string; args: string[] } {
  let words: string[];
  try {
    words = splitCommandLine(text);
  } catch (error) {
    throw new UsageError(`--mcp ${JSON.stringify(text)}: ${(error as Error).message}`);
  }
  const [command, ...args] = words as [string, ...string[]];
  return { command, args };
}

/** Tools that failed to load, as warnings on stderr. */
export function reportLoadFailures(failures: LoadFailure[], io: CliIO): void {
  for (const { source, reason } of failures) io.stderr(`nuwa: warning: ${source}: not loaded: ${reason}\n`);
}

function applyState(registry: ToolRegistry, file: string, cwd: string): void {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`--state ${file}: ${why}`);
  }
  if (state === null || typeof state !== 'object' || Array.isArray(state)) throw new UsageError(`--state ${file}: the file must hold a JSON object of key → value`);
  for (const [key, value] of Object.entries(state)) registry.setState(key, usableJson(`--state ${file}: "${key}"`, value));
}

/** A value the run would refuse (nested too deep, say) is a mistake in the option: a usage error. */
function usableJson(option: string, value: unknown): JsonValue {
  try {
    return copyJson(value);
  } catch (error) {
    throw new UsageError(`${option}: the value ${error instanceof NotJsonError ? error.problem : describeThrown(error)}`);
  }
}

/** `--var name=<json>`; text that is not JSON is taken as a string, so `--var city=Paris` works. */
export function parseVariables(specs: string[] | undefined): Record<string, JsonValue> {
  const variables: Record<string, JsonValue> = {};
  for (const spec of specs ?? []) {
    const equals = spec.indexOf('=');
    const name = equals < 0 ? spec : spec.slice(0, equals);
    if (equals < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(`--var ${spec}: write --var name=<json>, e.g. --var limit=10 or --var 'tags=["a","b"]'`);
    }
    const text = spec.slice(equals + 1);
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch {
      value = text;
    }
    setJsonKey(variables, name, usableJson(`--var ${name}`, value));
  }
  return variables;
}

export function parseLimits(values: SharedValues): Limits {
  const limits: Limits = {};
  const read = (option: Exclude<NumberOption, 'port'>, key: keyof Limits) => {
    const text = values[option];
    if (text !== undefined) limits[key] = readNumberOption(option, text);
  };
  read('timeout', 'timeoutMs');
  read('max-steps', 'maxSteps');
  read('max-tool-calls', 'maxToolCalls');
  read('max-source-bytes', 'maxSourceBytes');
  return limits;
}
