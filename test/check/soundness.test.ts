// A property test: for random valid scripts, every error `check` reports is certain — whenever the
// run reaches the place of an error, the run fails. (A warning promises nothing.)
//
// To see what the run reaches, the generated scripts carry markers: each statement starts with
// `CALL mark { at: LINE }` on its own line, and the right side of each AND / OR (which runs only
// sometimes) starts a line of its own with `(CALL mark { at: LINE } AND ...)`, which mark's `true`
// leaves meaning the same. An error reported on line L belongs to the nearest marker at or above
// L; once the run calls that marker, it must fail there: no marker outside that statement may run
// after it. (Mutations of the checker that this test catches: a maybe-bound read reported as an
// error, loops that keep what they knew of the variables they change, a failing IF branch joined
// as if it went on, argument values computed at run time judged, open result schemas read as closed;
// the element of a list comprehension checked as if it certainly ran.)
//
// The same property holds beside a syntax error: one line of the script is broken (BREAKS), `check`
// reports the syntax error and its findings, and the script without the break is run: every
// finding must be certain there, since a model fixes the syntax error and runs that script.
// (Mistakes it caught while it was written: an operator whose operand recovery made up, a CALL
// whose arguments lost one to a missing comma on the next line.) SOUNDNESS_RUNS=4000 runs it longer.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, Interpreter, NuwaError, ToolRegistry } from '../../src/index.js';
import { registerCheckTools } from './tools.js';

/** A small deterministic random source, so a failing case is reproduced by its seed. */
class Random {
  constructor(private state: number) {}
  next(): number {
    this.state = (Math.imul(this.state, 1103515245) + 12345) & 0x7fffffff;
    return this.state / 0x80000000;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

// Variables are named after the type the script usually gives them, so that most generated code is
// well typed and runs on (a script that fails at once tests little); mistakes are mixed in on purpose.
type Type = 'num' | 'str' | 'bool' | 'list' | 'obj';
// The last name of each type is not an initial variable: only a LET on the way binds it.
const VARIABLES: Record<Type, string[]> = { num: ['n', 'total', 'c'], str: ['s', 'u'], bool: ['ok', 'f'], list: ['xs', 'zs'], obj: ['o', 'r'] };
const TYPES: Type[] = ['num', 'str', 'bool', 'list', 'obj'];
const INITIAL: Record<string, unknown> = { n: 3, total: 0, s: 'AAPL', ok: true, xs: [1, 2], o: { k: 1, name: 'a' } };

/** Renders a random script line by line; `line()` is the number of the line being written. */
class Writer {
  readonly lines: string[] = [''];
  /** For each marker, the last line of the statement it belongs to. */
  readonly extent = new Map<number, number>();
  private readonly open: number[][] = [];
  /** The names some LET above has set (textually): reading them may or may not be fine. */
  private readonly assigned = new Set<string>();
  constructor(private readonly random: Random) {}

  line(): number {
    return this.lines.length;
  }
  write(text: string): void {
    this.lines[this.lines.length - 1] += text;
  }
  newline(indent: number): void {
    this.lines.push('  '.repeat(indent));
  }

  /** An expression, usually of type `type`; sometimes a mistake. */
  expression(type: Type, depth: number, indent: number): void {
    const r = this.random;
    if (r.chance(0.03)) return this.mistake(depth, indent);
    if (depth <= 0 || r.chance(0.25)) return this.leaf(type);
    switch (type) {
      case 'num':
        return r.pick([
          () => this.binary(r.pick(['+', '-', '*', '+', '/', '%']), 'num', 'num', depth, indent),
          () => this.write(r.pick(['CALL get_price { symbol: "AAPL" }', '(CALL get_quote { symbol: "MSFT" }).price', 'LEN(xs)', 'LEN(CALL top3 {})'])),
          () => this.write('CALC { formula: "a * 2 + b", vars: { a: 1, b: n } }'),
          () => this.call('ABS', ['num'], depth, indent),
          () => this.member('obj', '.k', depth, indent),
        ])();
      case 'str':
        return r.pick([
          () => this.write(r.pick(['CALL read_file { path: "f" }', '(CALL get_quote { symbol: "AAPL" }).symbol', '(CALL get_profile {}).city'])),
          () => this.call('STR', ['num'], depth, indent),
          () => this.write(`FORMAT("{v}", { v: ${r.pick(VARIABLES.num)} })`),
        ])();
      case 'bool':
        return r.pick([
          () => this.binary(r.pick(['<', '>', '<=', '>=']), 'num', 'num', depth, indent),
          () => this.binary(r.pick(['==', '!=']), r.pick(TYPES), r.pick(TYPES), depth, indent),
          () => this.logical(depth, indent),
          () => {
            this.write('NOT (');
            this.expression('bool', depth - 1, indent);
            this.write(')');
          },
          () => this.call('CONTAINS', ['list', 'num'], depth, indent),
        ])();
      case 'list':
        return r.pick([
          () => {
            this.write('[');
            this.expression('num', depth - 1, indent);
            this.write(', ');
            this.expression('num', depth - 1, indent);
            this.write(']');
          },
          () => this.call('APPEND', ['list', 'num'], depth, indent),
          () => this.write(r.pick(['CALL list_symbols {}', 'CALL top3 {}', 'KEYS(CALL get_profile {})', 'CALL search { query: "q" }'])),
          () => this.comprehension(depth, indent),
        ])();
      case 'obj':
        return r.pick([
          () => {
            this.write('{ k: ');
            this.expression('num', depth - 1, indent);
            this.write(', name: "n" }');
          },
          () => this.write(r.pick(['CALL get_quote { symbol: "AAPL" }', 'CALL get_profile {}', 'CALL echo { value: { k: 1 } }'])),
          () => {
            // Arguments computed at run time, for parameters with constraints.
            this.write(r.pick(['CALL get_quote { symbol: ', 'CALL place_order { side: "buy", symbol: "AAPL", qty: ']));
            this.expression(this.lines[this.lines.length - 1]!.endsWith('qty: ') ? 'num' : 'str', depth - 1, indent);
            this.write(' }');
          },
        ])();
    }
  }

  leaf(type: Type): void {
    const r = this.random;
    if (r.chance(0.5)) {
      // A name that only a LET binds is read once some LET above (on some path) has set it.
      const names = VARIABLES[type];
      const fresh = names[names.length - 1]!;
      return this.write(this.assigned.has(fresh) && r.chance(0.35) ? fresh : r.pick(names.slice(0, -1)));
    }
    const literals: Record<Type, string[]> = {
      num: ['1', '2', '7', '0.5', '0'],
      str: ['"AAPL"', '"x"', '""'],
      bool: ['true', 'false'],
      list: ['[]', '[1, 2, 3]', '[0]'],
      obj: ['{ k: 1 }', '{ k: 0, name: "a" }', '{}'],
    };
    this.write(r.pick(literals[type]));
  }

  /** Something likely wrong: a name of another type or never set, a bad call, a wrong operand. */
  mistake(depth: number, indent: number): void {
    const r = this.random;
    r.pick([
      () => this.write(r.pick(['undefined_name', 'item', 'x', 'tmp'])),
      () => this.leaf(r.pick(TYPES)),
      () => this.write(r.pick(['LEN()', 'NOW(1)', 'FOO(1)', 'len(xs)', 'ROUND(1, 2, 3)', 'CALL nope {}', 'CALL get_price { sym: "AAPL" }', 'CALL either {}'])),
      () => this.write(r.pick(['CALL place_order { symbol: "AAPL", side: "hold", qty: 1 }', 'CALC { formula: "a * * b", vars: { a: 1, b: 2 } }', 'CALC { formula: "a + c", vars: { a: n } }'])),
      () => this.member(r.pick(TYPES), r.pick(['.k', '.name', '.price', '.value', '[0]', '[1]', '["k"]']), depth, indent),
      () => this.binary(r.pick(['+', '-', '/', '<']), r.pick(TYPES), r.pick(TYPES), depth, indent),
    ])();
  }

  binary(operator: string, left: Type, right: Type, depth: number, indent: number): void {
    this.write('(');
    this.expression(left, depth - 1, indent);
    this.write(` ${operator} `);
    this.expression(right, depth - 1, indent);
    this.write(')');
  }

  /** The right side of AND / OR runs only sometimes: it gets a line and a marker of its own. */
  logical(depth: number, indent: number): void {
    this.write('(');
    this.expression('bool', depth - 1, indent);
    this.write(` ${this.random.pick(['AND', 'OR'])}`);
    this.newline(indent + 2);
    this.write(`(CALL mark { at: ${this.line()} } AND `);
    this.open[this.open.length - 1]?.push(this.line());
    this.expression('bool', depth - 1, indent + 2);
    this.write('))');
  }

  /**
   * A list comprehension. Its list runs once, and its element and condition only for some items (or
   * none): each part gets a line and a marker of its own, run just before the part
   * (`[CALL mark {...}, part][1]` is the part). What follows the comprehension gets a line and a
   * marker too, run once every element is done (`[comprehension, CALL mark {...}][0]`).
   */
  comprehension(depth: number, indent: number): void {
    const r = this.random;
    const marker = (before: string) => {
      this.newline(indent + 2);
      this.write(`${before}[CALL mark { at: ${this.line()} }, `);
      this.open[this.open.length - 1]?.push(this.line());
    };
    this.write('[[');
    marker('');
    this.expression(r.pick(TYPES), depth - 1, indent + 2);
    this.write('][1]');
    marker(`FOR ${r.pick(['x', 'item', ...VARIABLES.num])} IN `);
    this.expression('list', depth - 1, indent + 2);
    this.write('][1]');
    if (r.chance(0.5)) {
      marker('IF ');
      this.expression('bool', depth - 1, indent + 2);
      this.write('][1]');
    }
    this.write('],');
    this.newline(indent + 1);
    this.write(`CALL mark { at: ${this.line()} }][0]`);
    this.open[this.open.length - 1]?.push(this.line());
  }

  member(type: Type, access: string, depth: number, indent: number): void {
    this.write('(');
    this.expression(type, depth - 1, indent);
    this.write(`)${access}`);
  }

  call(name: string, args: Type[], depth: number, indent: number): void {
    this.write(`${name}(`);
    args.forEach((type, i) => {
      if (i > 0) this.write(', ');
      this.expression(type, depth - 1, indent);
    });
    this.write(')');
  }

  statements(count: number, depth: number, indent: number): void {
    for (let i = 0; i < count; i++) this.statement(depth, indent);
  }

  statement(depth: number, indent: number): void {
    this.newline(indent);
    this.write(`CALL mark { at: ${this.line()} } `);
    const markers = [this.line()];
    this.open.push(markers);
    this.statementBody(depth, indent, markers);
    this.open.pop();
    for (const marker of markers) this.extent.set(marker, this.line());
  }

  private statementBody(depth: number, indent: number, markers: number[]): void {
    const r = this.random;
    const kind = depth <= 0 ? r.int(4) : r.int(9);
    switch (kind) {
      case 8: {
        // An accumulator: a literal before the loop, changed by every iteration.
        const name = r.pick(VARIABLES.num);
        this.write(`LET ${name} = ${r.pick(['0', '1'])}`);
        this.assigned.add(name);
        this.newline(indent);
        this.write(`CALL mark { at: ${this.line()} } FOR x IN `);
        markers.push(this.line());
        this.expression('list', 1, indent);
        this.write(' DO');
        this.newline(indent + 1);
        this.write(`CALL mark { at: ${this.line()} } LET ${name} = ${name} ${r.pick(['+', '-'])} `);
        markers.push(this.line());
        this.expression('num', 1, indent + 1);
        this.newline(indent);
        this.write('END');
        // ... and used after the loop.
        this.newline(indent);
        this.write(`CALL mark { at: ${this.line()} } PRINT(${r.pick(['10 / ', '10 % ', '', '-'])}${name})`);
        markers.push(this.line());
        return;
      }
      case 0:
      case 1: {
        const type = r.pick(TYPES);
        const names = VARIABLES[type];
        const name = r.chance(0.5) ? names[names.length - 1]! : r.pick(names);
        this.write(`LET ${name} = `);
        this.expression(type, 2, indent);
        this.assigned.add(name);
        return;
      }
      case 2:
        this.write('PRINT(');
        this.expression(r.pick(TYPES), 2, indent);
        this.write(')');
        return;
      case 3:
        // In parentheses: `[` or `-` right after the marker would continue the marker's expression.
        this.write(r.pick(['(', 'PRINT(']));
        this.mistake(1, indent);
        this.write(')');
        return;
      case 4:
      case 5: {
        this.write('IF ');
        this.expression('bool', 2, indent);
        this.write(' THEN');
        this.statements(1 + r.int(3), depth - 1, indent + 1);
        if (r.chance(0.5)) {
          this.newline(indent);
          this.write('ELSE');
          this.statements(1 + r.int(3), depth - 1, indent + 1);
        }
        this.newline(indent);
        this.write('END');
        return;
      }
      default: {
        this.write(`FOR ${r.pick(['x', 'item', ...VARIABLES.num])} IN `);
        this.expression('list', 2, indent);
        this.write(' DO');
        this.statements(1 + r.int(3), depth - 1, indent + 1);
        this.newline(indent);
        this.write('END');
      }
    }
  }
}

function generate(seed: number): { source: string; extent: Map<number, number> } {
  const random = new Random(seed);
  const writer = new Writer(random);
  writer.statements(3 + random.int(8), 2, 0);
  // The first line stays empty, so that the statements start on line 2 as the writer numbered them.
  return { source: writer.lines.join('\n'), extent: writer.extent };
}

function registry(marks: number[]): ToolRegistry {
  const tools = new ToolRegistry();
  registerCheckTools(tools);
  tools.register({
    name: 'mark',
    description: 'Records that the run reached a line.',
    parameters: [{ name: 'at', description: 'the line', type: 'number' }],
    returns: 'boolean',
    execute: ({ at }) => {
      marks.push(at as number);
      return true;
    },
  });
  return tools;
}

/**
 * Runs the script and checks the property; returns whether some error was reached (to show the
 * property is not vacuous). An error certain where it stands stops the run there: once the run
 * reaches the error's marker, it fails without reaching any marker outside that statement.
 */
async function verify(seed: number, breakIt?: (source: string, random: Random) => string): Promise<boolean> {
  const { source, extent } = generate(seed);
  const marks: number[] = [];
  const tools = registry(marks);
  // With `breakIt`, the errors are those check finds beside a syntax error put into the script, and
  // the run is of the script without it: a finding must stay certain once the syntax error is fixed.
  const broken = breakIt?.(source, new Random(seed + 1));
  const checked = check(broken ?? source, tools, { variables: INITIAL }).filter((p) => p.severity === 'error');
  const errors = checked.filter((e) => e.kind !== 'SyntaxError');
  if (broken === undefined) expect(checked.filter((e) => e.kind === 'SyntaxError'), source).toEqual([]);
  // A break that still parses (`[ +` is a prefix plus) made another script: nothing to compare.
  else if (!checked.some((e) => e.kind === 'SyntaxError')) return false;

  const interpreter = new Interpreter(tools, { print: () => {}, approve: () => true, limits: { maxSteps: 20_000, timeoutMs: 5_000 } });
  let failed: NuwaError | undefined;
  try {
    await interpreter.run(source, { variables: INITIAL });
  } catch (error) {
    if (!(error instanceof NuwaError)) throw error;
    failed = error;
  }
  const markers = [...extent.keys()].sort((a, b) => a - b);
  let reachedAny = false;
  for (const error of errors) {
    const region = markers.filter((line) => line <= error.line).pop()!;
    const first = marks.indexOf(region);
    if (first < 0) continue;
    reachedAny = true;
    const end = extent.get(region)!;
    const escaped = marks.slice(first + 1).find((line) => line < region || line > end);
    if (failed === undefined || escaped !== undefined) {
      const why = failed === undefined ? 'the run succeeded' : `the run went on to line ${escaped} (it failed later: ${failed.kind} at line ${failed.line})`;
      const shown = broken === undefined ? source : `${broken}\n\n(the script run, without the syntax error:)\n${source}`;
      throw new Error(`check reported an error the run did not raise there (seed ${seed}): ${why}\n${error.line}:${error.column} ${error.kind}: ${error.message}\n\n${shown}`);
    }
  }
  return reachedAny;
}

/**
 * One syntax error put into one line of a script (so that every line keeps its number): a mistake
 * the parser repairs where it stands (`===`, `&&`, a lowercase keyword, `x = 1` without LET, a
 * method), or one where recovery must skip text (a stray bracket, a character that is no token, an
 * operator with nothing after it, a broken header).
 */
const BREAKS: Array<(line: string) => string | undefined> = [
  (line) => (line.includes(' == ') ? line.replace(' == ', ' === ') : undefined),
  (line) => (line.includes(' AND') ? line.replace(' AND', ' &&') : undefined),
  (line) => (/\bLET /.test(line) ? line.replace(/\bLET /, 'let ') : undefined),
  (line) => (/\bLET /.test(line) ? line.replace(/\bLET /, '') : undefined),
  (line) => (line.includes('LEN(xs)') ? line.replace('LEN(xs)', 'xs.length()') : undefined),
  (line) => (/ THEN$/.test(line) ? line.replace(/ THEN$/, ':') : undefined),
  (line) => `${line} )`,
  (line) => `${line} +`,
  (line) => line.replace('(', '(('),
  (line) => line.replace(/\)([^)]*)$/, '$1'),
  (line) => line.replace('=', '= @'),
  (line) => (/ IF /.test(line) ? line.replace(/ IF /, ' IF ? ') : undefined),
  (line) => (/ DO$/.test(line) ? line.replace(/ DO$/, ' DO DO') : undefined),
];

function breakLine(source: string, random: Random): string {
  const lines = source.split('\n');
  for (let attempt = 0; attempt < 20; attempt++) {
    const at = 1 + random.int(lines.length - 1);
    const broken = random.pick(BREAKS)(lines[at]!);
    if (broken === undefined || broken === lines[at]) continue;
    lines[at] = broken;
    return lines.join('\n');
  }
  return source;
}

describe('every error check reports is certain', () => {
  it('random scripts: when the run reaches an error check reported, it fails there', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), async (seed) => {
        await verify(seed);
      }),
      { numRuns: 400 },
    );
  });

  it('beside a syntax error: when the run of the script without it reaches an error check reported, it fails there', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), async (seed) => {
        await verify(seed, breakLine);
      }),
      { numRuns: Number(process.env.SOUNDNESS_RUNS ?? 400) },
    );
  });

  it('beside a syntax error, check still reports errors the run reaches (the property is not vacuous)', async () => {
    let reached = 0;
    for (let seed = 1; seed <= 200; seed++) if (await verify(seed, breakLine)) reached++;
    expect(reached).toBeGreaterThan(30);
  });

  it('the generated scripts reach the errors check reports (the property is not vacuous)', async () => {
    let reached = 0;
    for (let seed = 1; seed <= 200; seed++) if (await verify(seed)) reached++;
    expect(reached).toBeGreaterThan(60);
  });
});
