// The messages of a CALL that cannot run, shared by the runtime (invokeTool) and the static
// checker (src/check), so that a problem found before the run reads exactly like the failure.
import { didYouMean } from '../util/suggest.js';
import type { ArgumentProblem } from './validate.js';

/** "there is no tool `x`: did you mean `y`?" (or the list of tools, when it is short). */
export function unknownToolMessage(name: string, names: readonly string[]): string {
  const close = didYouMean(name, names);
  const hint = close || (names.length === 0 ? ': no tools are registered' : names.length <= 12 ? `: the tools are ${names.join(', ')}` : '');
  return `there is no tool \`${name}\`${hint}`;
}

/** The message of a ToolArgumentError: every problem of the call, in one line. */
export function invalidArgumentsMessage(name: string, problems: readonly ArgumentProblem[]): string {
  return `invalid arguments for tool \`${name}\`: ${problems.map((p) => p.message).join('; ')}`;
}
