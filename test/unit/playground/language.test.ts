// The playground's CodeMirror language (src/playground/page/language.ts) against the TextMate grammar
// (grammar/nuwa.tmLanguage.json, tokenized as VS Code does): the class of each construct, and
// agreement character by character on every example, case and mistakes-corpus file, both ways:
// what the page colours has the grammar's scope for that class, and nothing the grammar scopes is
// left uncoloured by the page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StringStream } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { tokenizeLines, type LineToken } from '../../../src/playground/page/language.js';
import { nuwaFiles, ROOT, SCOPE_OF_CLASS, tokenizeText } from '../../support/textmate.js';
import type { TokenClass } from '../../../src/cli/highlight.js';

const tokenize = (text: string): LineToken[] => tokenizeLines(text, StringStream);

/** The class of the token covering the first occurrence of `text` on the first line. */
function classOf(source: string, text: string): TokenClass {
  const at = source.indexOf(text);
  const covering = tokenize(source).filter((t) => t.line === 1 && t.start <= at && t.end >= at + text.length);
  if (covering.length !== 1) throw new Error(`${text} in ${source} is covered by ${covering.length} tokens`);
  return covering[0]!.kind;
}

const CONSTRUCTS: Array<[source: string, text: string, kind: TokenClass]> = [
  ['LET total = 0', 'LET', 'keyword'],
  ['LET total = 0', 'total', 'variable'],
  ['LET total = 0', '=', 'operator'],
  ['LET total = 0', '0', 'number'],
  ['IF a AND NOT b THEN', 'AND', 'operator'],
  ['IF a AND NOT b THEN', 'THEN', 'keyword'],
  ['LET p = CALL get_price { symbol: "AAPL" }', 'get_price', 'tool'],
  ['LET p = CALL get_price { symbol: "AAPL" }', 'symbol', 'key'],
  ['LET p = CALL get_price { symbol: "AAPL" }', '"AAPL"', 'string'],
  ['LET s = CALL math . add { a: 1 }', 'math . add', 'tool'],
  ['LET o = { "first name": "Ada" }', '"first name"', 'key'],
  ['PRINT(LEN(xs))', 'PRINT', 'builtin'],
  ['LET LEN = 3', 'LEN', 'variable'],
  ['LET y = FOO(1)', 'FOO', 'function'],
  ['LET x = order.items[0]', 'items', 'property'],
  ['LET x = [true, null]', 'null', 'constant'],
  ['LET x = .5', '.5', 'number'],
  ['LET x = a && b', '&&', 'operator'],
  ["LET s = 'single'", "'single'", 'string'],
  ['LET s = "never closed', '"never closed', 'string'],
  ['x # note', '# note', 'comment'],
  ['x /* note */ y', '/* note */', 'comment'],
  ['LET s = `a ${b}` + c', '`a ${b}`', 'string'],
  ['```nuwa', '```nuwa', 'invalid'],
  ['LET x = a ; b', ';', 'invalid'],
  ['if x then', 'if', 'variable'],
];

describe('the playground language: the class of each construct', () => {
  it.each(CONSTRUCTS)('%s: %s is %s', (source, text, kind) => {
    expect(classOf(source, text)).toBe(kind);
  });

  it('carries a /* comment and a template string over line breaks, as the grammar does', () => {
    const kinds = tokenize('x /* one\ntwo */ y\nLET s = `a\nb` + 1').map((t) => `${t.line}:${t.kind}`);
    expect(kinds).toEqual(['1:variable', '1:comment', '2:comment', '2:variable', '3:keyword', '3:variable', '3:operator', '3:string', '4:string', '4:operator', '4:number']);
  });

  it('takes the tool name after CALL on the same line only, as the grammar does', () => {
    expect(tokenize('CALL\nget_price {}').find((t) => t.line === 2)?.kind).toBe('variable');
  });
});

/** Tokens by line (1-based), for lookups by position. */
function byLine<T extends { line: number }>(tokens: T[]): Map<number, T[]> {
  const lines = new Map<number, T[]>();
  for (const token of tokens) {
    if (!lines.has(token.line)) lines.set(token.line, []);
    lines.get(token.line)!.push(token);
  }
  return lines;
}

/** Disagreements between the playground's tokens and the TextMate grammar's scopes on one text. */
async function disagreements(source: string): Promise<string[]> {
  const scoped = await tokenizeText(source);
  const ours = tokenize(source);
  const theirsOn = byLine(scoped);
  const oursOn = byLine(ours);
  const problems: string[] = [];
  const lines = source.split(/\r\n|\r|\n/);
  const blank = (line: number, column: number) => /\s/.test(lines[line - 1]![column]!);
  for (const token of ours) {
    for (let column = token.start; column < token.end; column++) {
      if (blank(token.line, column)) continue;
      const theirs = theirsOn.get(token.line)?.find((t) => t.start <= column && column < t.end);
      if (theirs === undefined || !theirs.scopes.some(SCOPE_OF_CLASS[token.kind])) {
        const text = lines[token.line - 1]!.slice(token.start, token.end);
        problems.push(`${token.line}:${token.start} ${JSON.stringify(text)} is ${token.kind} here, scopes ${JSON.stringify(theirs?.scopes ?? [])} in the grammar`);
        break;
      }
    }
  }
  for (const token of scoped) {
    for (let column = token.start; column < token.end; column++) {
      if (blank(token.line, column)) continue;
      if (!oursOn.get(token.line)?.some((t) => t.start <= column && column < t.end)) {
        problems.push(`${token.line}:${column} ${JSON.stringify(token.text)} (${token.scopes.join(' ')}) has no class here`);
        break;
      }
    }
  }
  return problems;
}

describe('the playground language agrees with the TextMate grammar', () => {
  it.each(nuwaFiles())('%s', async (file) => {
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    expect(await disagreements(source)).toEqual([]);
  });
});
