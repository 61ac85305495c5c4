// The mistakes corpus (README.md next to this file): model-style scripts whose mistakes are marked
// inline with the fix each message must name. This module reads the corpus, runs each script once,
// and scores the run: which marked mistakes were reported, which messages named the fix, and which
// errors no mark accounts for (follow-on errors). The test driver (test/mistakes.test.ts) and the
// generator of the "common mistakes" table in docs/language.md (update-docs.ts) both use it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interpreter, NuwaError, ToolRegistry } from '../../src/index.js';
import { registerMistakeTools } from './tools.js';

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** One marked mistake: the line it is reported at (1-based) and the text its message must contain. */
export interface Mark {
  line: number;
  fix: string;
  /** The code of the line, without the mark. */
  code: string;
}

export interface Script {
  file: string;
  /** The first comment line: what the script is for. */
  task: string;
  /** The script as it is run: the marks taken out. */
  source: string;
  marks: Mark[];
  /** Why the file is malformed (its test fails with these). */
  problems: string[];
}

const MARK = '//!';

export function readScript(file: string): Script {
  const text = readFileSync(path.join(CORPUS_DIR, file), 'utf8');
  const lines = text.replace(/\n$/, '').split('\n');
  const marks: Mark[] = [];
  const problems: string[] = [];
  const code = lines.map((line, index) => {
    const at = line.indexOf(MARK);
    if (at < 0) return line;
    const kept = line.slice(0, at).trimEnd();
    for (const fix of line.slice(at + MARK.length).split(MARK).map((f) => f.trim())) {
      if (fix === '') problems.push(`${file}:${index + 1}: a ${MARK} mark needs the fix its message must name`);
      else marks.push({ line: index + 1, fix, code: kept.trim() });
    }
    return kept;
  });
  // The task: the first comment line among the first three (a script may begin with a fence or a #! line).
  const task = lines.slice(0, 3).map((line) => /^\/\/(?!!)\s*(.+)$/.exec(line)?.[1]).find((t) => t !== undefined) ?? '';
  if (!task) problems.push(`${file}: start with a comment line saying what the script is for`);
  const scriptLines = code.filter((line) => line.trim() !== '').length;
  if (scriptLines < 5 || scriptLines > 26) problems.push(`${file}: a corpus script has 5 to 25 lines of code (this one has ${scriptLines - 1})`);
  if (marks.length === 0) problems.push(`${file}: no ${MARK} mark: every corpus script shows at least one mistake`);
  return { file, task, source: `${code.join('\n')}\n`, marks, problems };
}

export function readCorpus(): Script[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.nuwa'))
    .sort()
    .map(readScript);
}

export interface Reported {
  line: number;
  column: number;
  kind: string;
  message: string;
}

export interface Score {
  script: Script;
  /** Everything the first run reported. */
  errors: Reported[];
  /** Marks some error at their line accounts for. */
  reported: Mark[];
  /** Marks whose error names the fix, each with that error. */
  named: Array<{ mark: Mark; error: Reported }>;
  /** Errors no mark accounts for. */
  followOn: Reported[];
  /** What the script printed before its error. */
  output: string[];
}

/** Runs a script once, as a host would, and scores what it reported against its marks. */
export async function score(script: Script): Promise<Score> {
  const registry = new ToolRegistry();
  registerMistakeTools(registry);
  const output: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => output.push(line), approve: () => true });
  let errors: Reported[] = [];
  try {
    await interpreter.run(script.source, { fileName: script.file });
  } catch (error) {
    if (!(error instanceof NuwaError)) throw error;
    const kind = error.kind;
    errors =
      kind === 'SyntaxError' && error.errors?.length
        ? error.errors.map((p) => ({ kind, line: p.line, column: p.column, message: p.message }))
        : [{ kind, line: error.line ?? 0, column: error.column ?? 0, message: error.message }];
    // The checker's findings the error carries: a host hands them on too, so they count (and must
    // not be follow-on errors).
    for (const finding of error.findings ?? []) errors.push({ kind: finding.kind, line: finding.line, column: finding.column, message: finding.message });
    errors.sort((a, b) => a.line - b.line || a.column - b.column);
  }

  const reported: Mark[] = [];
  const named: Score['named'] = [];
  const followOn: Reported[] = [];
  const lines = new Set([...script.marks.map((m) => m.line), ...errors.map((e) => e.line)]);
  for (const line of lines) {
    const marks = script.marks.filter((m) => m.line === line);
    const here = errors.filter((e) => e.line === line);
    reported.push(...marks.slice(0, here.length));
    followOn.push(...here.slice(marks.length));
    // Each mark needs its own error naming its fix.
    const unused = [...here];
    for (const mark of marks) {
      const i = unused.findIndex((e) => e.message.toLowerCase().includes(mark.fix.toLowerCase()));
      if (i >= 0) named.push({ mark, error: unused.splice(i, 1)[0]! });
    }
  }
  return { script, errors, reported, named, followOn, output };
}

// ---------------------------------------------------------------------------------------------
// The "common mistakes" table of docs/language.md

export const TABLE_START = '<!-- common mistakes: generated from test/mistakes by `npm run docs:mistakes`; do not edit by hand -->';
export const TABLE_END = '<!-- end of the generated table -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => (text.includes('`') ? `\`\` ${cell(text)} \`\`` : `\`${cell(text)}\``);

/**
 * What kind of message this is, without its particulars (names, numbers, quoted text): one row of
 * the table per kind, so that "write `FOR`" and "write `IN`" make one row, not two.
 */
export function messageKind(message: string): string {
  return message
    .replace(/`[^`]*`/g, '`_`')
    .replace(/"[^"]*"/g, '"_"')
    .replace(/\b[A-Z]+\([^)]*\)/g, 'F()')
    .replace(/\bLET [\w.]+( = [\w.]+)?/g, 'LET _')
    .replace(/\bCALL [\w.]+/g, 'CALL _')
    .replace(/\bwrite (?!LET|CALL)[\w.]+/g, 'write _')
    .replace(/\d+/g, 'N');
}

/** The line `line` of a script, without its mark. */
function codeAt(script: Script, line: number): string {
  return (script.source.split('\n')[line - 1] ?? '').trim();
}

/** One row per kind of message, from its first occurrence in the corpus: what was written, and what Nuwa says. */
export function mistakesTable(scores: Score[]): string {
  const seen = new Set<string>();
  const rows: Array<{ kind: string; row: string }> = [];
  for (const { script, named } of scores) {
    for (const { mark, error } of [...named].sort((a, b) => a.mark.line - b.mark.line)) {
      const kind = `${error.kind} ${messageKind(error.message)}`;
      if (seen.has(kind)) continue;
      seen.add(kind);
      // A block's END: show the line that opened it too.
      const opened = /opened on line (\d+)/.exec(error.message);
      const wrote = opened ? `${code(codeAt(script, Number(opened[1])))} … ${code(mark.code)}` : code(mark.code);
      rows.push({ kind: error.kind, row: `| ${wrote} | ${error.kind} | ${cell(error.message)} |` });
    }
  }
  // Syntax errors first (found before anything runs), then the run-time ones; stable within each.
  const ordered = [...rows.filter((r) => r.kind === 'SyntaxError'), ...rows.filter((r) => r.kind !== 'SyntaxError')].map((r) => r.row);
  return [TABLE_START, '', '| you wrote | error | what Nuwa says |', '|---|---|---|', ...ordered, '', TABLE_END].join('\n');
}
