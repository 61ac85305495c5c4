// Foreign values never escape as foreign errors (issue 5.3): whatever a tool or a host's hook returns
// or throws — a Proxy whose traps throw, an Error whose message getter throws, a null-prototype object,
// a getter that answers differently on each read, a thenable whose `then` getter throws, a `toString`
// that throws — run() rejects only with NuwaErrors and emits script:failed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNuwaError, NuwaError } from '../../../src/errors.js';
import type { NuwaEvent } from '../../../src/events.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolDefinition } from '../../../src/tools/types.js';
import { describeThrown, textOf } from '../../../src/util/foreign.js';
import { setup, tool } from '../../support/harness.js';

/** A Proxy every one of whose traps throws `thrown`. */
function trapped(thrown: unknown = new Error('trap')): object {
  const fail = () => {
    throw thrown;
  };
  return new Proxy(function target() {}, {
    get: fail,
    set: fail,
    has: fail,
    ownKeys: fail,
    getOwnPropertyDescriptor: fail,
    getPrototypeOf: fail,
    defineProperty: fail,
    deleteProperty: fail,
    apply: fail,
    construct: fail,
    isExtensible: fail,
    preventExtensions: fail,
    setPrototypeOf: fail,
  });
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function errorWithThrowingMessage(): Error {
  const error = new Error('hidden');
  Object.defineProperty(error, 'message', {
    get() {
      throw trapped();
    },
  });
  return error;
}

function throwingToString(): object {
  return {
    toString() {
      throw new Error('toString');
    },
    toJSON() {
      throw new Error('toJSON');
    },
  };
}

function nullPrototype(): object {
  return Object.assign(Object.create(null) as object, { a: 1, nested: Object.create(null) as object });
}

function thenGetterThrows(): object {
  return {
    get then() {
      throw trapped();
    },
  };
}

/** Things a hostile tool may throw, return, or settle with. */
const HOSTILE: Record<string, () => unknown> = {
  'a Proxy whose traps throw': () => trapped(),
  'a Proxy whose traps throw a Proxy': () => trapped(trapped()),
  'a revoked Proxy': revoked,
  'an Error whose message getter throws': errorWithThrowingMessage,
  'a null-prototype object': nullPrototype,
  'an object whose toString and toJSON throw': throwingToString,
  'a thenable whose then getter throws': thenGetterThrows,
  'a symbol': () => Symbol('s'),
  'a BigInt': () => 10n,
  undefined: () => undefined,
  'a function with throwing properties': () => Object.defineProperty(() => {}, 'message', { get: () => { throw 1; } }),
};

const TOOL_KINDS = ['ToolExecutionError', 'ToolResultError'];

/** Runs `CALL t {}` with `execute`; returns what run() rejected with and the events seen. */
async function outcome(execute: ToolDefinition['execute'], returns: ToolDefinition['returns'] = 'any') {
  const events: NuwaEvent[] = [];
  const { interpreter } = setup([tool('t', execute, { returns })], { onEvent: (event) => void events.push(event) });
  try {
    const result = await interpreter.run('LET r = CALL t {}');
    return { ok: true as const, result, events };
  } catch (error) {
    return { ok: false as const, error, events };
  }
}

function expectNuwaFailure(settled: Awaited<ReturnType<typeof outcome>>, kinds = TOOL_KINDS) {
  expect(settled.ok).toBe(false);
  if (settled.ok) return;
  expect(isNuwaError(settled.error)).toBe(true);
  const error = settled.error as NuwaError;
  expect(kinds).toContain(error.kind);
  expect(typeof error.message).toBe('string');
  expect([error.line, error.column]).toEqual([1, 9]);
  expect(() => JSON.stringify(error)).not.toThrow();
  const failed = settled.events.find((event) => event.type === 'script:failed');
  expect(failed).toBeDefined();
}

describe('what a tool throws or returns', () => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    it(`thrown: ${name} → ToolExecutionError`, async () => {
      expectNuwaFailure(
        await outcome(() => {
          throw make();
        }),
        ['ToolExecutionError'],
      );
    });

    it(`rejected: ${name} → ToolExecutionError`, async () => {
      expectNuwaFailure(await outcome(() => Promise.reject(make())), ['ToolExecutionError']);
    });

    it(`returned or resolved: ${name} → a result or a Tool*Error`, async () => {
      for (const execute of [() => make(), async () => make()]) {
        const settled = await outcome(execute);
        if (settled.ok) expect(settled.result.variables.r).toBeDefined();
        else expectNuwaFailure(settled);
      }
    });
  }

  it('a null-prototype object is JSON: the script gets a copy of it', async () => {
    const settled = await outcome(() => nullPrototype());
    expect(settled.ok && settled.result.variables.r).toEqual({ a: 1, nested: {} });
  });

  it('the result check checks the very copy the script receives (a getter that answers differently)', async () => {
    let reads = 0;
    const shifty = () => ({
      get price() {
        return reads++ === 0 ? 'not a number' : 42;
      },
    });
    const returns = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };
    const settled = await outcome(shifty, returns);
    expectNuwaFailure(settled, ['ToolResultError']);
    expect(reads).toBe(1);
  });

  it('a thenable is read through one `then`, whatever its getter answers later', async () => {
    let reads = 0;
    const flaky = {
      get then() {
        reads++;
        return reads === 1 ? (resolve: (v: unknown) => void) => resolve('first') : 'not a function';
      },
    };
    const settled = await outcome(() => flaky);
    expect(settled.ok && settled.result.variables.r).toBe('first');
    expect(reads).toBe(1);
  });

  it('a thenable that resolves with a hostile value', async () => {
    expectNuwaFailure(await outcome(() => ({ then: (resolve: (v: unknown) => void) => resolve(trapped()) })), ['ToolResultError', 'ToolExecutionError']);
  });

  it('a NuwaError-looking Proxy thrown by a tool is not passed on as the run\'s error', async () => {
    const fake = new Proxy(new NuwaError('LimitExceededError', 'fake stop'), {
      get(target, key) {
        if (key === 'message') throw new Error('gotcha');
        return Reflect.get(target, key);
      },
    });
    const settled = await outcome(() => {
      throw fake;
    });
    expectNuwaFailure(settled, ['ToolExecutionError']);
    expect(settled.ok || settled.error).not.toBe(fake);
  });
});

describe("a host's hooks", () => {
  it('an approval hook that throws, returns or resolves something hostile denies the call', async () => {
    const hooks = [
      () => {
        throw trapped();
      },
      () => trapped(),
      () => thenGetterThrows(),
      async () => errorWithThrowingMessage(),
      () => Promise.reject(trapped()),
      () => {
        // a real promise whose `constructor` getter throws (Promise.resolve and then() read it)
        const answer = Promise.resolve(true);
        Object.defineProperty(answer, 'constructor', { get: () => { throw new Error('constructor'); } });
        return answer;
      },
    ];
    for (const approve of hooks) {
      const { interpreter } = setup([tool('write', () => 'done', { confirm: 'write' })], { approve: approve as never });
      const settled = await interpreter.run('CALL write {}').then(
        () => 'ran',
        (error: unknown) => error,
      );
      expect(isNuwaError(settled)).toBe(true);
      expect((settled as NuwaError).kind).toBe('ToolDeniedError');
    }
  });

  it('event listeners that throw or reject something hostile do not disturb the run', async () => {
    const warnings: string[] = [];
    for (const onEvent of [() => { throw trapped(); }, async () => { throw trapped(); }, () => thenGetterThrows()]) {
      const { interpreter } = setup([tool('t', () => 1)], { onEvent, logger: { warn: (m) => void warnings.push(m) } });
      await expect(interpreter.run('LET r = CALL t {}')).resolves.toMatchObject({ variables: { r: 1 } });
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) expect(warning).toMatch(/onEvent listener threw/);
  });

  it('a logger that throws does not fail the tool that logs', async () => {
    const logger = {
      info: () => {
        throw trapped();
      },
      warn: async () => {
        throw trapped();
      },
    };
    const { interpreter } = setup(
      [
        tool('chatty', (_args, context) => {
          context.logger.info('hello');
          context.logger.warn(trapped() as unknown as string);
          return 'done';
        }),
      ],
      { logger },
    );
    await expect(interpreter.run('LET r = CALL chatty {}')).resolves.toMatchObject({ variables: { r: 'done' } });
  });

  it('context.print with a hostile argument prints a text form, never throws a foreign error', async () => {
    const { interpreter, printed } = setup([
      tool('show', (_args, context) => {
        for (const make of Object.values(HOSTILE)) context.print(make() as string);
        return null;
      }),
    ]);
    await interpreter.run('CALL show {}');
    expect(printed).toHaveLength(Object.keys(HOSTILE).length);
    for (const line of printed) expect(typeof line).toBe('string');
  });

  it('a print hook that throws something hostile fails the run with a NuwaError', async () => {
    const { interpreter } = setup([], {
      print: () => {
        throw trapped();
      },
    });
    const error = await interpreter.run('PRINT("x")').catch((e: unknown) => e);
    expect(isNuwaError(error)).toBe(true);
  });

  it('state formatters that throw or return something hostile still give a prompt', () => {
    const registry = new ToolRegistry();
    registry.setState('a', 1, { description: 'throws', formatter: () => { throw trapped(); } });
    registry.setState('b', 2, { description: 'returns a Proxy', formatter: () => trapped() as unknown as string });
    const prompt = registry.formatStateForPrompt();
    expect(prompt).toMatch(/^a: 1 \(formatter failed: .*\) \(throws\)$/m);
    expect(prompt).toMatch(/^b: .* \(returns a Proxy\)$/m);
  });

  it('state metadata is kept as a frozen copy, read once', () => {
    const registry = new ToolRegistry();
    const metadata = { description: 'first' };
    registry.setState('k', 1, metadata);
    metadata.description = 'changed later';
    expect(registry.getStateMetadata('k')).toEqual({ description: 'first' });
    expect(Object.isFrozen(registry.getStateMetadata('k'))).toBe(true);
  });

  it('initial variables that are hostile are refused with a NuwaError', async () => {
    const interpreter = new Interpreter(new ToolRegistry(), { print: () => {} });
    for (const make of [trapped, revoked, throwingToString]) {
      const error = await interpreter.run('LET x = 1', { variables: { v: make() } }).catch((e: unknown) => e);
      expect(isNuwaError(error)).toBe(true);
      expect((error as NuwaError).kind).toBe('TypeError');
    }
  });

  it('a host signal aborted with a hostile reason cancels the run with AbortedError', async () => {
    const controller = new AbortController();
    controller.abort(trapped());
    const error = await new Interpreter(new ToolRegistry(), { print: () => {} }).run('LET x = 1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isNuwaError(error)).toBe(true);
    expect((error as NuwaError).kind).toBe('AbortedError');
  });
});

describe('the guarded helpers', () => {
  it('isNuwaError runs no trap and is false for a Proxy of a NuwaError', () => {
    expect(isNuwaError(new NuwaError('TypeError', 'x'))).toBe(true);
    expect(isNuwaError(trapped())).toBe(false);
    expect(isNuwaError(new Proxy(new NuwaError('TypeError', 'x'), {}))).toBe(false);
  });

  it('describeThrown and textOf never throw and always give a string', () => {
    for (const make of Object.values(HOSTILE)) {
      expect(typeof describeThrown(make())).toBe('string');
      expect(typeof textOf(make())).toBe('string');
    }
    expect(describeThrown(new Error('plain'))).toBe('plain');
    expect(describeThrown(new TypeError(''))).toBe('TypeError');
    expect(describeThrown('x'.repeat(10_000)).length).toBeLessThan(2_100);
  });
});

describe('property: arbitrary values, Proxies, getters and null-prototype objects returned or thrown by a tool', () => {
  // A value, or a hostile wrapper around one, built fresh for each run.
  const hostile: fc.Arbitrary<() => unknown> = fc.letrec<{ maker: () => unknown }>((tie) => ({
    maker: fc.oneof(
      { depthSize: 'small' },
      fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true }).map((value) => () => value),
      fc.constantFrom(...Object.values(HOSTILE)),
      tie('maker').map((inner) => () => trapped((inner as () => unknown)())),
      tie('maker').map((inner) => () => ({ then: (resolve: (value: unknown) => void) => resolve((inner as () => unknown)()) })),
      tie('maker').map((inner) => () => ({ then: (_: unknown, reject: (error: unknown) => void) => reject((inner as () => unknown)()) })),
      fc.tuple(tie('maker'), tie('maker')).map(([first, later]) => () => {
        let reads = 0;
        return {
          get value() {
            return reads++ === 0 ? (first as () => unknown)() : (later as () => unknown)();
          },
        };
      }),
      tie('maker').map((inner) => () => Object.assign(Object.create(null) as object, { inner: (inner as () => unknown)() })),
      tie('maker').map((inner) => () => [(inner as () => unknown)(), 1]),
    ),
  })).maker;
  const channel = fc.constantFrom('return', 'throw', 'resolve', 'reject');
  const returns = fc.constantFrom<ToolDefinition['returns']>('any', 'object', 'number', { type: 'object', properties: { value: { type: 'number' } } });

  it('the run ends in a result or a NuwaError, never anything else', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await fc.assert(
        fc.asyncProperty(hostile, channel, returns, async (make, how, declared) => {
          const registry = new ToolRegistry();
          registry.register(
            tool(
              't',
              () => {
                const value = make();
                if (how === 'throw') throw value;
                if (how === 'resolve') return Promise.resolve().then(() => value);
                if (how === 'reject') return Promise.resolve().then(() => Promise.reject(value));
                return value;
              },
              { returns: declared },
            ),
          );
          let failed = 0;
          const interpreter = new Interpreter(registry, {
            print: () => {},
            limits: { timeoutMs: 2_000 },
            onEvent: (event) => void (event.type === 'script:failed' && failed++),
          });
          try {
            await interpreter.run('LET r = CALL t {}\nPRINT(r)');
          } catch (error) {
            if (!isNuwaError(error)) throw new Error(`run() rejected with something that is not a NuwaError: ${describeThrown(error)}`);
            expect(failed).toBe(1);
          }
        }),
        { numRuns: 300 },
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('property: registry.execute never throws or rejects, whatever call object it is handed (TOOLS.md §5)', () => {
  const registry = new ToolRegistry();
  registry.register(tool('t', ({ x }) => x ?? null, { parameters: [{ name: 'x', description: 'x', type: 'any', required: false }] }));

  /** Anything, or a hostile wrapper around it: a Proxy whose traps throw, a revoked Proxy, a getter that throws or changes. */
  const part: fc.Arbitrary<() => unknown> = fc.oneof(
    fc.anything({ withBigInt: true, withMap: true, withDate: true, withNullPrototype: true }).map((value) => () => value),
    fc.constantFrom('t', '', 'nope', 'T'.repeat(10_000)).map((value) => () => value),
    fc.constantFrom(...Object.values(HOSTILE)),
    fc.constant(() => Symbol('s')),
    fc.constant(() => 10n),
    fc.constant(() => () => 't'),
  );
  /** A member of the call object: a value, a getter that throws, or a getter whose answer changes between reads. */
  const member = fc.oneof(
    part.map((make) => ({ kind: 'value' as const, make })),
    fc.constant({ kind: 'throws' as const, make: () => trapped() }),
    fc.tuple(part, part).map(([first, later]) => ({ kind: 'changes' as const, make: first, later })),
  );
  function define(target: object, key: string, spec: { kind: 'value' | 'throws' | 'changes'; make: () => unknown; later?: () => unknown }): void {
    if (spec.kind === 'value') {
      Object.defineProperty(target, key, { value: spec.make(), enumerable: true });
      return;
    }
    let reads = 0;
    Object.defineProperty(target, key, {
      enumerable: true,
      get() {
        if (spec.kind === 'throws') throw spec.make();
        return reads++ === 0 ? spec.make() : spec.later!();
      },
    });
  }
  const call: fc.Arbitrary<() => unknown> = fc.oneof(
    part,
    fc.tuple(member, member).map(([name, args]) => () => {
      const object = {};
      define(object, 'name', name);
      define(object, 'arguments', args);
      return object;
    }),
    fc.tuple(member, member).map(([name, args]) => () => {
      const object = {};
      define(object, 'name', name);
      define(object, 'arguments', args);
      const fail = (): never => {
        throw trapped();
      };
      return new Proxy(object, { getPrototypeOf: fail, has: fail, ownKeys: fail });
    }),
  );
  const options = fc.oneof(fc.constant(() => undefined), part, member.map((spec) => () => {
    const object = {};
    define(object, 'timeoutMs', spec);
    define(object, 'signal', spec);
    return object;
  }));

  it('resolves to a ToolResult, for call objects and for (name, input) pairs', async () => {
    await fc.assert(
      fc.asyncProperty(call, options, part, async (makeCall, makeOptions, makeInput) => {
        for (const attempt of [() => registry.execute(makeCall() as never, makeOptions() as never), () => registry.execute(makeCall() as never, makeInput(), makeOptions() as never)]) {
          let promise: Promise<unknown>;
          try {
            promise = attempt();
          } catch (error) {
            throw new Error(`execute threw: ${describeThrown(error)}`);
          }
          const result = (await promise.catch((error: unknown) => {
            throw new Error(`execute rejected: ${describeThrown(error)}`);
          })) as { success: unknown; error?: unknown; metadata: { toolName: unknown } };
          expect(typeof result.success).toBe('boolean');
          expect(typeof result.metadata.toolName).toBe('string');
          if (result.success === false) expect(typeof result.error).toBe('string');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a name getter that throws is a failed result naming the problem', async () => {
    const result = await registry.execute({
      get name(): string {
        throw new Error('no name');
      },
    });
    expect(result).toMatchObject({ success: false, code: 'TypeError', error: "reading the function call's name threw: no name" });
  });

  it('a name read once: a getter that answers "t" first and something else later runs t', async () => {
    let reads = 0;
    const result = await registry.execute({
      get name() {
        return reads++ === 0 ? 't' : (trapped() as never);
      },
      arguments: { x: 1 },
    });
    expect(result).toMatchObject({ success: true, data: 1 });
    expect(reads).toBe(1);
  });
});
