// Unit tests for src/tools/invoke.ts, through Interpreter runs with small registries: what happens
// before a tool runs (TOOLS.md §2) and after it returns or throws (§3).
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import type { NuwaEvent } from '../../../src/events.js';
import type { JsonObject } from '../../../src/values/json.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import type { InterpreterOptions, RunOptions, RunResult } from '../../../src/api/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolDefinition } from '../../../src/tools/types.js';
import { failure, tool } from '../../support/harness.js';

function setup(tools: ToolDefinition[], options: InterpreterOptions = {}) {
  const registry = new ToolRegistry();
  for (const definition of tools) registry.register(definition);
  const printed: string[] = [];
  const events: NuwaEvent[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), onEvent: (event) => events.push(event), ...options });
  const run = (source: string, runOptions?: RunOptions): Promise<RunResult> => interpreter.run(source, runOptions);
  return { registry, interpreter, printed, events, run };
}

const priceTool = tool('get_price', (args) => ({ sku: args.sku, price: 9.5 }), {
  parameters: [
    { name: 'sku', description: 'the product', type: 'string' },
    { name: 'qty', description: 'how many', type: 'number', required: false },
  ],
  returns: 'object',
});

describe('ToolNotFoundError', () => {
  it('names the closest registered tool and the CALL position', async () => {
    const { run } = setup([priceTool, tool('set_price', () => null)]);
    const error = await failure(run('LET a = 1\n  LET p = CALL get_prise { sku: "A" }'));
    expect(error.kind).toBe('ToolNotFoundError');
    expect(error.message).toMatch(/^there is no tool `get_prise`: did you mean `get_price`/);
    expect(error.toolName).toBe('get_prise');
    expect([error.line, error.column]).toEqual([2, 11]);
    expect(error.variables).toEqual({ a: 1 });
  });

  it('says when no tools are registered', async () => {
    const { run } = setup([]);
    const error = await failure(run('CALL anything {}'));
    expect(error.kind).toBe('ToolNotFoundError');
    expect(error.message).toMatch(/no tools are registered/);
  });

  it('is case-sensitive', async () => {
    const { run } = setup([priceTool]);
    const error = await failure(run('CALL Get_Price { sku: "A" }'));
    expect(error.kind).toBe('ToolNotFoundError');
    expect(error.message).toMatch(/did you mean `get_price`/);
  });
});

describe('ToolArgumentError', () => {
  it('carries every problem with its path, at the CALL position, and the tool never runs', async () => {
    let invoked = 0;
    const counting = { ...priceTool, execute: () => ((invoked += 1), {}) };
    const { run } = setup([counting]);
    const error = await failure(run('LET x = 1\nPRINT(CALL get_price { sku: ["A"], qty: "many", colour: "red" })'));
    expect(error.kind).toBe('ToolArgumentError');
    expect(error.toolName).toBe('get_price');
    expect([error.line, error.column]).toEqual([2, 7]);
    expect(error.problems!.map((problem) => problem.path).sort()).toEqual(['colour', 'qty', 'sku']);
    expect(error.message).toMatch(/^invalid arguments for tool `get_price`: /);
    expect(error.message).toMatch(/unknown argument `colour`.*accepted arguments: sku, qty/);
    expect(invoked).toBe(0);
  });

  it('reports a missing required argument and a required argument given null', async () => {
    const { run } = setup([tool('pair', () => null, { parameters: [{ name: 'a', description: 'a', type: 'string' }, { name: 'b', description: 'b', type: 'string' }] })]);
    const error = await failure(run('CALL pair { a: null }'));
    expect(error.problems).toEqual([
      { path: 'a', message: 'missing required argument `a` (null was given)' },
      { path: 'b', message: 'missing required argument `b` (string: b)' },
    ]);
  });

  it('reports nested paths from a JSON Schema', async () => {
    const order = tool('order', () => null, {
      parameters: {
        type: 'object',
        properties: { items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } } },
        required: ['items'],
      },
    });
    const { run } = setup([order]);
    const error = await failure(run('CALL order { items: [{ qty: 1 }, { qty: "two" }] }'));
    expect(error.problems!.map((problem) => problem.path)).toEqual(['items[1].qty']);
    expect(error.problems![0]!.message).toBe('`items[1].qty`: expected integer, received string "two"');
  });

  it('hands the tool coerced arguments and defaults', async () => {
    let received: JsonObject | undefined;
    const { run } = setup([
      tool('t', (args) => ((received = args), null), {
        parameters: { type: 'object', properties: { n: { type: 'number' }, flag: { type: 'boolean' }, s: { type: 'string' }, limit: { type: 'integer', default: 5 } } },
      }),
    ]);
    await run('CALL t { n: "42", flag: "false", s: 7 }');
    expect(received).toEqual({ n: 42, flag: false, s: '7', limit: 5 });
  });
});

describe('ToolExecutionError', () => {
  it('carries the original Error as cause, the tool name, the message and the CALL position', async () => {
    const original = new RangeError('kaboom');
    const { run } = setup([
      tool('explode', () => {
        throw original;
      }),
    ]);
    const error = await failure(run('LET a = 1\nLET b = CALL explode {}\nLET c = 3', { fileName: 'plan.nuwa' }));
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.cause).toBe(original);
    expect(error.toolName).toBe('explode');
    expect(error.message).toBe('tool `explode` failed: kaboom');
    expect([error.line, error.column, error.fileName]).toEqual([2, 9, 'plan.nuwa']);
    expect(error.variables).toEqual({ a: 1 });
  });

  it('wraps a rejected promise the same way', async () => {
    const original = new Error('async kaboom');
    const { run } = setup([tool('explode', async () => Promise.reject(original))]);
    const error = await failure(run('CALL explode {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.cause).toBe(original);
    expect(error.message).toMatch(/async kaboom/);
    expect([error.line, error.column]).toEqual([1, 1]);
  });

  it('wraps a thrown string', async () => {
    const { run } = setup([
      tool('explode', () => {
        throw 'plain text failure';
      }),
    ]);
    const error = await failure(run('CALL explode {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toBe('tool `explode` failed: plain text failure');
    expect(error.cause).toBe('plain text failure');
  });

  it('wraps a thrown non-Error object', async () => {
    const thrown = { code: 42 };
    const { run } = setup([
      tool('explode', () => {
        throw thrown;
      }),
    ]);
    const error = await failure(run('CALL explode {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/42/);
    expect(error.cause).toBe(thrown);
  });

  it('stops the script: statements after the CALL do not run', async () => {
    const { run, printed } = setup([
      tool('explode', () => {
        throw new Error('x');
      }),
    ]);
    await failure(run('PRINT("before")\nCALL explode {}\nPRINT("after")'));
    expect(printed).toEqual(['before']);
  });
});

describe('ToolResultError and result conversion', () => {
  function deep(levels: number): unknown {
    let value: unknown = 0;
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  }
  const cycle = (): unknown => {
    const o: Record<string, unknown> = { a: 1 };
    o.self = o;
    return o;
  };
  class Money {
    amount = 1;
  }

  it.each([
    ['a Date', () => new Date(0), /Date/],
    ['a Map', () => new Map([['a', 1]]), /Map/],
    ['a class instance', () => new Money(), /Money/],
    ['NaN', () => Number.NaN, /NaN/],
    ['Infinity', () => Number.POSITIVE_INFINITY, /Infinity/],
    ['-Infinity inside a list', () => [1, Number.NEGATIVE_INFINITY], /\[1\].*Infinity/],
    ['a BigInt', () => 12n, /BigInt/],
    ['a function', () => () => 1, /function/],
    ['a nested function', () => ({ f: () => 1 }), /f.*function/],
    ['a symbol', () => Symbol('s'), /symbol/],
    ['a cycle', cycle, /cycle/],
    ['nesting 1,001 levels deep', () => deep(1001), /deeper than 1000/],
  ])('refuses %s with ToolResultError at the CALL position', async (_label, make, message) => {
    const { run, events } = setup([tool('bad', () => make())]);
    const error = await failure(run('LET ok = 1\nLET r = CALL bad {}'));
    expect(error.kind).toBe('ToolResultError');
    expect(error.toolName).toBe('bad');
    expect(error.message).toMatch(/^tool `bad` returned something that is not JSON: /);
    expect(error.message).toMatch(message);
    expect([error.line, error.column]).toEqual([2, 9]);
    expect(events.filter((event) => event.type === 'tool:failed')).toHaveLength(1);
  });

  it('refuses a non-JSON value from a resolved promise too', async () => {
    const { run } = setup([tool('bad', async () => new Date())]);
    expect((await failure(run('CALL bad {}'))).kind).toBe('ToolResultError');
  });

  it('accepts a value nested exactly 1,000 levels deep', async () => {
    const { run } = setup([tool('deep', () => deep(1000))]);
    const result = await run('LET r = CALL deep {} LET t = TYPE(r)');
    expect(result.variables.t).toBe('list');
  });

  it('refuses a result of the wrong declared type, stating expected versus received', async () => {
    const { run } = setup([tool('count', () => 'seven', { returns: 'number' })]);
    const error = await failure(run('LET n = CALL count {}'));
    expect(error.kind).toBe('ToolResultError');
    expect(error.message).toBe('tool `count` returned the wrong type: expected number, received string "seven"');
  });

  it('tells a list from an object when checking a declared list or object type', async () => {
    const { run } = setup([
      tool('listed', () => [1, 2], { returns: 'object' }),
      tool('keyed', () => ({ a: 1 }), { returns: 'array' }),
      tool('both', () => [{ a: 1 }], { returns: 'array' }),
      tool('one', () => ({ a: [1] }), { returns: 'object' }),
    ]);
    await expect(failure(run('LET n = CALL listed {}'))).resolves.toMatchObject({ kind: 'ToolResultError', message: 'tool `listed` returned the wrong type: expected object, received list of 2 items' });
    await expect(failure(run('LET n = CALL keyed {}'))).resolves.toMatchObject({ kind: 'ToolResultError', message: 'tool `keyed` returned the wrong type: expected list, received object with keys a' });
    expect((await run('LET b = CALL both {}\nLET o = CALL one {}')).variables).toEqual({ b: [{ a: 1 }], o: { a: [1] } });
  });

  it('checks a JSON Schema returns deeply', async () => {
    const { run } = setup([tool('user', () => ({ id: 'x' }), { returns: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } })]);
    const error = await failure(run('LET u = CALL user {}'));
    expect(error.kind).toBe('ToolResultError');
    expect(error.message).toMatch(/expected object.*id must be integer/);
  });

  it('turns undefined into null (sync and async), which returns any and null accept', async () => {
    const { run } = setup([
      tool('nothing', () => undefined),
      tool('later', async () => undefined),
      tool('typed', () => undefined, { returns: 'null' }),
    ]);
    const result = await run('LET a = CALL nothing {} LET b = CALL later {} LET c = CALL typed {}');
    expect(result.variables).toEqual({ a: null, b: null, c: null });
  });

  it('drops undefined properties and keeps JSON values intact', async () => {
    const { run } = setup([tool('v', () => ({ a: 1, gone: undefined, l: [true, null, 'x', { z: 2.5 }] }))]);
    const result = await run('LET v = CALL v {}');
    expect(result.variables.v).toEqual({ a: 1, l: [true, null, 'x', { z: 2.5 }] });
    expect(Object.keys(result.variables.v as object)).toEqual(['a', 'l']);
  });

  it('awaits a returned promise', async () => {
    const { run } = setup([tool('slow', () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 10)))]);
    expect((await run('LET r = CALL slow {}')).variables.r).toEqual({ done: true });
  });
});

describe('copies at the tool boundary', () => {
  it('the tool gets its own deep copy of the arguments', async () => {
    const { run } = setup([
      tool('mutate', (args) => {
        const o = args.o as { a: number[]; b?: number };
        o.a.push(99);
        o.b = 1;
        (args.list as number[]).length = 0;
        return null;
      }),
    ]);
    const result = await run('LET o = { a: [1] } LET list = [1, 2] CALL mutate { o: o, list: list } LET seen = o.a');
    expect(result.variables).toEqual({ o: { a: [1] }, list: [1, 2], seen: [1] });
  });

  it('a tool mutating its arguments later does not change the script', async () => {
    let kept: JsonObject | undefined;
    const { run } = setup([
      tool('keep', (args) => ((kept = args), null)),
      tool('poke', () => {
        (kept!.o as { n: number[] }).n.push(2);
        return null;
      }),
    ]);
    const result = await run('LET o = { n: [1] } CALL keep { o: o } CALL poke {} LET after = o.n');
    expect(result.variables.after).toEqual([1]);
  });

  it('results are copies: a tool returning a shared object it later mutates does not change script values', async () => {
    const shared = { n: [1], label: 'first' };
    const { run } = setup([
      tool('get', () => shared),
      tool('mutate', () => {
        shared.n.push(2);
        shared.label = 'changed';
        return null;
      }),
    ]);
    const result = await run('LET r = CALL get {} CALL mutate {} LET n = r.n LET label = r.label');
    expect(result.variables).toEqual({ r: { n: [1], label: 'first' }, n: [1], label: 'first' });
    expect(shared).toEqual({ n: [1, 2], label: 'changed' });
  });

  it('__proto__ is an ordinary key in both directions', async () => {
    let received: JsonObject | undefined;
    const { run } = setup([
      tool('echo', (args) => {
        received = args;
        return JSON.parse('{"__proto__": {"x": 1}, "a": 2}');
      }),
    ]);
    const result = await run('LET r = CALL echo { "__proto__": 5, b: 1 } LET k = KEYS(r) LET x = r["__proto__"].x');
    expect(Object.hasOwn(received!, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(received!, '__proto__')?.value).toBe(5);
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(result.variables.k).toEqual(['__proto__', 'a']);
    expect(result.variables.x).toBe(1);
  });

  it('the approval hook gets a copy of the arguments', async () => {
    const { run } = setup([tool('w', (args) => args, { confirm: 'write' })], {
      approve: (request) => {
        (request.args.list as number[]).push(99);
        return true;
      },
    });
    const result = await run('LET r = CALL w { list: [1] }');
    expect(result.variables.r).toEqual({ list: [1] });
  });
});
