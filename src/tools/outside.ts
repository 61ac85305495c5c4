// The contract between the registry and the providers of tools that live outside the process
// (TOOLS.md §9): what `registry.loadExecutables` and `registry.connectMcp` take and give. The
// providers sit above the registry (they register tools into it), so the registry imports none of
// them: the package's entry points install loaders here (providers/install.ts), and a provider is
// loaded the first time a host asks for it (a host that never spawns a process loads none, nor the
// MCP SDK).
import type { ConfirmLevel, ToolCategory } from './types.js';
import { NuwaError } from '../errors.js';

export interface ExecutableOptions {
  /** Per-call time limit for this directory's tools that set none themselves (default 30 s). */
  timeoutMs?: number;
  /** Added to (or overriding) the host's environment for every process. */
  env?: Record<string, string>;
  /** How long a `--tool-info` probe may take (default 5 s). */
  probeTimeoutMs?: number;
  /** Stops loading: running probes are killed, and loading rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The most a call may print on stdout (default 4 MiB); more stops it with a ToolExecutionError. */
  maxOutputBytes?: number;
}

/** A source of tools that failed to load: a file of a tools directory, or an MCP server's tool. */
export interface LoadFailure {
  source: string;
  reason: string;
}

export interface ExecutablesLoaded {
  /** The names of the tools registered. */
  tools: string[];
  /** Each file that looked like a tool but could not be loaded, and why. */
  failures: LoadFailure[];
}

export interface McpConnectOptions {
  /** The program that starts the server (no shell: a path or a name looked up in PATH). */
  command: string;
  args?: string[];
  /** Added to (or overriding) the host's environment. */
  env?: Record<string, string>;
  /** The toolset name; default: the name the server reports, made an identifier. */
  name?: string;
  cwd?: string;
  /** Per-call time limit (default 60 s); on expiry the call is cancelled at the server. */
  timeoutMs?: number;
  /** The risk level of tools whose annotations give none (default `write`). */
  confirm?: ConfirmLevel;
  /** The category of the server's tools (default `custom`). */
  category?: ToolCategory;
  /** How long starting the server and listing its tools may take (default 60 s). */
  startTimeoutMs?: number;
  /** Stops connecting (the server is closed and connectMcp rejects). */
  signal?: AbortSignal;
  /**
   * The most one message from the server may hold (default 4 MiB, as an executable's stdout): a
   * call whose answer is larger fails at once with a ToolExecutionError naming the limit.
   */
  maxMessageBytes?: number;
}

export interface McpConnection {
  /** The toolset the server's tools are registered under (`<name>.<tool>`). */
  readonly name: string;
  /** The name and version the server reported. */
  readonly server: { name: string; version: string };
  /** The names of the tools registered. */
  readonly tools: string[];
  /** The server's tools that could not be registered, and why. */
  readonly failures: LoadFailure[];
  /** The server's process id (while it runs). */
  readonly pid: number | null;
  /** Stops the server and unregisters its tools. */
  close(): Promise<void>;
}


/** A provider as the registry calls it; `registry` is the registry the tools go into. */
export interface OutsideProviders<Registry> {
  executables(): Promise<{ loadExecutables(registry: Registry, dir: string, options?: ExecutableOptions): Promise<ExecutablesLoaded> }>;
  mcp(): Promise<{ connectMcp(registry: Registry, options: McpConnectOptions): Promise<McpConnection> }>;
  /** ES modules of tools, and NeuroScript plugins. */
  modules(): Promise<{ loadPlugin(registry: Registry, path: string): Promise<string[]> }>;
}

let installed: OutsideProviders<never> | undefined;

/** Called by the entry points that can run processes (Node): where the providers are found. */
export function installOutsideProviders<Registry>(providers: OutsideProviders<Registry>): void {
  installed = providers as OutsideProviders<never>;
}

/** The installed providers; a host that loaded only part of the package gets a clear error. */
export function outsideProviders<Registry>(what: string): OutsideProviders<Registry> {
  if (installed === undefined) {
    throw new NuwaError('TypeError', `${what} is not available here: tools outside the process need Node.js and the package's main entry (import from 'nuwa-script')`);
  }
  return installed as OutsideProviders<Registry>;
}
