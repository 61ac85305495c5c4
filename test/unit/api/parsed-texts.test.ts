// The programs of recently run texts (src/api/parsed-texts.ts): a text run again is not parsed
// again, runs of one text share nothing but the tree, each run keeps its own options, limits and
// variables, syntax errors are never kept, and the cache stays within its bounds.
import { describe, expect, it } from 'vitest';
import { Interpreter, isNuwaError, ToolRegistry } from '../../../src/index.js';
import { keepParsedText, MAX_PARSED_CHARS, MAX_PARSED_TEXTS, parsedText, parsedTextsHeld } from '../../../src/api/parsed-texts.js';
import { parse } from '../../../src/syntax/parse.js';
import { tool } from '../../support/harness.js';

/** A text no other test runs, so that what the cache holds for it is this test's doing. */
let unique = 0;
const fresh = (body: string) => `// parsed-texts test ${++unique}\n${body}`;

function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  tools.register(tool('bump', (args, context) => {
    const seen = (context.getStateValue('seen') as number | undefined) ?? 0;
    context.setState('seen', seen + 1);
    return (args.n as number) + 1;
  }));
  return tools;
}

describe('a text run again', () => {
  it('is parsed once: its program is kept after the first run and used by the next', async () => {
    const source = fresh('LET x = CALL bump { n: 1 }\nPRINT(x)');
    expect(parsedText(source)).toBeUndefined();
    const tools = registry();
    await new Interpreter(tools).run(source);
    const kept = parsedText(source);
    expect(kept?.type).toBe('Program');
    await new Interpreter(tools).run(source);
    expect(parsedText(source)).toBe(kept);
  });

  it('runs on its own: variables, output, session state and results are each run’s own', async () => {
    const source = fresh('LET total = start\nFOR n IN [1, 2, 3] DO\n  LET total = total + CALL bump { n: n }\nEND\nPRINT(total)');
    const tools = registry();
    const first = new Interpreter(tools, { session: tools.createSession() });
    const second = new Interpreter(tools, { session: tools.createSession() });
    const [a, b] = await Promise.all([first.run(source, { variables: { start: 0 } }), second.run(source, { variables: { start: 100 } })]);
    expect(a.variables).toEqual({ start: 0, total: 9 });
    expect(b.variables).toEqual({ start: 100, total: 109 });
    expect(a.output).toEqual(['9']);
    expect(b.output).toEqual(['109']);
    expect(first.session.getStateValue('seen')).toBe(3);
    expect(second.session.getStateValue('seen')).toBe(3);
    // A third run sees nothing the first two left behind.
    const third = await new Interpreter(tools).run(source, { variables: { start: -1 } });
    expect(third.variables).toEqual({ start: -1, total: 8 });
  });

  it('keeps each run’s limits and options', async () => {
    const source = fresh('LET n = 0\nFOR i IN [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] DO\n  LET n = n + i\nEND\nPRINT(n)');
    const lines: string[] = [];
    const roomy = await new Interpreter(registry(), { print: (line) => lines.push(line) }).run(source);
    expect(roomy.variables.n).toBe(55);
    expect(lines).toEqual(['55']);
    expect(parsedText(source)).toBeDefined();
    const tight = new Interpreter(registry(), { limits: { maxSteps: 5 } });
    const error = await tight.run(source).catch((thrown: unknown) => thrown);
    expect(isNuwaError(error) && error.kind).toBe('LimitExceededError');
    expect(isNuwaError(error) && error.line).toBe(4); // the FOR loop, under the comment line
  });

  it('reports a run-time error at its place, and with its file name, on every run', async () => {
    const source = fresh('LET a = 1\nLET b = missing + 1');
    for (const fileName of ['one.nuwa', 'two.nuwa']) {
      const error = await new Interpreter(registry()).run(source, { fileName }).catch((thrown: unknown) => thrown);
      expect(isNuwaError(error) && [error.kind, error.line, error.fileName]).toEqual(['UndefinedVariableError', 3, fileName]);
    }
  });

  it('is not kept when it does not parse: each run reports the syntax error afresh', async () => {
    const source = fresh('LET = 1');
    for (let i = 0; i < 2; i++) {
      const error = await new Interpreter(registry()).run(source).catch((thrown: unknown) => thrown);
      expect(isNuwaError(error) && error.kind).toBe('SyntaxError');
      expect(parsedText(source)).toBeUndefined();
    }
  });
});

describe('the cache of parsed texts', () => {
  it('holds at most MAX_PARSED_TEXTS texts, forgetting the least recently run first', async () => {
    const interpreter = new Interpreter(registry());
    const sources = Array.from({ length: MAX_PARSED_TEXTS + 10 }, (_, i) => fresh(`LET x = ${i}`));
    const kept = sources[0]!;
    for (const source of sources) {
      await interpreter.run(source);
      await interpreter.run(kept); // run again each time: the most recent, so never the one forgotten
      expect(parsedTextsHeld().texts).toBeLessThanOrEqual(MAX_PARSED_TEXTS);
    }
    expect(parsedText(kept)).toBeDefined();
    expect(parsedText(sources[1]!)).toBeUndefined();
    expect(parsedText(sources.at(-1)!)).toBeDefined();
  });

  it('holds at most MAX_PARSED_CHARS characters of text, and no text longer than that', () => {
    const long = fresh(`LET s = "${'x'.repeat(MAX_PARSED_CHARS)}"`);
    keepParsedText(long, parse(long));
    expect(parsedText(long)).toBeUndefined();
    const quarter = (i: number) => fresh(`LET s${i} = "${'y'.repeat(MAX_PARSED_CHARS / 4)}"`);
    const texts = [0, 1, 2, 3, 4].map(quarter);
    for (const text of texts) keepParsedText(text, parse(text));
    expect(parsedTextsHeld().chars).toBeLessThanOrEqual(MAX_PARSED_CHARS);
    expect(parsedText(texts[0]!)).toBeUndefined();
    expect(parsedText(texts[4]!)).toBeDefined();
  });
});
