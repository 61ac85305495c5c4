// The blind corpus (test/blind/README.md): its integrity — every record, every fix and every fixed
// form is right, so that the figures measure the messages and not the corpus — and the driver's
// figures, which must not get worse than those recorded in figures.json.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FIGURES_FILE, PERSONALITIES, V11_FEATURES, applyFixes, corpusRegistry, loadCorpus, measureCorpus, namesFix, runScript, totals,
  CorpusError, type Figures, type Fix, type Mistake, type Script,
} from './driver.js';

const scripts = loadCorpus();
const broken = scripts.filter((script) => script.mistakes.length > 0);
const correct = scripts.filter((script) => script.mistakes.length === 0);
const registry = await corpusRegistry();

/** A script per v1.1 feature, and what it prints once the feature exists. */
const PROBES: Record<(typeof V11_FEATURES)[number], [string, string]> = {
  comprehension: ['PRINT([x * 2 FOR x IN [1, 2, 3] IF x > 1])', '[4,6]'],
  SUM: ['PRINT(SUM([1, 2, 3]))', '6'],
  'GET/SET': ['PRINT(SET({ a: 1 }, "b", GET({}, "b", 0) + 2))', '{"a":1,"b":2}'],
  'FORMAT path': ['PRINT(FORMAT("{a.b}", { a: { b: 7 } }))', '7'],
};
const present = new Set<string>();
for (const [feature, [probe, printed]] of Object.entries(PROBES)) {
  const outcome = await runScript(registry, probe, `${feature}.probe`).catch(() => undefined);
  if (outcome?.ok && outcome.output.join('\n') === printed) present.add(feature);
}

const firstFixes = (script: Script) => script.mistakes.map((mistake) => ({ mistake, fix: mistake.fixes[0]! }));

describe('the blind corpus', () => {
  it('has at least 44 scripts, about a quarter of them correct, in every personality', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(44);
    expect(correct.length / scripts.length).toBeGreaterThan(0.2);
    expect(correct.length / scripts.length).toBeLessThan(0.3);
    for (const personality of PERSONALITIES) expect(broken.some((script) => script.personality === personality), personality).toBe(true);
    expect(broken.filter((script) => script.mistakes.length >= 2).length).toBeGreaterThanOrEqual(10);
  });

  it.each(broken.map((script) => [script.name, script] as const))('%s: the first fix of every mistake gives its .fixed.nuwa', (_name, script) => {
    expect(applyFixes(script.source, firstFixes(script), script.name)).toBe(script.fixed);
  });

  it.each(broken.map((script) => [script.name, script] as const))('%s: every fix finds its text on its line', (_name, script) => {
    for (const mistake of script.mistakes) for (const fix of mistake.fixes) applyFixes(script.source, [{ mistake, fix }], script.name);
  });

  it.each(broken.map((script) => [script.name, script] as const))('%s: the fixed form runs cleanly and prints its output', async (_name, script) => {
    const outcome = await runScript(registry, script.fixed!, `${script.name}.fixed.nuwa`);
    expect(outcome.messages).toEqual([]);
    expect(outcome.output).toEqual(script.output);
  });

  it.each(broken.map((script) => [script.name, script] as const))('%s: as written, it does not run cleanly to its output', async (_name, script) => {
    const outcome = await runScript(registry, script.source, `${script.name}.nuwa`);
    expect(outcome.ok && outcome.output.join('\n') === script.output.join('\n')).toBe(false);
  });

  it.each(correct.map((script) => [script.name, script] as const))('%s: the correct script runs cleanly and prints its output', async (_name, script) => {
    const outcome = await runScript(registry, script.source, `${script.name}.nuwa`);
    expect(outcome.messages).toEqual([]);
    expect(outcome.output).toEqual(script.output);
  });

  // Each other fix, in place of the first one, must work as well: it is what the retry applies when a
  // message names it. A v1.1 fix is checked once its feature exists (until then it is skipped).
  const alternatives = broken.flatMap((script) =>
    script.mistakes.flatMap((mistake) => mistake.fixes.slice(1).map((fix) => ({ script, mistake, fix }))));
  const label = (entry: (typeof alternatives)[number]) =>
    [`${entry.script.name}:${entry.mistake.line} ${entry.fix.v11 ?? 'v1'} \`${entry.fix.replace.split('\n')[0]}\``, entry] as const;
  const ready = alternatives.filter((entry) => !entry.fix.v11 || present.has(entry.fix.v11));
  const waiting = alternatives.filter((entry) => !ready.includes(entry));
  it.each(ready.map(label))('%s works in place of the first fix', async (_name, { script, mistake, fix }) => {
    const chosen = firstFixes(script).map((entry) => (entry.mistake === mistake ? { mistake, fix } : entry));
    const outcome = await runScript(registry, applyFixes(script.source, chosen, script.name), `${script.name}.nuwa`);
    expect(outcome.messages).toEqual([]);
    expect(outcome.output).toEqual(script.output);
  });
  it.skip.each(waiting.map(label))('%s works in place of the first fix (once its v1.1 feature exists)', () => {});
});

describe('applying fixes', () => {
  const mistake = (line: number, ...fixes: Fix[]): Mistake => ({ line, kind: 'test', what: 'test', fixes });
  const fix = (find: string, replace: string, extra: Partial<Fix> = {}): Fix => ({ find, replace, names: [['x']], ...extra });

  it('applies fixes bottom-up, so a replacement of several lines moves no line still to edit', () => {
    const source = 'a\nb\nc';
    const one = mistake(1, fix('a', 'a1\na2'));
    const three = mistake(3, fix('c', 'C'));
    expect(applyFixes(source, [{ mistake: one, fix: one.fixes[0]! }, { mistake: three, fix: three.fixes[0]! }])).toBe('a1\na2\nb\nC');
  });

  it('applies fixes of one line in order, its also edits, a line given by the fix, and removes the lines a fix blanks', () => {
    const source = 'x\n  try:\n  y and z\nEND';
    const tryLine = mistake(2, fix('try:', ''));
    const and = mistake(3, fix(' and ', ' AND '));
    const moved = mistake(3, fix('END', 'END END', { line: 4, also: [{ line: 1, find: 'x', replace: 'X' }] }));
    const chosen = [tryLine, and, moved].map((m) => ({ mistake: m, fix: m.fixes[0]! }));
    expect(applyFixes(source, chosen)).toBe('X\n  y AND z\nEND END');
  });

  it('reports a find that is not on its line as a corpus bug', () => {
    const wrong = mistake(1, fix('nowhere', 'x'));
    expect(() => applyFixes('a\nb', [{ mistake: wrong, fix: wrong.fixes[0]! }], 'demo')).toThrow(CorpusError);
    expect(() => applyFixes('a\nb', [{ mistake: wrong, fix: wrong.fixes[0]! }], 'demo')).toThrow(/demo: `nowhere` is not on line 1/);
  });

  it('counts a fix as named only when the message says more than the mistake itself', () => {
    const equals = mistake(1, fix('===', '==', { names: [['==']] }));
    expect(namesFix('`===` is not an operator', equals.fixes[0]!)).toBe(false);
    expect(namesFix('`===` is not an operator: write ==', equals.fixes[0]!)).toBe(true);
    const keyword = mistake(1, fix('for x', 'FOR x', { names: [['FOR', 'uppercase'], ['did you mean', 'FOR']] }));
    expect(namesFix('unexpected `for x`: expected LET, FOR or IF', keyword.fixes[0]!)).toBe(false);
    expect(namesFix('keywords are uppercase: FOR', keyword.fixes[0]!)).toBe(true);
    const nested = mistake(1, fix('elif x THEN', 'ELSE IF x THEN', { names: [['ELSE IF', 'END']], also: [{ line: 3, find: 'END', replace: 'END END' }] }));
    expect(namesFix('there is no elif x THEN: write ELSE IF with its own END', nested.fixes[0]!)).toBe(true);
  });
});

describe('the figures', () => {
  it('are no worse than those recorded in figures.json', async () => {
    expect(existsSync(FIGURES_FILE), 'record them with `npm run blind -- --write`').toBe(true);
    const recorded = JSON.parse(readFileSync(FIGURES_FILE, 'utf8')) as Figures;
    const now = totals(await measureCorpus(scripts));
    const sizes = ['mistakes', 'brokenScripts', 'correctScripts'] as const;
    for (const size of sizes) expect(now[size], `the corpus changed (${size}): re-record with \`npm run blind -- --write\``).toBe(recorded[size]);
    const worse: string[] = [];
    for (const key of ['reported', 'fixNamed', 'fixedByOneRetry'] as const) if (now[key] < recorded[key]) worse.push(`${key}: ${now[key]} < ${recorded[key]}`);
    for (const key of ['strayErrors', 'correctFlagged'] as const) if (now[key] > recorded[key]) worse.push(`${key}: ${now[key]} > ${recorded[key]}`);
    expect(worse, 'npm run blind shows the details').toEqual([]);
  });
});
