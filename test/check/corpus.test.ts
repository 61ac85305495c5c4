// The check corpus driver: every chunk of test/check/*.nuwa is one test. `check` must report exactly
// the problems the chunk's comments expect, no more and no fewer (format: test/check/README.md).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { check, ToolRegistry, type Problem } from '../../src/index.js';
import { registerCheckTools } from './tools.js';

const DIR = path.dirname(fileURLToPath(import.meta.url));

interface Expectation {
  line: number;
  column?: number;
  severity: 'error' | 'warning';
  kind: string;
  pattern?: RegExp;
}

interface Chunk {
  name: string;
  source: string;
  expectations: Expectation[];
  variables: string[];
  malformed: string[];
}

/** The comment of a line: the text after the first `//` outside a double-quoted string. */
function commentOf(line: string): string | undefined {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '/' && line[i + 1] === '/') return line.slice(i + 2);
  }
  return undefined;
}

const EXPECTATION = /^\s*(error|warning)(?:@(\d+))?:\s*([A-Za-z]+)(?:\s+\/((?:\\.|[^\\/])*)\/)?\s*(?:,|$)/;

function parseChunk(file: string, startLine: number, lines: string[]): Chunk {
  const chunk: Chunk = { name: `${file}:${startLine}`, source: lines.join('\n'), expectations: [], variables: [], malformed: [] };
  let title = '';
  lines.forEach((text, index) => {
    let comment = commentOf(text);
    if (comment === undefined) return;
    const directive = /^\s*@vars\s+(.*)$/.exec(comment);
    if (directive) {
      try {
        const value = JSON.parse(directive[1]!) as unknown;
        chunk.variables = Array.isArray(value) ? (value as string[]) : Object.keys(value as object);
      } catch (error) {
        chunk.malformed.push(`line ${index + 1}: @vars needs JSON: ${(error as Error).message}`);
      }
      return;
    }
    if (!/^\s*(error|warning)\b/.test(comment)) {
      if (!title && text.trim().startsWith('//')) title = comment.trim();
      return;
    }
    while (comment.trim() !== '') {
      const match = EXPECTATION.exec(comment);
      if (!match) {
        chunk.malformed.push(`line ${index + 1}: cannot read the expectation \`${comment.trim()}\``);
        return;
      }
      const [whole, severity, column, kind, pattern] = match;
      const expectation: Expectation = { line: index + 1, severity: severity as Expectation['severity'], kind: kind! };
      if (column !== undefined) expectation.column = Number(column);
      if (pattern !== undefined) expectation.pattern = new RegExp(pattern, 'i');
      chunk.expectations.push(expectation);
      comment = comment.slice(whole.length);
    }
  });
  if (title) chunk.name += ` ${title}`;
  return chunk;
}

function readCorpus(): Chunk[] {
  const chunks: Chunk[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.nuwa')).sort()) {
    const lines = readFileSync(path.join(DIR, file), 'utf8').split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    let start = 0;
    for (let i = 0; i <= lines.length; i++) {
      if (i < lines.length && lines[i] !== '---') continue;
      chunks.push(parseChunk(file, start + 1, lines.slice(start, i)));
      start = i + 1;
    }
  }
  return chunks;
}

function fits(e: Expectation, p: Problem): boolean {
  return p.line === e.line && p.severity === e.severity && p.kind === e.kind && (e.column === undefined || p.column === e.column) && (e.pattern?.test(p.message) ?? true);
}

function show(problems: Problem[]): string {
  return problems.map((p) => `  ${p.line}:${p.column} ${p.severity}: ${p.kind}: ${p.message}`).join('\n') || '  (none)';
}

const registry = new ToolRegistry();
registerCheckTools(registry);

describe('check corpus', () => {
  const chunks = readCorpus();
  test('has cases', () => expect(chunks.length).toBeGreaterThan(50));
  for (const chunk of chunks) {
    test(chunk.name, () => {
      if (chunk.malformed.length > 0) throw new Error(`malformed chunk:\n  ${chunk.malformed.join('\n  ')}`);
      const problems = check(chunk.source, registry, { variables: chunk.variables });
      const unmatched = [...problems];
      const missing: Expectation[] = [];
      for (const expectation of chunk.expectations) {
        const at = unmatched.findIndex((p) => fits(expectation, p));
        if (at < 0) missing.push(expectation);
        else unmatched.splice(at, 1);
      }
      if (missing.length > 0 || unmatched.length > 0) {
        const describe = (e: Expectation) => `  ${e.line}${e.column ? `:${e.column}` : ''} ${e.severity}: ${e.kind}${e.pattern ? ` ${String(e.pattern)}` : ''}`;
        throw new Error(
          `${missing.length ? `expected but not reported:\n${missing.map(describe).join('\n')}\n` : ''}` +
            `${unmatched.length ? `reported but not expected:\n${show(unmatched)}\n` : ''}all reported:\n${show(problems)}`,
        );
      }
    });
  }
});
