// A tool's context.ask on the command line (TOOLS.md §11): on a terminal the question is shown, with
// its choices numbered, and the line typed is the answer (a choice by its number or its text; anything
// else asks again). Without a terminal there is no one to ask, and the tool is told so with a
// ToolExecutionError it may catch.
import { NuwaError } from '../errors.js';
import type { AskHook } from '../tools/types.js';
import { questionOnTerminal } from './terminal-question.js';

/** Reads one answer line after showing `prompt`; rejects when `signal` aborts. */
export type ReadLine = (prompt: string, signal: AbortSignal) => Promise<string>;

export function cliAsk(options: { interactive: boolean; command: string; readLine?: ReadLine }): AskHook {
  if (!options.interactive) {
    return () => {
      throw new NuwaError(
        'ToolExecutionError',
        `context.ask needs a terminal to ask on; nuwa ${options.command} has none here (stdin and stderr are not both terminals), so the question cannot be answered`,
      );
    };
  }
  const readLine = options.readLine ?? questionOnTerminal;
  return async ({ question, choices, toolName, signal }) => {
    if (choices === undefined) return readLine(`${toolName} asks: ${question}\n> `, signal);
    const listed = choices.map((choice, index) => `  ${index + 1}) ${choice}`).join('\n');
    let prompt = `${toolName} asks: ${question}\n${listed}\nChoose 1-${choices.length}: `;
    for (;;) {
      const chosen = chooseFrom(choices, await readLine(prompt, signal));
      if (chosen !== undefined) return chosen;
      prompt = `Answer with a number from 1 to ${choices.length}, or one of the choices as written: `;
    }
  };
}

/** The choice an answer names: by its number, by its text, or by its text in any case if that is unambiguous. */
export function chooseFrom(choices: readonly string[], typed: string): string | undefined {
  const answer = typed.trim();
  if (/^\d+$/.test(answer)) {
    const index = Number(answer) - 1;
    if (index >= 0 && index < choices.length) return choices[index];
  }
  if (choices.includes(answer)) return answer;
  const folded = choices.filter((choice) => choice.toLowerCase() === answer.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}
