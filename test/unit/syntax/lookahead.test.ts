// The parser reads its decisions from a cache of Chevrotain's analysis of the grammar
// (src/syntax/lookahead.ts). The cache must be the analysis of the grammar as it is now, and the
// decisions built from it must parse every token stream as Chevrotain's own would.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LLkLookaheadStrategy, type IToken } from '../../../src/syntax/chevrotain.js';
import { MAX_LOOKAHEAD, MAX_REPETITION_RECOVERIES, NuwaParser } from '../../../src/syntax/grammar.js';
import { CachedLookahead, RecordingLookahead } from '../../../src/syntax/lookahead.js';
import { GRAMMAR, LOOKAHEAD_PATHS } from '../../../src/syntax/lookahead-paths.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { balanceBlocks } from '../../../src/syntax/blocks.js';
import { ProblemList } from '../../../src/syntax/problems.js';
import { STAGE_HEIGHT } from '../../../src/syntax/stage.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cached = new NuwaParser();
const analysed = new NuwaParser({ lookahead: new LLkLookaheadStrategy({ maxLookahead: MAX_LOOKAHEAD }) });

/** Everything a parser makes of a token stream: statements, errors and its own problems. */
function parsed(parser: NuwaParser, tokens: IToken[]): string {
  parser.extraProblems = [];
  parser.notes = [];
  parser.repetitionRecoveries = MAX_REPETITION_RECOVERIES;
  parser.input = tokens;
  const body = parser.script();
  const errors = parser.errors.map((error) => [error.name, error.message, error.token.startOffset]);
  return JSON.stringify({ body, errors, extra: parser.extraProblems.map((p) => p.problem), notes: parser.notes });
}

const tokensOf = (source: string): IToken[] => balanceBlocks(tokenize(source).tokens, new ProblemList());

describe('the cached lookahead', () => {
  it('is the analysis of the grammar as it is now (run `npm run lookahead` after changing the grammar)', () => {
    const recording = new RecordingLookahead({ maxLookahead: MAX_LOOKAHEAD });
    new NuwaParser({ lookahead: recording });
    expect(recording.grammar).toBe(GRAMMAR);
    expect(recording.paths).toEqual(LOOKAHEAD_PATHS);
  });

  it('is what the parser uses', () => {
    const strategy = new CachedLookahead({ maxLookahead: MAX_LOOKAHEAD });
    new NuwaParser({ lookahead: strategy });
    expect(strategy.fromCache).toBe(true);
  });

  it("parses every script of the corpora as Chevrotain's own analysis does", () => {
    const files = ['test/cases', 'test/mistakes', 'examples'].flatMap((dir) =>
      readdirSync(path.join(root, dir))
        .filter((name) => name.endsWith('.nuwa'))
        .map((name) => path.join(root, dir, name)),
    );
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      if (tokenize(source).maxNesting > STAGE_HEIGHT) continue; // parsed in pieces (stage.ts), each like these
      const tokens = tokensOf(source);
      expect(parsed(cached, tokens), file).toBe(parsed(analysed, tokens));
    }
  });

  it("parses any token soup as Chevrotain's own analysis does, errors and recovery included", () => {
    const words = [
      'LET', 'x', '=', '1', 'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'CALL', 'tool', '{', '}', '[', ']', '(', ')', ',', ':', '.',
      '+', '-', '*', '==', '<', 'AND', 'NOT', '"s"', 'true', 'null', 'CALC', 'PRINT', 'elif', 'while', 'return', 'end', '\n',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 40 }), (parts) => {
        const tokens = tokensOf(parts.join(' '));
        expect(parsed(cached, tokens)).toBe(parsed(analysed, tokens));
      }),
      { numRuns: 1500 },
    );
  });
});
