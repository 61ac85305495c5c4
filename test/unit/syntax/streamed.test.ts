// The streamed parse of long text (streamed.ts): for every script it takes, the statements parse()
// gives; for every script with a problem anywhere, nothing (the caller then parses it the ordinary
// way). Each script is streamed in the smallest slices (a line each: a piece ends at every line that
// can end one) and in larger ones, so that every cut the stream can make is tried.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseProblems, parseInSlices, mayHoldComprehensions, PARSE_SLICE_CHARS } from '../../../src/syntax/parse.js';
import { parseStreamed } from '../../../src/syntax/streamed.js';
import { NuwaError } from '../../../src/errors.js';
import { tokenize, tokenizeInSlices } from '../../../src/syntax/lexer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The scripts of the case corpus, the mistakes corpus and the examples: whole files, and each `---` chunk of a file. */
function scripts(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const dir of ['test/cases', 'test/mistakes', 'examples']) {
    for (const file of readdirSync(path.join(root, dir)).filter((name) => name.endsWith('.nuwa'))) {
      const text = readFileSync(path.join(root, dir, file), 'utf8');
      out.push([`${dir}/${file}`, text]);
      const chunks = text.split(/^---$/m);
      if (chunks.length > 1) chunks.forEach((chunk, i) => out.push([`${dir}/${file} #${i + 1}`, chunk]));
    }
  }
  return out;
}

const noPause = () => undefined;

describe('parseStreamed', () => {
  const all = scripts();

  it('gives the statements parse gives for every script without problems, and nothing for the others', async () => {
    let streamed = 0;
    for (const [name, source] of all) {
      const whole = parseProblems(source);
      for (const sliceChars of [1, 40, 300]) {
        const statements = await parseStreamed(source, noPause, sliceChars);
        // A piece may show a problem the whole text has not (it reads `TRUE` without the LET that
        // binds it elsewhere): then the stream gives up too, and the ordinary parse takes over.
        if (statements === undefined) continue;
        expect('program' in whole, `${name} in slices of ${sliceChars}`).toBe(true);
        expect(statements.body, `${name} in slices of ${sliceChars}`).toEqual((whole as { program: { body: unknown } }).program.body);
        streamed++;
      }
    }
    // Most scripts of the corpora without problems stream, in every size of slice.
    const valid = all.filter(([, source]) => 'program' in parseProblems(source)).length;
    expect(valid).toBeGreaterThan(200);
    expect(streamed).toBeGreaterThan(valid * 3 * 0.9);
  });

  it('gives up early on a bracket or block left open near the top, rather than at the end of the text', async () => {
    const good = 'LET a = 1\nPRINT(a)\n'.repeat(20_000);
    let pauses = 0;
    const count = () => void pauses++;
    expect(await parseStreamed(`LET b = (1\n${good}`, count, 1000)).toBeUndefined();
    const early = pauses;
    pauses = 0;
    expect(await parseStreamed(`${good}LET b = (1\n`, count, 1000)).toBeUndefined();
    expect(early * 2).toBeLessThan(pauses);
    expect(await parseStreamed(`IF true THEN\n${good}END\n`, noPause, 1000)).toBeUndefined();
    expect(await parseStreamed(`IF true THEN\n${good.slice(0, 19 * 50)}END\n${good}`, noPause, 1000)).toBeDefined();
  });

  it('gives up where a piece lacks what the whole text has: a LET elsewhere that binds `TRUE`', async () => {
    const source = 'LET TRUE = 1\nLET a = TRUE + 1\nPRINT(a)\n';
    expect('program' in parseProblems(source)).toBe(true);
    expect(await parseStreamed(source, noPause, 1)).toBeUndefined();
    expect(await parseStreamed(source, noPause, 100)).toBeDefined();
  });

  it('keeps a block, a bracket or a statement across lines whole, wherever the slices end', async () => {
    const source = [
      'LET a = [',
      '  1,',
      '  2]',
      'IF a[0] == 1 THEN',
      '  FOR x IN a DO',
      '    LET b = { k: x,',
      '      l: [y * 2 FOR y IN a IF y > 1] }',
      '  END',
      'ELSE',
      '  LET b = 0',
      'END',
      'LET c = a',
      '  [1]',
      'LET d = 1 +',
      '  2',
      '',
    ].join('\n');
    const whole = parseProblems(source);
    expect('program' in whole).toBe(true);
    for (let sliceChars = 1; sliceChars < source.length; sliceChars += 7) {
      const statements = await parseStreamed(source, noPause, sliceChars);
      expect(statements?.body).toEqual((whole as { program: { body: unknown } }).program.body);
      expect(statements?.comprehensions).toBe(1);
    }
  });

  it('gives up at a problem on a later line, or text that is not a script', async () => {
    const good = 'LET a = 1\nPRINT(a)\n'.repeat(50);
    expect(await parseStreamed(good, noPause, 10)).toBeDefined();
    for (const bad of [`${good}LET b = (1\n${good}`, `${good}END\n`, `${good}IF a THEN\n`, `${good}LET c = 'x'\n`, `${good}# note\n`, `${good}LET d = 1 ; \n`, 'LET a = 1\u0000\n']) {
      expect(await parseStreamed(bad, noPause, 10)).toBeUndefined();
    }
  });

  it('reads long text the same in pieces as in one piece, whatever the size of the slices', async () => {
    const examples = all.filter(([name, source]) => name.startsWith('examples/') && 'program' in parseProblems(source)).map(([, source]) => source);
    let source = '';
    for (let i = 0; source.length < 3 * PARSE_SLICE_CHARS; i++) source += `${examples[i % examples.length]}\n`;
    // One slice as long as the text: one piece, put through the passes and the grammar as parse() does short text.
    const whole = await parseStreamed(source, noPause, source.length);
    expect(whole?.body.length).toBeGreaterThan(1000);
    for (const sliceChars of [100, 4096, 16 * 1024]) expect(await parseStreamed(source, noPause, sliceChars)).toEqual(whole);
    expect(parse(source).body).toEqual(whole!.body);
  });

  it('is what parseInSlices runs long text on: same program, comprehensions known, errors as parse reports them', async () => {
    const block = 'LET xs = [1, 2, 3]\nFOR x IN xs DO\n  LET y = x * 2\nEND\n';
    const source = `\ufeff${block.repeat(Math.ceil((3 * PARSE_SLICE_CHARS) / block.length))}`;
    const program = await parseInSlices(source, {}, noPause);
    expect(program).toEqual(parse(source));
    expect(mayHoldComprehensions(program)).toBe(false);
    const withComprehension = await parseInSlices(`${source}LET z = [x FOR x IN xs]\n`, {}, noPause);
    expect(mayHoldComprehensions(withComprehension)).toBe(true);
    // A mistake on the last line: the whole text is parsed again the ordinary way, for the report parse gives.
    const lines = source.split('\n').length;
    const broken = `${source}LET z = [1, 2\nLET w = 1 +\n`;
    const sliced = await parseInSlices(broken, { fileName: 'long.nuwa' }, noPause).catch((error: unknown) => error);
    const whole = (() => {
      try {
        return parse(broken, { fileName: 'long.nuwa' });
      } catch (error) {
        return error;
      }
    })();
    expect(sliced).toBeInstanceOf(NuwaError);
    expect(sliced).toEqual(whole);
    expect((sliced as NuwaError).errors?.map((e) => e.line)).toEqual([lines, lines + 1]);
  });
});

describe('lexing in slices', () => {
  it('counts the lines of every slice as the lexer does: \n, \r\n and a lone \r each end a line', async () => {
    const breaks = ['\n', '\r\n', '\r', '\r', '\n'];
    let source = '';
    for (let i = 0; source.length < 3 * PARSE_SLICE_CHARS; i++) source += `LET a${i} = ${i}${breaks[i % breaks.length]}`;
    source += 'LET last = 1 @ 2\n';
    const sliced = await tokenizeInSlices(source, noPause, 1000);
    expect(sliced).toEqual(tokenize(source));
    expect(sliced.problems[0]?.line).toBe(source.split(/\r\n|\r|\n/).length - 1);
    const good = source.slice(0, source.lastIndexOf('LET last'));
    expect(await parseStreamed(good, noPause, 1000)).toEqual(await parseStreamed(good, noPause, good.length));
  });

  it('keeps the positions of tabs, astral characters and a last line without a line break', async () => {
    let source = '';
    for (let i = 0; source.length < 3 * PARSE_SLICE_CHARS; i++) source += `LET s${i} = "😀\t${i}"\t+\t"x"  // 𝄞\n\tPRINT(s${i})\n`;
    source += 'LET end = "𝄞" + 1';
    const streamed = await parseStreamed(source, noPause, 700);
    expect(streamed).toEqual(await parseStreamed(source, noPause, source.length));
    expect(streamed?.body.at(-1)).toMatchObject({ type: 'Let', name: 'end', line: source.split('\n').length, column: 1, value: { column: 16 } });
  });
});
