// The mistakes corpus driver (test/mistakes/README.md): every script of test/mistakes/*.nuwa is run
// once; every marked mistake must be reported on that first run with a message naming its fix, and
// nothing else may be reported. The summary line gives the figures over the whole corpus, and the
// "common mistakes" table of docs/language.md must be the one the corpus generates.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mistakesTable, readCorpus, score, TABLE_END, TABLE_START, type Score } from './mistakes/corpus.js';
import { suggestedCode } from './mistakes/suggestions.js';
import { tokenize } from '../src/syntax/lexer.js';

const corpus = readCorpus();
const scores = new Map<string, Score>();

async function scored(file: string): Promise<Score> {
  let result = scores.get(file);
  if (!result) {
    result = await score(corpus.find((s) => s.file === file)!);
    scores.set(file, result);
  }
  return result;
}

const describeError = (e: { line: number; column: number; kind: string; message: string }) => `${e.line}:${e.column} ${e.kind}: ${e.message}`;

describe('mistakes corpus', () => {
  it.each(corpus.map((s) => [s.file, s.task]))('%s — %s', async (file) => {
    const script = corpus.find((s) => s.file === file)!;
    expect(script.problems, 'the file is malformed').toEqual([]);
    const result = await scored(file);
    const reported = result.errors.map(describeError).join('\n  ') || '(nothing: the script ran)';
    for (const mark of script.marks) {
      const named = result.named.some((n) => n.mark === mark);
      expect(named, `line ${mark.line}: expected an error naming "${mark.fix}"; the first run reported:\n  ${reported}`).toBe(true);
    }
    expect(result.followOn.map(describeError), 'errors that no mark accounts for (follow-on errors)').toEqual([]);
  });

  it('reports every mistake on the first run, each naming its fix, with no follow-on errors', async () => {
    const all = await Promise.all(corpus.map((s) => scored(s.file)));
    const mistakes = all.reduce((n, s) => n + s.script.marks.length, 0);
    const reported = all.reduce((n, s) => n + s.reported.length, 0);
    const named = all.reduce((n, s) => n + s.named.length, 0);
    const followOn = all.reduce((n, s) => n + s.followOn.length, 0);
    const percent = (n: number) => `${((100 * n) / mistakes).toFixed(1)}%`;
    console.log(
      `mistakes corpus: ${all.length} scripts, ${mistakes} mistakes; reported on the first run: ${reported} (${percent(reported)}); ` +
        `messages naming the fix: ${named} (${percent(named)}); follow-on errors: ${followOn}`,
    );
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect([reported, named, followOn]).toEqual([mistakes, mistakes, 0]);
  });

  it('suggests only Nuwa: no suggested code in a message carries a mistake (a construct of another language, the part it replaces)', async () => {
    const all = await Promise.all(corpus.map((s) => scored(s.file)));
    const carried: string[] = [];
    let checked = 0;
    for (const { script, errors } of all) {
      for (const error of errors) {
        for (const code of suggestedCode(error.message)) {
          checked++;
          const problems = tokenize(code).problems;
          if (problems.length > 0) carried.push(`${script.file}:${error.line}: ${code} (${problems.map((p) => p.message).join('; ')})`);
        }
      }
    }
    expect(checked, 'the suggestions were found').toBeGreaterThan(50);
    expect(carried).toEqual([]);
  });

  it('is what the "common mistakes" table of docs/language.md shows (npm run docs:mistakes regenerates it)', async () => {
    const all = await Promise.all(corpus.map((s) => scored(s.file)));
    const docs = readFileSync(new URL('../docs/language.md', import.meta.url), 'utf8');
    const start = docs.indexOf(TABLE_START);
    const end = docs.indexOf(TABLE_END);
    expect(start, 'docs/language.md has the generated table markers').toBeGreaterThanOrEqual(0);
    expect(docs.slice(start, end + TABLE_END.length)).toBe(mistakesTable(all));
  });
});
