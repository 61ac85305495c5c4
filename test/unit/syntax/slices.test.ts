// The sliced parse of a run (parseInSlices, tokenizeInSlices): long text gives the same AST and the
// same syntax errors as parse, with `between` called between slices, which can stop it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isNuwaError } from '../../../src/errors.js';
import { tokenize, tokenizeInSlices } from '../../../src/syntax/lexer.js';
import { parse, parseInSlices, PARSE_SLICE_CHARS } from '../../../src/syntax/parse.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples');
const EXAMPLES = ['quickstart', 'aggregate', 'lists', 'text', 'trading', 'todo', 'operators'].map((name) => readFileSync(path.join(examples, `${name}.nuwa`), 'utf8'));

/** The examples, one after another, until the text is long enough to be parsed in slices. */
function longScript(minimum = 3 * PARSE_SLICE_CHARS): string {
  let text = '';
  for (let i = 0; text.length < minimum; i++) text += `${EXAMPLES[i % EXAMPLES.length]}\n`;
  return text;
}

const noPause = () => undefined;

async function syntaxErrorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    if (isNuwaError(error)) return { kind: error.kind, message: error.message, line: error.line, column: error.column, errors: error.errors };
    throw error;
  }
  throw new Error('expected a SyntaxError');
}

describe('parseInSlices', () => {
  it('gives the AST parse gives, for long text with every construct', async () => {
    const source = longScript();
    let pauses = 0;
    const sliced = await parseInSlices(source, {}, () => void pauses++);
    expect(sliced).toEqual(parse(source));
    expect(pauses).toBeGreaterThan(3);
  });

  it('gives the tokens tokenize gives, positions and problems included', async () => {
    const source = `${longScript()}\nLET broken = 'single' && x\r\nLET y = "unterminated\n`;
    const sliced = await tokenizeInSlices(source, noPause, 1000);
    expect(sliced).toEqual(tokenize(source));
  });

  it('gives the syntax errors parse gives', async () => {
    // Mistakes spread through the text (lowercase keywords, a missing END, an unknown character).
    const source = `${longScript()}\nif x > 1 then\n  PRINT(1)\n${longScript()}\nLET z = 5 @ 2\nFOR i IN [1] DO\n  PRINT(i)\n`;
    const whole = await syntaxErrorOf(() => parse(source, { fileName: 'long.nuwa' }));
    const sliced = await syntaxErrorOf(() => parseInSlices(source, { fileName: 'long.nuwa' }, noPause));
    expect(sliced).toEqual(whole);
    expect(whole).toMatchObject({ kind: 'SyntaxError' });
  });

  it('stops where `between` throws, and lets short text through in one step', async () => {
    const stop = new Error('stop');
    let pauses = 0;
    await expect(
      parseInSlices(longScript(), {}, () => {
        if (++pauses === 3) throw stop;
        return undefined;
      }),
    ).rejects.toBe(stop);
    expect(pauses).toBe(3);
    let called = false;
    await parseInSlices('PRINT(1)', {}, () => void (called = true));
    expect(called).toBe(false);
  });
});
