// The blind corpus's driver (test/blind/README.md): measures whether Nuwa's error messages name the
// fixes of mistakes they were not tuned against. For each broken script it does what a host does —
// runs the script once, approving every call, and collects the messages the run reports — then
// checks each intended mistake: was a message positioned on its line (reported), did one of those
// messages name one of its fixes (fix named), and does the script run and print what it should once
// the named fixes are applied (fixed by one retry). Correct scripts must run, and `check` must find
// no error in them.
//
// It uses the public API in process (src/index.ts: Interpreter, ToolRegistry, check), not
// `nuwa run --json`: a host embedding Nuwa hands the model the NuwaError it gets (every syntax error
// of `errors`, or the one runtime error), which is what `run --json` prints too, and a hundred runs
// in process take a second where spawning would take a minute, so the test can run the driver.
//
//   npm run blind                   print the table and the totals
//   npm run blind -- --verbose      also every message of every script
//   npm run blind -- --write        also record the totals in test/blind/figures.json
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Interpreter, ToolRegistry, check, isNuwaError, type ToolDefinition } from '../../src/index.js';

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const FIGURES_FILE = path.join(CORPUS_DIR, 'figures.json');
export const PERSONALITIES = ['python', 'javascript', 'sql', 'shell', 'semantic'] as const;
/** The v1.1 features (LANGUAGE.md §8) a fix may need; such a fix can only work once its feature exists. */
export const V11_FEATURES = ['comprehension', 'SUM', 'GET/SET', 'FORMAT path'] as const;

/** One replacement in a script: every occurrence of `find` on line `line` becomes `replace`. */
export interface Edit {
  line: number;
  find: string;
  replace: string;
}

export interface Fix {
  /** The exact wrong text, on the mistake's line unless `line` says where. */
  find: string;
  /** What it becomes; may span several lines. A line a fix leaves blank is removed. */
  replace: string;
  /** Ways a message can name this fix: each alternative a list of substrings one message must all contain. */
  names: string[][];
  /** Where `find` is, when the fix goes elsewhere than the mistake (e.g. `LET n = 0` before a loop). */
  line?: number;
  /** Further edits the same fix needs (the END a nested IF needs, the lines of an `except:` handler). */
  also?: Edit[];
  /** The v1.1 feature this fix needs, if any. */
  v11?: (typeof V11_FEATURES)[number];
}

export interface Mistake {
  /** 1-based line of the broken script where the mistake is. */
  line: number;
  /** What kind of mistake (lowercase-keyword, string-plus, ...), for the mix of the corpus. */
  kind: string;
  /** One sentence saying what is wrong. */
  what: string;
  /** Other lines where a message reports the same mistake just as well (a missing END). */
  alsoOn?: number[];
  /** Alternative fixes; the first is the one the `.fixed.nuwa` file applies. */
  fixes: Fix[];
}

export interface Script {
  name: string;
  personality: (typeof PERSONALITIES)[number];
  mistakes: Mistake[];
  /** The lines the fixed (or correct) script prints. */
  output: string[];
  source: string;
  /** The `.fixed.nuwa` text; undefined for a correct script. */
  fixed?: string;
}

/** A mistake in the corpus itself (a `find` that is not on its line, a missing record): never a figure. */
export class CorpusError extends Error {}

/** Every script of the corpus with its record, in file order. */
export function loadCorpus(dir = CORPUS_DIR): Script[] {
  const files = readdirSync(dir);
  const scripts: Script[] = [];
  for (const file of files.filter((name) => name.endsWith('.nuwa') && !name.endsWith('.fixed.nuwa')).sort()) {
    const name = file.slice(0, -'.nuwa'.length);
    if (!files.includes(`${name}.json`)) throw new CorpusError(`${file} has no record ${name}.json`);
    const record = JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')) as Omit<Script, 'name' | 'source' | 'fixed'>;
    const fixedFile = `${name}.fixed.nuwa`;
    const script: Script = { name, ...record, source: readFileSync(path.join(dir, file), 'utf8') };
    if (files.includes(fixedFile)) script.fixed = readFileSync(path.join(dir, fixedFile), 'utf8');
    validate(script);
    scripts.push(script);
  }
  for (const file of files.filter((name) => name.endsWith('.json') && name !== 'figures.json')) {
    if (!files.includes(file.replace(/\.json$/, '.nuwa'))) throw new CorpusError(`${file} is the record of no script`);
  }
  return scripts;
}

function validate(script: Script): void {
  const where = `${script.name}.json`;
  const fail = (problem: string): never => {
    throw new CorpusError(`${where}: ${problem}`);
  };
  if (!(PERSONALITIES as readonly string[]).includes(script.personality)) fail(`unknown personality ${script.personality}`);
  if (!Array.isArray(script.output) || !script.output.every((line) => typeof line === 'string')) fail('output must be a list of strings');
  if (!Array.isArray(script.mistakes)) fail('mistakes must be a list');
  if (script.mistakes.length > 0 && script.fixed === undefined) fail(`a script with mistakes needs ${script.name}.fixed.nuwa`);
  if (script.mistakes.length === 0 && script.fixed !== undefined) fail(`a correct script has no ${script.name}.fixed.nuwa`);
  const lineCount = script.source.split('\n').length;
  const isLine = (line: unknown) => Number.isInteger(line) && (line as number) >= 1 && (line as number) <= lineCount;
  for (const mistake of script.mistakes) {
    if (!isLine(mistake.line)) fail(`mistake line ${mistake.line} is not a line of the script`);
    if (typeof mistake.kind !== 'string' || typeof mistake.what !== 'string') fail(`the mistake on line ${mistake.line} needs a kind and a what`);
    if (!Array.isArray(mistake.fixes) || mistake.fixes.length === 0) fail(`the mistake on line ${mistake.line} has no fix`);
    for (const line of mistake.alsoOn ?? []) if (!isLine(line)) fail(`alsoOn line ${line} is not a line of the script`);
    for (const fix of mistake.fixes) {
      if (typeof fix.find !== 'string' || fix.find === '' || typeof fix.replace !== 'string') fail(`a fix of line ${mistake.line} needs find and replace`);
      const namesOk = Array.isArray(fix.names) && fix.names.length > 0 && fix.names.every((alternative) => Array.isArray(alternative) && alternative.length > 0 && alternative.every((part) => typeof part === 'string' && part !== ''));
      if (!namesOk) fail(`the fix of \`${fix.find}\` (line ${mistake.line}) needs names: a list of non-empty lists of substrings`);
      if (fix.v11 !== undefined && !(V11_FEATURES as readonly string[]).includes(fix.v11)) fail(`unknown v1.1 feature ${fix.v11}`);
      for (const edit of editsOf(mistake, fix)) if (!isLine(edit.line)) fail(`an edit of line ${edit.line} is outside the script`);
    }
  }
}

/** The edits a fix makes: its own replacement, then its `also` edits. */
export function editsOf(mistake: Mistake, fix: Fix): Edit[] {
  return [{ line: fix.line ?? mistake.line, find: fix.find, replace: fix.replace }, ...(fix.also ?? [])];
}

/**
 * The script with the chosen fixes applied. Edits are applied line by line from the bottom up, so
 * that a replacement spanning several lines moves no line still to be edited; edits of one line
 * apply in order. A `find` not on its line is a corpus bug: a CorpusError, never a silent skip.
 */
export function applyFixes(source: string, chosen: Array<{ mistake: Mistake; fix: Fix }>, scriptName = 'script'): string {
  const lines = source.split('\n');
  const byLine = new Map<number, Edit[]>();
  for (const { mistake, fix } of chosen) {
    for (const edit of editsOf(mistake, fix)) byLine.set(edit.line, [...(byLine.get(edit.line) ?? []), edit]);
  }
  for (const line of [...byLine.keys()].sort((a, b) => b - a)) {
    const original = lines[line - 1];
    if (original === undefined) throw new CorpusError(`${scriptName}: no line ${line} to edit`);
    let text = original;
    for (const edit of byLine.get(line)!) {
      if (!text.includes(edit.find)) throw new CorpusError(`${scriptName}: \`${edit.find}\` is not on line ${line} (${JSON.stringify(original)})`);
      text = text.split(edit.find).join(edit.replace);
    }
    if (text.trim() === '' && original.trim() !== '') lines.splice(line - 1, 1);
    else lines.splice(line - 1, 1, ...text.split('\n'));
  }
  return lines.join('\n');
}

/** One message a run reported: a syntax error, the runtime error, or a finding the run carried. */
export interface Message {
  line?: number;
  column?: number;
  kind: string;
  text: string;
}

export interface RunOutcome {
  /** The run ended without an error. */
  ok: boolean;
  output: string[];
  messages: Message[];
}

/** A registry with the corpus's tools, loaded the way `nuwa run --tools` loads a module. */
export async function corpusRegistry(toolsFile = path.join(CORPUS_DIR, 'tools.mjs')): Promise<ToolRegistry> {
  const module = (await import(pathToFileURL(toolsFile).href)) as { default: unknown };
  const registry = new ToolRegistry();
  if (typeof module.default === 'function') await (module.default as (registry: ToolRegistry) => unknown)(registry);
  else for (const tool of module.default as ToolDefinition[]) registry.register(tool);
  return registry;
}

const LIMITS = { timeoutMs: 10_000, maxSteps: 1_000_000, maxToolCalls: 1_000 };

/** Runs a script as a host does, approving every call, in a session of its own. */
export async function runScript(registry: ToolRegistry, source: string, fileName: string): Promise<RunOutcome> {
  const output: string[] = [];
  const interpreter = new Interpreter(registry, {
    session: registry.createSession(),
    approve: () => true,
    print: (line) => output.push(line),
    limits: LIMITS,
    logger: {},
  });
  try {
    const result = await interpreter.run(source, { fileName });
    return { ok: true, output, messages: findingsIn(result) };
  } catch (error) {
    if (!isNuwaError(error)) throw new Error(`${fileName}: the run threw something that is not a NuwaError: ${String(error)}`, { cause: error });
    const messages: Message[] = error.kind === 'SyntaxError' && error.errors?.length
      ? error.errors.map((problem) => ({ line: problem.line, column: problem.column, kind: 'SyntaxError', text: problem.message }))
      : [{ line: error.line, column: error.column, kind: error.kind, text: error.message }];
    return { ok: false, output, messages: [...messages, ...findingsIn(error)] };
  } finally {
    interpreter.dispose();
  }
}

/**
 * Positioned findings a run's result or error carries besides its own message: any list of
 * `{ message, line }` objects other than a SyntaxError's `errors` (none today; a run that hands the
 * host checker findings would be measured with them, as a host would pass them on).
 */
function findingsIn(value: object): Message[] {
  const found: Message[] = [];
  for (const [key, list] of Object.entries(value)) {
    if (key === 'errors' || !Array.isArray(list)) continue;
    for (const item of list) {
      if (item && typeof item === 'object' && typeof item.message === 'string' && typeof item.line === 'number') {
        found.push({ line: item.line, column: item.column, kind: typeof item.kind === 'string' ? item.kind : key, text: item.message });
      }
    }
  }
  return found;
}

/**
 * Whether a message names a fix: it contains every part of one alternative once the fix's `find`
 * (the wrong text) is taken out of it. Only `find`: the texts its `also` edits change are not the
 * mistake (an `END` that gets a second one), and taking them out would blind every name to them.
 */
export function namesFix(text: string, fix: Fix): boolean {
  const rest = text.split(fix.find).join(' ');
  return fix.names.some((alternative) => alternative.every((part) => containsWhole(rest, part)));
}

const WORD = /[A-Za-z0-9_]/;

/**
 * Whether `text` contains `part` as a whole: where `part` begins or ends with a letter, digit or
 * `_`, the text there must not go on with another (`IN` is not named by `CONTAINS`, nor `int(` by
 * `PRINT(`). A repair of the driver made after the first figures (README: repairs).
 */
export function containsWhole(text: string, part: string): boolean {
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + part.length] ?? '';
    const openStart = !WORD.test(part[0]!) || !WORD.test(before);
    const openEnd = !WORD.test(part[part.length - 1]!) || !WORD.test(after);
    if (openStart && openEnd) return true;
  }
  return false;
}

/** The lines on which a message reports a mistake. */
export function reportLines(mistake: Mistake): number[] {
  return [mistake.line, ...(mistake.alsoOn ?? [])];
}

export interface MistakeResult {
  mistake: Mistake;
  reported: boolean;
  /** The first fix one of its messages names, if any. */
  named?: Fix;
}

export interface ScriptResult {
  script: Script;
  messages: Message[];
  mistakes: MistakeResult[];
  /** Messages on lines where no mistake is (nor any of their fixes' edits), and messages with no line. */
  stray: Message[];
  /** Broken script: the retry with the named fixes ran cleanly and printed `output`. */
  fixedByRetry?: boolean;
  /** The retry's messages, or the output it printed instead of `output`. */
  retry?: RunOutcome;
  /** Correct script: the run failed, or `check` reported an error. */
  flagged?: boolean;
  checkErrors?: Message[];
}

const sameLines = (a: string[], b: string[]) => a.length === b.length && a.every((line, i) => line === b[i]);

export async function measureScript(registry: ToolRegistry, script: Script): Promise<ScriptResult> {
  const first = await runScript(registry, script.source, `${script.name}.nuwa`);
  const mistakeLines = new Set(script.mistakes.flatMap((mistake) => [
    ...reportLines(mistake),
    ...mistake.fixes.flatMap((fix) => editsOf(mistake, fix).map((edit) => edit.line)),
  ]));
  const stray = first.messages.filter((message) => message.line === undefined || !mistakeLines.has(message.line));
  if (script.mistakes.length === 0) {
    const checkErrors = check(script.source, registry)
      .filter((problem) => problem.severity === 'error')
      .map((problem) => ({ line: problem.line, column: problem.column, kind: problem.kind, text: problem.message }));
    const flagged = !first.ok || checkErrors.length > 0 || !sameLines(first.output, script.output);
    return { script, messages: first.messages, mistakes: [], stray, flagged, checkErrors };
  }
  const mistakes = script.mistakes.map((mistake): MistakeResult => {
    const lines = reportLines(mistake);
    const onLine = first.messages.filter((message) => message.line !== undefined && lines.includes(message.line));
    const named = mistake.fixes.find((fix) => onLine.some((message) => namesFix(message.text, fix)));
    return named ? { mistake, reported: onLine.length > 0, named } : { mistake, reported: onLine.length > 0 };
  });
  const chosen = mistakes.flatMap(({ mistake, named }) => (named ? [{ mistake, fix: named }] : []));
  const retried = applyFixes(script.source, chosen, script.name);
  const retry = await runScript(registry, retried, `${script.name}.nuwa`);
  return { script, messages: first.messages, mistakes, stray, fixedByRetry: retry.ok && sameLines(retry.output, script.output), retry };
}

export interface Figures {
  mistakes: number;
  reported: number;
  fixNamed: number;
  brokenScripts: number;
  fixedByOneRetry: number;
  strayErrors: number;
  correctScripts: number;
  correctFlagged: number;
}

export function totals(results: ScriptResult[]): Figures {
  const broken = results.filter((result) => result.script.mistakes.length > 0);
  const correct = results.filter((result) => result.script.mistakes.length === 0);
  const mistakes = broken.flatMap((result) => result.mistakes);
  return {
    mistakes: mistakes.length,
    reported: mistakes.filter((m) => m.reported).length,
    fixNamed: mistakes.filter((m) => m.named).length,
    brokenScripts: broken.length,
    fixedByOneRetry: broken.filter((result) => result.fixedByRetry).length,
    strayErrors: results.reduce((sum, result) => sum + result.stray.length, 0),
    correctScripts: correct.length,
    correctFlagged: correct.filter((result) => result.flagged).length,
  };
}

export async function measureCorpus(scripts = loadCorpus()): Promise<ScriptResult[]> {
  const registry = await corpusRegistry();
  const results: ScriptResult[] = [];
  for (const script of scripts) results.push(await measureScript(registry, script));
  return results;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

/** The figures as figures.json records them: counts, percentages, and per personality. */
export function figuresRecord(results: ScriptResult[], commit: string, date: string): Record<string, unknown> {
  const all = totals(results);
  const byPersonality = Object.fromEntries(PERSONALITIES.map((personality) => [personality, totals(results.filter((result) => result.script.personality === personality))]));
  return {
    measured: date,
    commit,
    ...all,
    reportedPercent: percent(all.reported, all.mistakes),
    fixNamedPercent: percent(all.fixNamed, all.mistakes),
    fixedByOneRetryPercent: percent(all.fixedByOneRetry, all.brokenScripts),
    byPersonality,
  };
}

const messageLine = (message: Message) => `${message.line ?? '?'}:${message.column ?? '?'} ${message.kind}: ${message.text}`;

export function formatReport(results: ScriptResult[], verbose = false): string {
  const out: string[] = [];
  const row = (cells: string[]) => out.push(cells.map((cell, i) => (i === 0 ? cell.padEnd(26) : cell.padStart(i === 1 ? 11 : 9))).join(' '));
  row(['script', 'personality', 'mistakes', 'reported', 'named', 'retry', 'stray']);
  for (const result of results) {
    const { script } = result;
    if (script.mistakes.length === 0) {
      row([script.name, script.personality, '0', '-', '-', result.flagged ? 'FLAGGED' : 'clean', String(result.stray.length)]);
      continue;
    }
    const reported = result.mistakes.filter((m) => m.reported).length;
    const named = result.mistakes.filter((m) => m.named).length;
    row([script.name, script.personality, String(script.mistakes.length), String(reported), String(named), result.fixedByRetry ? 'fixed' : 'no', String(result.stray.length)]);
  }
  const all = totals(results);
  out.push('');
  out.push(`mistakes reported:              ${all.reported}/${all.mistakes} (${percent(all.reported, all.mistakes)}%)`);
  out.push(`fix named:                      ${all.fixNamed}/${all.mistakes} (${percent(all.fixNamed, all.mistakes)}%)`);
  out.push(`broken scripts fixed by 1 retry: ${all.fixedByOneRetry}/${all.brokenScripts} (${percent(all.fixedByOneRetry, all.brokenScripts)}%)`);
  out.push(`stray errors:                   ${all.strayErrors}`);
  out.push(`correct scripts flagged:        ${all.correctFlagged}/${all.correctScripts}`);
  const stray = results.filter((result) => result.stray.length > 0);
  if (stray.length > 0) {
    out.push('', 'Stray errors (on lines without a mistake):');
    for (const result of stray) for (const message of result.stray) out.push(`  ${result.script.name}.nuwa:${messageLine(message)}`);
  }
  const flagged = results.filter((result) => result.flagged);
  if (flagged.length > 0) {
    out.push('', 'Correct scripts flagged:');
    for (const result of flagged) {
      for (const message of [...result.messages, ...(result.checkErrors ?? [])]) out.push(`  ${result.script.name}.nuwa:${messageLine(message)}`);
      if (result.messages.length === 0 && !result.checkErrors?.length) out.push(`  ${result.script.name}.nuwa: printed other lines than its output`);
    }
  }
  if (verbose) {
    out.push('', 'Every message:');
    for (const result of results) {
      out.push(`${result.script.name}.nuwa`);
      for (const mistake of result.mistakes) {
        const state = mistake.named ? `named: ${JSON.stringify(mistake.named.replace)}` : mistake.reported ? 'reported, fix not named' : 'NOT REPORTED';
        out.push(`  mistake line ${mistake.mistake.line} (${mistake.mistake.kind}): ${state}`);
      }
      for (const message of result.messages) out.push(`  ${messageLine(message)}`);
      if (result.retry && !result.fixedByRetry) {
        out.push(result.retry.ok ? `  retry printed: ${JSON.stringify(result.retry.output)}` : '  retry failed:');
        for (const message of result.retry.messages) out.push(`    ${messageLine(message)}`);
      }
    }
  }
  return out.join('\n');
}

/** The commit measured: HEAD, marked dirty when the working tree has changes. */
export function currentCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: CORPUS_DIR, encoding: 'utf8' }).trim();
  try {
    return git('rev-parse', 'HEAD') + (git('status', '--porcelain').length > 0 ? '-dirty' : '');
  } catch {
    return 'unknown';
  }
}

async function main(argv: string[]): Promise<void> {
  const results = await measureCorpus();
  console.log(formatReport(results, argv.includes('--verbose')));
  if (argv.includes('--write')) {
    const record = figuresRecord(results, currentCommit(), new Date().toISOString().slice(0, 10));
    writeFileSync(FIGURES_FILE, `${JSON.stringify(record, null, 2)}\n`);
    console.log(`\nwrote ${path.relative(process.cwd(), FIGURES_FILE)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof CorpusError ? `corpus bug: ${error.message}` : error);
    process.exitCode = 1;
  });
}
