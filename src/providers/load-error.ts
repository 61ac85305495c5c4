// The error of tools that cannot be loaded at all (a module, a directory of executables, an MCP
// server): a module of its own, so that the CLI can tell it apart without loading the providers.

/** Loading tools failed: the message says which module and why. */
export class ToolLoadError extends Error {
  override readonly name = 'ToolLoadError';
}
