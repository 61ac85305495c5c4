// The TextMate grammar (grammar/nuwa.tmLanguage.json), tokenized as VS Code does: expected scopes
// per construct, and agreement with the lexer-driven highlighter (src/cli/highlight.ts) on every
// token of every example, case and mistakes-corpus file (the last full of other languages' habits),
// so the editor and the terminal colour code the same way.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/cli/highlight.js';
import { BUILTIN_NAMES } from '../../../src/runtime/builtins.js';
import { nuwaFiles, ROOT, SCOPE_OF_CLASS, tokenizeText, type ScopedToken } from '../../support/textmate.js';

/** The scope of the token covering the first occurrence of `text` (after `from`) on the first line. */
async function scopesOf(source: string, text: string, from = 0): Promise<string[]> {
  const tokens = await tokenizeText(source);
  const line = source.split('\n')[0]!;
  const at = line.indexOf(text, from);
  if (at < 0) throw new Error(`${text} is not in ${line}`);
  const covering = tokens.filter((t) => t.line === 1 && t.start <= at && t.end >= at + text.length);
  if (covering.length !== 1) throw new Error(`${text} in ${line} is split over ${covering.length} tokens: ${JSON.stringify(tokens)}`);
  return covering[0]!.scopes;
}

const CONSTRUCTS: Array<[source: string, text: string, scope: string, from?: number]> = [
  ['LET total = 0', 'LET', 'keyword.other.let.nuwa'],
  ['LET total = 0', 'total', 'variable.other.readwrite.nuwa'],
  ['LET total = 0', '=', 'keyword.operator.assignment.nuwa'],
  ['LET total = 0', '0', 'constant.numeric.nuwa'],
  ['IF a THEN b ELSE c END', 'IF', 'keyword.control.nuwa'],
  ['IF a THEN b ELSE c END', 'THEN', 'keyword.control.nuwa'],
  ['IF a THEN b ELSE c END', 'ELSE', 'keyword.control.nuwa'],
  ['IF a THEN b ELSE c END', 'END', 'keyword.control.nuwa'],
  ['FOR x IN xs DO PRINT(x) END', 'FOR', 'keyword.control.nuwa'],
  ['FOR x IN xs DO PRINT(x) END', 'IN', 'keyword.control.nuwa'],
  ['FOR x IN xs DO PRINT(x) END', 'DO', 'keyword.control.nuwa'],
  ['FOR x IN xs DO PRINT(x) END', 'PRINT', 'support.function.builtin.nuwa'],
  ['LET n = LEN (xs)', 'LEN', 'support.function.builtin.nuwa'],
  ['LET LEN = 3', 'LEN', 'variable.other.readwrite.nuwa'],
  ['LET y = FOO(1)', 'FOO', 'variable.function.nuwa'],
  ['LET p = CALL get_price { symbol: "AAPL" }', 'CALL', 'keyword.other.call.nuwa'],
  ['LET p = CALL get_price { symbol: "AAPL" }', 'get_price', 'entity.name.function.tool.nuwa'],
  ['LET p = CALL get_price { symbol: "AAPL" }', 'symbol', 'support.type.property-name.nuwa'],
  ['LET p = CALL get_price { symbol: "AAPL" }', '{', 'punctuation.section.braces.begin.nuwa'],
  ['LET s = CALL math.add { a: 1, b: 2 }', 'math.add', 'entity.name.function.tool.nuwa'],
  ['LET s = CALL math.add { a: 1, b: 2 }', ',', 'punctuation.separator.comma.nuwa'],
  ['LET s = CALL math.add { a: 1, b: 2 }', ':', 'punctuation.separator.key-value.nuwa'],
  ['LET o = { "first name": "Ada" }', '"first name"', 'support.type.property-name.nuwa'],
  ['LET c = CALC { formula: "a * 2", vars: { a: 1 } }', 'CALC', 'keyword.other.calc.nuwa'],
  ['LET s = "a\\n\\u00e9"', '\\n', 'constant.character.escape.nuwa'],
  ['LET s = "a\\n\\u00e9"', '\\u00e9', 'constant.character.escape.nuwa'],
  ['LET s = "a\\n\\u00e9"', 'a', 'string.quoted.double.nuwa', 9],
  ['LET s = "bad \\q escape"', '\\q', 'invalid.illegal.escape.nuwa'],
  ['LET s = "never closed', '"never closed', 'invalid.illegal.unterminated-string.nuwa'],
  ["LET s = 'single'", "'single'", 'invalid.illegal.single-quoted-string.nuwa'],
  ['LET x = 2.5E-3', '2.5E-3', 'constant.numeric.nuwa'],
  ['LET ok = a == b AND NOT c', '==', 'keyword.operator.comparison.nuwa'],
  ['LET ok = a == b AND NOT c', 'AND', 'keyword.operator.logical.nuwa'],
  ['LET ok = a == b AND NOT c', 'NOT', 'keyword.operator.logical.nuwa'],
  ['LET x = a % b', '%', 'keyword.operator.arithmetic.nuwa'],
  ['LET x = [true, false, null]', 'true', 'constant.language.boolean.nuwa'],
  ['LET x = [true, false, null]', 'false', 'constant.language.boolean.nuwa'],
  ['LET x = [true, false, null]', 'null', 'constant.language.null.nuwa'],
  ['LET x = [true, false, null]', '[', 'punctuation.section.brackets.begin.nuwa'],
  ['LET x = order.items[0]', 'items', 'variable.other.property.nuwa'],
  ['LET x = order.items[0]', '.', 'punctuation.accessor.nuwa'],
  ['LET nullable = 1', 'nullable', 'variable.other.readwrite.nuwa'],
  ['LET ENDING = 1', 'ENDING', 'variable.other.readwrite.nuwa'],
  ['PRINT(x) // a comment', ' a comment', 'comment.line.double-slash.nuwa'],
  ['PRINT(x) // a comment', '//', 'punctuation.definition.comment.nuwa'],
  ['LET x = a ; b', ';', 'invalid.illegal.character.nuwa'],
  // Other languages' habits: what they are, marked as the mistakes the lexer reports.
  ['LET x = a && b', '&&', 'keyword.operator.logical.nuwa'],
  ['LET x = a && b', '&&', 'invalid.illegal.operator.nuwa'],
  ['LET x = a || !b', '||', 'invalid.illegal.operator.nuwa'],
  ['LET x = a || !b', '!', 'keyword.operator.logical.nuwa'],
  ['LET x = a === b', '===', 'keyword.operator.comparison.nuwa'],
  ['LET x = a !== b', '!==', 'invalid.illegal.operator.nuwa'],
  ['LET x = a <> b', '<>', 'invalid.illegal.operator.nuwa'],
  ['LET x = a <= b', '<=', 'keyword.operator.comparison.nuwa'],
  ['LET n += 1', '+=', 'keyword.operator.assignment.compound.nuwa'],
  ['n++', '++', 'invalid.illegal.operator.nuwa'],
  ['LET x = .5', '.5', 'constant.numeric.nuwa'],
  ['LET x = xs.0', '.0', 'invalid.illegal.leading-dot.nuwa'],
  ['LET s = `a ${b}`', 'a ${b}', 'string.quoted.other.template.nuwa'],
  ['LET s = `a ${b}`', 'a ${b}', 'invalid.illegal.template-string.nuwa'],
  ['x /* note */', ' note ', 'comment.block.nuwa'],
  ['x # note', '# note', 'comment.line.number-sign.nuwa'],
  ['x # note', '# note', 'invalid.illegal.hash-comment.nuwa'],
  ['```nuwa', '```nuwa', 'invalid.illegal.fence.nuwa'],
  ['if x then', 'if', 'variable.other.readwrite.nuwa'], // lowercase: a name (LANGUAGE.md §1)
];

describe('TextMate grammar: scopes of each construct', () => {
  it.each(CONSTRUCTS)('%s: %s is %s', async (source, text, scope, from) => {
    expect(await scopesOf(source, text, from)).toContain(scope);
  });

  it('scopes every built-in of the runtime as a built-in', async () => {
    for (const name of BUILTIN_NAMES) expect(await scopesOf(`LET x = ${name}(1)`, name)).toContain('support.function.builtin.nuwa');
  });
});

/** Disagreements between the highlighter and the TextMate grammar on one text. */
async function disagreements(source: string): Promise<string[]> {
  const tokens = await tokenizeText(source);
  const lineStarts = [0];
  for (const match of source.matchAll(/\r\n|\r|\n/g)) lineStarts.push(match.index + match[0].length);
  const byLine = new Map<number, ScopedToken[]>();
  for (const token of tokens) {
    if (!byLine.has(token.line)) byLine.set(token.line, []);
    byLine.get(token.line)!.push(token);
  }
  let line = 0;
  const tokenAt = (offset: number): ScopedToken | undefined => {
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++; // spans come in order
    const column = offset - lineStarts[line]!;
    return byLine.get(line + 1)?.find((t) => t.start <= column && column < t.end);
  };
  const problems: string[] = [];
  for (const span of classify(source)) {
    for (let offset = span.start; offset < span.end; offset++) {
      if (source[offset] === '\n' || source[offset] === '\r') continue; // a /* */ comment or template string spans lines
      const token = tokenAt(offset);
      if (token === undefined || !token.scopes.some(SCOPE_OF_CLASS[span.kind])) {
        problems.push(`${JSON.stringify(source.slice(span.start, span.end))} (${span.kind}) has scopes ${JSON.stringify(token?.scopes ?? [])}`);
        break;
      }
    }
  }
  // Nothing but white space is left with only the root scope.
  for (const token of tokens) {
    if (token.text.trim() !== '' && token.scopes.length < 2) problems.push(`${JSON.stringify(token.text)} on line ${token.line} has no scope`);
  }
  return problems;
}

describe('TextMate grammar and the lexer-driven highlighter agree', () => {
  it.each(nuwaFiles())('%s', async (file) => {
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    expect(await disagreements(source)).toEqual([]);
  });
});
