// The programs of the texts run most recently, so that a text run again is not parsed again.
//
// A host often runs the same script many times at once (one plan for each of ten thousand users,
// say), each run from its text and often each with its own Interpreter. Parsed every time, each run
// held its own syntax tree and, compiled for that tree, its own closures (evaluator.ts compiles once
// per tree): about 7 KB a waiting run, half of what it held. One tree for one text makes the runs
// share the compiled closures too, as runs of one parsed Program already do (run(program)).
//
// Sharing is safe because a Program that parsed without problems is never changed afterwards: the
// runtime keeps what it learns about a tree in WeakMaps and WeakSets keyed by its nodes (the compiled
// closures, waiting.ts, the plan hash), and a run's state lives in its ScriptRun and Scopes. Only
// texts that parsed cleanly are kept (a syntax error is reported afresh, with its findings, by each
// run), and only in the process that parsed them: nothing depends on the host's options, limits or
// registry, so one cache serves every Interpreter.
//
// Bounded twice, so that a host running a stream of different scripts keeps little: by count, and by
// the text's total length (a tree is some twenty times its text, so 256 K characters of text is about
// 5 MB of trees at most). The least recently run text goes first.
import type { Program } from '../syntax/ast.js';

/** How many texts are kept at most. */
export const MAX_PARSED_TEXTS = 64;
/** How many characters of text, all kept texts together, at most; a longer text is not kept. */
export const MAX_PARSED_CHARS = 256 * 1024;

/** Text → program, in the order they were last used (a Map iterates in insertion order). */
const programs = new Map<string, Program>();
let chars = 0;

/** The program of `source` if it was parsed recently (it becomes the most recent); else undefined. */
export function parsedText(source: string): Program | undefined {
  const program = programs.get(source);
  if (program !== undefined && programs.size > 1) {
    programs.delete(source);
    programs.set(source, program);
  }
  return program;
}

/** Keeps the program of a text that parsed without problems, forgetting the least recent ones beyond the bounds. */
export function keepParsedText(source: string, program: Program): void {
  if (source.length > MAX_PARSED_CHARS || programs.has(source)) return;
  programs.set(source, program);
  chars += source.length;
  for (const oldest of programs.keys()) {
    if (programs.size <= MAX_PARSED_TEXTS && chars <= MAX_PARSED_CHARS) break;
    programs.delete(oldest);
    chars -= oldest.length;
  }
}

/** How many texts are kept and their total length (for tests). */
export function parsedTextsHeld(): { texts: number; chars: number } {
  return { texts: programs.size, chars };
}
