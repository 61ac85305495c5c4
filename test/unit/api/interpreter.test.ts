// Unit tests for the embedding API (API.md): Interpreter.run and its result, initial variables,
// errors seen by hosts, parsed ASTs, the original NuwaScript entry points, parse() and sessions.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createToolRegistry,
  Interpreter,
  isNuwaError,
  NuwaError,
  parse,
  Session,
  ToolRegistry,
  type JsonObject,
} from '../../../src/index.js';
import { failure, tool } from '../../support/harness.js';
import { thrownBy } from '../../support/thrown.js';

function quiet(registry = new ToolRegistry(), options: ConstructorParameters<typeof Interpreter>[1] = {}): Interpreter {
  return new Interpreter(registry, { print: () => {}, ...options });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Interpreter.run result', () => {
  it('resolves to { variables, output, stats: { steps, toolCalls, durationMs } }', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('double', (args) => (args.n as number) * 2));
    const lines: string[] = [];
    const interpreter = new Interpreter(registry, { print: (line) => lines.push(line) });
    const result = await interpreter.run('LET a = 1\nLET b = CALL double { n: a }\nPRINT(FORMAT("{a} {b}", { a: a, b: b }))\nPRINT([a, b])');
    expect(result.variables).toEqual({ a: 1, b: 2 });
    expect(result.output).toEqual(['1 2', '[1,2]']);
    expect(lines).toEqual(['1 2', '[1,2]']);
    expect(Object.keys(result).sort()).toEqual(['output', 'stats', 'variables']);
    expect(Object.keys(result.stats).sort()).toEqual(['durationMs', 'steps', 'toolCalls']);
    expect(result.stats.steps).toBe(4);
    expect(result.stats.toolCalls).toBe(1);
    expect(result.stats.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.stats.durationMs).toBeLessThan(10_000);
  });

  it('copies the variables out when first read (or replaced), and shows nothing else', async () => {
    const unread = await quiet().run('LET a = [1, 2]');
    expect(JSON.stringify(unread)).toMatch(/^\{"variables":\{"a":\[1,2\]\},"output":\[\],"stats":/);
    expect({ ...(await quiet().run('LET a = 1')) }).toMatchObject({ variables: { a: 1 }, output: [] });
    expect(structuredClone(await quiet().run('LET a = 1')).variables).toEqual({ a: 1 });
    const read = await quiet().run('LET a = { k: "v" }');
    const first = read.variables;
    expect(read.variables).toBe(first); // read once, then a plain property
    expect(Object.getOwnPropertyDescriptor(read, 'variables')).toMatchObject({ value: first, writable: true, enumerable: true });
    const replaced = await quiet().run('LET a = 1');
    replaced.variables = { mine: true };
    expect(replaced.variables).toEqual({ mine: true });
    expect(Object.keys(replaced)).toEqual(['variables', 'output', 'stats']);
  });

  it('counts statements and loop iterations as steps', async () => {
    const result = await quiet().run('FOR x IN [1, 2, 3] DO LET y = x END');
    expect(result.stats.steps).toBe(7);
    expect(result.stats.toolCalls).toBe(0);
  });

  it('returns only top-level variables, as plain JSON', async () => {
    const result = await quiet().run('LET o = { b: 1, a: [true, null] } FOR i IN [1] DO LET inner = 1 END');
    expect(result.variables).toEqual({ o: { b: 1, a: [true, null] } });
    expect(Object.keys(result.variables.o as JsonObject)).toEqual(['b', 'a']);
    expect(Object.getPrototypeOf(result.variables.o)).toBe(Object.prototype);
  });

  it('an empty script resolves to empty results', async () => {
    const result = await quiet().run('');
    expect(result.variables).toEqual({});
    expect(result.output).toEqual([]);
    expect(result.stats.steps).toBe(0);
  });

  it('prints nothing to process.stdout by default: the lines are in the result (API.md v1.1)', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const result = await new Interpreter(new ToolRegistry()).run('PRINT("kept")');
    expect(write).not.toHaveBeenCalled();
    expect(result.output).toEqual(['kept']);
  });

  it('works with no registry at all', async () => {
    const result = await new Interpreter(undefined, { print: () => {} }).run('LET a = 2');
    expect(result.variables).toEqual({ a: 2 });
  });

  it('refuses a registry that is not a ToolRegistry', () => {
    expect(thrownBy(() => new Interpreter({} as ToolRegistry), NuwaError)).toMatchObject({ kind: 'TypeError', message: 'new Interpreter(registry, options): registry must be a ToolRegistry, got an object' });
  });
});

describe('initial variables', () => {
  it('binds them at the top level, where LET updates them', async () => {
    const result = await quiet().run('LET b = a + 1 LET a = 100 LET s = cfg.name', { variables: { a: 41, cfg: { name: 'x' } } });
    expect(result.variables).toEqual({ a: 100, cfg: { name: 'x' }, b: 42, s: 'x' });
  });

  it('copies them: the caller’s object is not changed by the run, nor the run by the caller', async () => {
    const registry = new ToolRegistry();
    const input = { list: [1] };
    registry.register(tool('mutate', () => ((input.list as number[]).push(2), null)));
    const result = await quiet(registry).run('CALL mutate {} LET seen = list', { variables: { list: input.list } });
    expect(result.variables.seen).toEqual([1]);
  });

  it.each([
    ['a Date', { d: new Date(0) }, /`d`/],
    ['NaN', { n: Number.NaN }, /`n`/],
    ['a function', { f: () => 1 }, /`f`/],
    ['a Map nested in a list', { m: [new Map()] }, /`m`/],
  ])('a non-JSON initial variable (%s) is a NuwaError', async (_label, variables, message) => {
    const error = await failure(quiet().run('LET ok = 1', { variables }));
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/not a JSON value/);
  });

  it('an invalid variable name is a NuwaError', async () => {
    const error = await failure(quiet().run('LET ok = 1', { variables: { 'not a name': 1 } }));
    expect(error.message).toMatch(/not a valid variable name/);
  });
});

describe('errors seen by the host', () => {
  it('are NuwaErrors (Error subclasses) with kind, message, line, column and fileName', async () => {
    const error = await failure(quiet().run('LET a = 1\nLET b = a / 0', { fileName: 'plan.nuwa' }));
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.kind).toBe('DivisionByZeroError');
    expect(error.line).toBe(2);
    expect(typeof error.column).toBe('number');
    expect(error.fileName).toBe('plan.nuwa');
    expect(error.toJSON()).toMatchObject({ kind: 'DivisionByZeroError', line: 2, fileName: 'plan.nuwa' });
  });

  it('a syntax error from run carries fileName and every syntax error', async () => {
    const error = await failure(quiet().run('LET = 1\nLET b = 2\nLET c = )', { fileName: 'bad.nuwa' }));
    expect(error.kind).toBe('SyntaxError');
    expect(error.fileName).toBe('bad.nuwa');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([
      [1, 5],
      [3, 9],
    ]);
    expect(error.variables).toEqual({});
  });

  it('variables holds the top-level variables as they were when the error stopped the script', async () => {
    const error = await failure(quiet().run('LET a = 1\nLET b = [a]\nFOR i IN [1, 2] DO\n  LET inner = i\n  LET a = a + 1\n  IF i == 2 THEN LET z = 1 / 0 END\nEND\nLET after = 1'));
    expect(error.kind).toBe('DivisionByZeroError');
    expect(error.variables).toEqual({ a: 3, b: [1] });
  });

  it('variables includes initial variables', async () => {
    const error = await failure(quiet().run('LET b = missing', { variables: { a: 'given' } }));
    expect(error.kind).toBe('UndefinedVariableError');
    expect(error.variables).toEqual({ a: 'given' });
  });

  it('output and tool calls made before the error stay done', async () => {
    const lines: string[] = [];
    const calls: string[] = [];
    const registry = new ToolRegistry();
    registry.register(tool('log', (args) => (calls.push(args.m as string), null)));
    const interpreter = new Interpreter(registry, { print: (line) => lines.push(line) });
    await failure(interpreter.run('PRINT("one") CALL log { m: "x" } LET bad = 1 + "a" PRINT("two")'));
    expect(lines).toEqual(['one']);
    expect(calls).toEqual(['x']);
  });
});

describe('parse and parsed ASTs', () => {
  it('parse returns a Program whose nodes have line and column', () => {
    const ast = parse('LET a = 1\n  PRINT(a)');
    expect(ast.type).toBe('Program');
    expect(ast.body).toHaveLength(2);
    expect([ast.body[0]!.line, ast.body[0]!.column]).toEqual([1, 1]);
    expect([ast.body[1]!.line, ast.body[1]!.column]).toEqual([2, 3]);
  });

  it('parse throws a SyntaxError carrying every syntax error and the fileName', () => {
    let caught: unknown;
    try {
      parse('LET = 1\nLET b = 2\nLET c = )\nPRINT(1)', { fileName: 'x.nuwa' });
    } catch (error) {
      caught = error;
    }
    expect(isNuwaError(caught)).toBe(true);
    const error = caught as NuwaError;
    expect(error.kind).toBe('SyntaxError');
    expect(error.fileName).toBe('x.nuwa');
    expect([error.line, error.column]).toEqual([1, 5]);
    expect(error.errors).toHaveLength(2);
    for (const problem of error.errors!) {
      expect(Object.keys(problem).sort()).toEqual(['column', 'line', 'message']);
      expect(problem.message.length).toBeGreaterThan(0);
    }
    expect(error.errors![0]!.message).toMatch(/LET/);
    expect(error.errors![1]).toMatchObject({ line: 3, column: 9 });
  });

  it('run accepts a parsed AST, and one AST can be run twice', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('inc', (args) => (args.n as number) + 1));
    const ast = parse('LET y = CALL inc { n: x * 2 }\nPRINT(y)');
    const before = JSON.stringify(ast);
    const interpreter = quiet(registry);
    const first = await interpreter.run(ast, { variables: { x: 1 } });
    const second = await interpreter.run(ast, { variables: { x: 5 } });
    expect(first.variables).toEqual({ x: 1, y: 3 });
    expect(first.output).toEqual(['3']);
    expect(second.variables).toEqual({ x: 5, y: 11 });
    expect(second.output).toEqual(['11']);
    expect(JSON.stringify(ast)).toBe(before);
    const third = await new Interpreter(registry, { print: () => {} }).run(ast, { variables: { x: 0 } });
    expect(third.variables.y).toBe(1);
  });

  it('run refuses something that is neither text nor a Program', async () => {
    const error = await failure(quiet().run({ type: 'Nope' } as never));
    expect(error.kind).toBe('SyntaxError');
  });
});

describe('original NuwaScript entry points', () => {
  it('executeScript resolves to the top-level scope with get and has', async () => {
    const scope = await quiet().executeScript('LET a = 1 LET b = { c: [2] } LET n = null');
    expect(scope.get('a')).toBe(1);
    expect(scope.get('b')).toEqual({ c: [2] });
    expect(scope.has('b')).toBe(true);
    expect(scope.has('n')).toBe(true);
    expect(scope.get('n')).toBeNull();
    expect(scope.has('missing')).toBe(false);
    expect(scope.get('missing')).toBeUndefined();
    expect(scope.has('toString')).toBe(false);
  });

  it('execute runs a parsed AST and resolves to its scope', async () => {
    const scope = await quiet().execute(parse('LET total = 0 FOR x IN [1, 2, 3] DO LET total = total + x END'));
    expect(scope.get('total')).toBe(6);
    expect(scope.has('x')).toBe(false);
  });

  it('executeScript rejects like run', async () => {
    const error = await failure(quiet().executeScript('LET a = nope'));
    expect(error.kind).toBe('UndefinedVariableError');
  });

  it('createToolRegistry returns a ToolRegistry usable by an Interpreter', async () => {
    const registry = createToolRegistry();
    expect(registry).toBeInstanceOf(ToolRegistry);
    registry.register(tool('one', () => 1));
    expect((await quiet(registry).run('LET x = CALL one {}')).variables).toEqual({ x: 1 });
  });
});

describe('sessions', () => {
  it('the interpreter uses the given session, else the registry default session', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('put', (args, context) => (context.setState('k', args.v as string), null)));
    const session = registry.createSession();
    expect(session).toBeInstanceOf(Session);
    await quiet(registry, { session }).run('CALL put { v: "mine" }');
    expect(session.getStateValue('k')).toBe('mine');
    expect(registry.hasState('k')).toBe(false);
    await quiet(registry).run('CALL put { v: "default" }');
    expect(registry.getStateValue('k')).toBe('default');
    expect(session.getStateValue('k')).toBe('mine');
  });

  it('state outlives a run: a second script builds on the first', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('incr', (_args, context) => {
      const next = ((context.getStateValue('n') as number | undefined) ?? 0) + 1;
      context.setState('n', next);
      return next;
    }));
    const interpreter = quiet(registry, { session: registry.createSession() });
    await interpreter.run('CALL incr {}');
    expect((await interpreter.run('LET n = CALL incr {}')).variables.n).toBe(2);
  });

  it('two interpreters on one registry with different sessions run concurrently without seeing each other’s state', async () => {
    const registry = new ToolRegistry();
    registry.register(
      tool('remember', async (args, context) => {
        const before = context.hasState('who');
        context.setState('who', args.name as string);
        await sleep(args.wait as number);
        return { before, after: context.getStateValue('who') ?? null, all: [...context.getAllState().keys()] };
      }),
    );
    const one = registry.createSession('one');
    const two = registry.createSession('two');
    const first = quiet(registry, { session: one });
    const second = quiet(registry, { session: two });
    const [a, b] = await Promise.all([
      first.run('LET r = CALL remember { name: "first", wait: 30 } LET again = CALL remember { name: "first-2", wait: 1 }'),
      second.run('LET r = CALL remember { name: "second", wait: 5 } LET again = CALL remember { name: "second-2", wait: 20 }'),
    ]);
    expect(a.variables.r).toEqual({ before: false, after: 'first', all: ['who'] });
    expect(a.variables.again).toEqual({ before: true, after: 'first-2', all: ['who'] });
    expect(b.variables.r).toEqual({ before: false, after: 'second', all: ['who'] });
    expect(b.variables.again).toEqual({ before: true, after: 'second-2', all: ['who'] });
    expect(one.getStateValue('who')).toBe('first-2');
    expect(two.getStateValue('who')).toBe('second-2');
    expect(registry.hasState('who')).toBe(false);
  });

  it('concurrent runs of one interpreter keep their own variables and output', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('wait', async (args) => (await sleep(args.ms as number), args.ms as number)));
    const interpreter = quiet(registry);
    const [a, b] = await Promise.all([
      interpreter.run('LET x = CALL wait { ms: 20 } PRINT(x)', { variables: { tag: 'a' } }),
      interpreter.run('LET x = CALL wait { ms: 1 } PRINT(x)', { variables: { tag: 'b' } }),
    ]);
    expect(a.variables).toEqual({ tag: 'a', x: 20 });
    expect(a.output).toEqual(['20']);
    expect(b.variables).toEqual({ tag: 'b', x: 1 });
    expect(b.output).toEqual(['1']);
  });
});
