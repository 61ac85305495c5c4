// The case corpus driver: runs every chunk of test/cases/*.nuwa as one test. The format is described
// in test/cases/README.md; in short, chunks are separated by a line `---`, `// => text` lines give
// the expected output, `// error: Kind /regex/` marks the line that raises, and `// @name {json}`
// directives at the top of a chunk set up variables, state, approval and limits.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { ERROR_KINDS, Interpreter, NuwaError, ToolRegistry, type ErrorKind, type JsonValue, type Limits } from '../src/index.js';
import { registerCorpusTools } from './support/corpus-tools.js';

const CASES_DIR = fileURLToPath(new URL('./cases/', import.meta.url));

interface ErrorExpectation {
  /** Chunk-relative, 1-based. */
  line: number;
  column?: number;
  kind: ErrorKind;
  pattern?: RegExp;
}

interface Directives {
  vars?: Record<string, JsonValue>;
  state?: Record<string, JsonValue>;
  approve?: true;
  limits?: Limits;
  expectState?: Record<string, JsonValue>;
  expectVars?: Record<string, JsonValue>;
}

interface Chunk {
  file: string;
  /** 1-based line of the file where the chunk starts. */
  startLine: number;
  title: string;
  source: string;
  output: string[];
  errors: ErrorExpectation[];
  directives: Directives;
  /** Why the chunk is malformed; its test fails with these. */
  problems: string[];
}

// ---------------------------------------------------------------------------------------------
// Reading the corpus

/**
 * The text after the first `//` that is not inside a double-quoted string, or undefined. A `"` with
 * no closing `"` on its line does not start a string (so an unterminated string can still carry its
 * `// error:` comment).
 */
function commentOf(line: string): string | undefined {
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      i = j < line.length ? j + 1 : i + 1;
      continue;
    }
    if (ch === '/' && line[i + 1] === '/') return line.slice(i + 2);
    i++;
  }
  return undefined;
}

const OUTPUT = /^\s*=>( ?)(.*)$/;
const ERROR = /^\s*error(?:@(\d+))?:\s*(\S+)(?:\s+\/(.*)\/)?\s*$/;
// Anything that looks like an attempt at an error expectation, so that a typo fails instead of being ignored.
const LOOKS_LIKE_ERROR = /^\s*error(?:\s*[@:]|\s+[A-Z]\w*Error\b)/i;
const DIRECTIVE = /^\s*@(\S+)\s*(.*)$/;
const DIRECTIVE_NAMES = ['vars', 'state', 'approve', 'limits', 'expect-state', 'expect-vars'] as const;

function parseJsonObject(name: string, text: string, problems: string[]): Record<string, JsonValue> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push(`@${name}: invalid JSON (${(error as Error).message}): ${text}`);
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`@${name} needs a JSON object, got: ${text}`);
    return undefined;
  }
  return value as Record<string, JsonValue>;
}

function parseChunk(file: string, startLine: number, lines: string[]): Chunk {
  const chunk: Chunk = { file, startLine, title: '', source: lines.join('\n'), output: [], errors: [], directives: {}, problems: [] };
  const seen = new Set<string>();
  let codeSeen = false;
  lines.forEach((text, index) => {
    const line = index + 1;
    const where = `${file}:${startLine + index}`;
    const comment = commentOf(text);
    const code = comment === undefined ? text : text.slice(0, text.length - comment.length - 2);
    const isCodeLine = code.trim() !== '';
    if (comment === undefined) {
      if (isCodeLine) codeSeen = true;
      return;
    }

    const directive = DIRECTIVE.exec(comment);
    if (directive) {
      const [, name, rest] = directive as unknown as [string, string, string];
      if (isCodeLine || codeSeen) chunk.problems.push(`${where}: directive @${name} must be on a line of its own at the top of the chunk`);
      if (!(DIRECTIVE_NAMES as readonly string[]).includes(name)) {
        chunk.problems.push(`${where}: unknown directive @${name} (known: ${DIRECTIVE_NAMES.map((n) => `@${n}`).join(', ')})`);
        return;
      }
      if (seen.has(name)) chunk.problems.push(`${where}: directive @${name} given twice`);
      seen.add(name);
      const d = chunk.directives;
      switch (name) {
        case 'approve':
          if (rest.trim() !== '') chunk.problems.push(`${where}: @approve takes no argument`);
          d.approve = true;
          break;
        case 'vars':
          d.vars = parseJsonObject(name, rest, chunk.problems);
          break;
        case 'state':
          d.state = parseJsonObject(name, rest, chunk.problems);
          break;
        case 'limits':
          d.limits = parseJsonObject(name, rest, chunk.problems) as Limits | undefined;
          break;
        case 'expect-state':
          d.expectState = parseJsonObject(name, rest, chunk.problems);
          break;
        case 'expect-vars':
          d.expectVars = parseJsonObject(name, rest, chunk.problems);
          break;
      }
      return;
    }
    if (isCodeLine) codeSeen = true;

    const output = OUTPUT.exec(comment);
    if (output) {
      const [, space, rest] = output as unknown as [string, string, string];
      if (rest !== '' && space !== ' ') chunk.problems.push(`${where}: write \`// => text\` with one space after =>`);
      chunk.output.push(rest);
      return;
    }

    const error = ERROR.exec(comment);
    if (error) {
      const [, column, kind, pattern] = error as unknown as [string, string | undefined, string, string | undefined];
      if (!(ERROR_KINDS as readonly string[]).includes(kind)) {
        chunk.problems.push(`${where}: unknown error kind ${kind} (known: ${ERROR_KINDS.join(', ')})`);
        return;
      }
      const expectation: ErrorExpectation = { line, kind: kind as ErrorKind };
      if (column !== undefined) expectation.column = Number(column);
      if (pattern !== undefined) {
        try {
          expectation.pattern = new RegExp(pattern, 'i');
        } catch (e) {
          chunk.problems.push(`${where}: invalid regex /${pattern}/: ${(e as Error).message}`);
        }
      }
      chunk.errors.push(expectation);
      return;
    }
    if (LOOKS_LIKE_ERROR.test(comment)) {
      chunk.problems.push(`${where}: malformed error expectation \`//${comment}\` (write \`// error: Kind\`, \`// error: Kind /regex/\` or \`// error@COL: Kind /regex/\`)`);
      return;
    }
    if (!chunk.title && !isCodeLine) chunk.title = comment.trim();
  });

  if (chunk.source.trim() === '') chunk.problems.push(`${file}:${startLine}: empty chunk`);
  if (chunk.errors.length > 1 && chunk.errors.some((e) => e.kind !== 'SyntaxError')) {
    chunk.problems.push(`${file}:${startLine}: only SyntaxError may be expected on several lines; a runtime error stops the script`);
  }
  return chunk;
}

function readCorpus(): Chunk[] {
  const chunks: Chunk[] = [];
  const files = readdirSync(CASES_DIR)
    .filter((name) => name.endsWith('.nuwa'))
    .sort();
  for (const file of files) {
    const lines = readFileSync(path.join(CASES_DIR, file), 'utf8').split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop(); // the file's final newline
    let start = 0;
    for (let i = 0; i <= lines.length; i++) {
      if (i === lines.length || lines[i] === '---') {
        chunks.push(parseChunk(file, start + 1, lines.slice(start, i)));
        start = i + 1;
      }
    }
  }
  return chunks;
}

// ---------------------------------------------------------------------------------------------
// Running a chunk

const sandboxRoot = mkdtempSync(path.join(tmpdir(), 'nuwa-corpus-'));
afterAll(() => rmSync(sandboxRoot, { recursive: true, force: true }));
let sandboxCounter = 0;

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

function show(error: unknown): string {
  if (error instanceof NuwaError) {
    const facts: Record<string, unknown> = { kind: error.kind, line: error.line, column: error.column, message: error.message };
    if (error.errors) facts.errors = error.errors;
    return JSON.stringify(facts, null, 2);
  }
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}

/** Pairs each expected syntax error with a distinct reported one (same line, message matches). */
function matchSyntaxErrors(expected: ErrorExpectation[], reported: Array<{ line: number; column: number; message: string }>): boolean {
  const used = new Array<boolean>(reported.length).fill(false);
  const fits = (e: ErrorExpectation, r: { line: number; column: number; message: string }) =>
    r.line === e.line && (e.column === undefined || r.column === e.column) && (e.pattern === undefined || e.pattern.test(r.message));
  const assign = (i: number): boolean => {
    if (i === expected.length) return true;
    for (let j = 0; j < reported.length; j++) {
      if (!used[j] && fits(expected[i]!, reported[j]!)) {
        used[j] = true;
        if (assign(i + 1)) return true;
        used[j] = false;
      }
    }
    return false;
  };
  return assign(0);
}

function describeExpectation(e: ErrorExpectation): string {
  return `${e.kind} at line ${e.line}${e.column === undefined ? '' : `, column ${e.column}`}${e.pattern ? ` matching ${String(e.pattern)}` : ''}`;
}

async function runChunk(chunk: Chunk): Promise<void> {
  if (chunk.problems.length > 0) throw new Error(`malformed chunk:\n  ${chunk.problems.join('\n  ')}`);
  const { directives } = chunk;

  const registry = new ToolRegistry();
  registerCorpusTools(registry);
  for (const [key, value] of Object.entries(directives.state ?? {})) registry.setState(key, value);
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, {
    print: (line) => printed.push(line),
    ...(directives.approve ? { approve: () => true } : {}),
    ...(directives.limits ? { limits: directives.limits } : {}),
    logger: silentLogger,
    sandboxDir: path.join(sandboxRoot, `chunk-${++sandboxCounter}`),
  });

  let result: Awaited<ReturnType<Interpreter['run']>> | undefined;
  let failure: unknown;
  let failed = false;
  try {
    result = await interpreter.run(chunk.source, directives.vars ? { variables: directives.vars } : {});
  } catch (error) {
    failed = true;
    failure = error;
  }

  if (chunk.errors.length === 0) {
    if (failed) throw new Error(`expected the script to succeed, but it failed with:\n${show(failure)}\noutput so far: ${JSON.stringify(printed)}`);
  } else {
    const first = chunk.errors[0]!;
    if (!failed) throw new Error(`expected ${describeExpectation(first)}, but the script succeeded; output: ${JSON.stringify(printed)}`);
    if (!(failure instanceof NuwaError)) throw new Error(`expected a NuwaError, got:\n${show(failure)}`);
    const error = failure;
    const mismatch = (why: string) => new Error(`${why}\nexpected: ${chunk.errors.map(describeExpectation).join('; ')}\nactual: ${show(error)}`);
    if (error.kind !== first.kind) throw mismatch('wrong error kind');
    if (chunk.errors.length > 1) {
      // Several expected syntax errors: each matches its own entry of error.errors, and no entry is left over.
      const reported = error.errors ?? [];
      if (reported.length !== chunk.errors.length) throw mismatch(`expected ${chunk.errors.length} syntax errors, got ${reported.length}`);
      if (!matchSyntaxErrors(chunk.errors, reported)) throw mismatch('the syntax errors do not match');
    } else {
      if (error.line !== first.line) throw mismatch('wrong line');
      if (first.column !== undefined && error.column !== first.column) throw mismatch('wrong column');
      if (first.pattern && !first.pattern.test(error.message)) throw mismatch('the message does not match');
    }
  }

  expect(printed, 'output').toEqual(chunk.output);
  if (result) expect(result.output, 'result.output').toEqual(printed);
  if (directives.expectVars) {
    const variables = result ? result.variables : (failure as NuwaError).variables;
    expect(variables, '@expect-vars').toEqual(directives.expectVars);
  }
  if (directives.expectState) {
    expect(Object.fromEntries(registry.getAllState()), '@expect-state').toEqual(directives.expectState);
  }
}

// ---------------------------------------------------------------------------------------------

const chunks = readCorpus();

describe('case corpus', () => {
  test('has cases', () => {
    expect(chunks.length).toBeGreaterThan(0);
  });
  for (const chunk of chunks) {
    const name = `${chunk.file}:${chunk.startLine}${chunk.title ? ` ${chunk.title}` : ''}`;
    test(name, () => runChunk(chunk));
  }
});
