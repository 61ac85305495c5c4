// The registry as the call path sees it: finding tools by name, and the default session. The
// registry (registry.ts) is the one implementation; the modules it is made of (invoke, execute,
// run, detached) know it only through this, so none of them imports the registry.
import type { RegisteredTool } from './build.js';
import type { Session } from './session.js';

export interface ToolCatalog {
  /** The tool a CALL names (an exported name such as `math__add` too). */
  lookup(name: string): RegisteredTool | undefined;
  /** A tool by its id or its name. */
  get(idOrName: string): RegisteredTool | undefined;
  has(name: string): boolean;
  /** The names of every tool, for "did you mean". */
  names(): string[];
  /** The session of host code and of runs that name none. */
  readonly defaultSession: Session;
}
