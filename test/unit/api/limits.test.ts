// Unit tests for limits and cancellation (TOOLS.md §7, API.md `limits` and `signal`).
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, parse, type ToolContext, type ToolDefinition } from '../../../src/index.js';
import { failure, setup, tool } from '../../support/harness.js';

/** A tool that waits until its signal aborts (and records that it saw the abort). */
function waitingTool(name: string, seen: { aborted: boolean; context?: ToolContext }, extra: Partial<ToolDefinition> = {}, onStart?: () => void): ToolDefinition {
  return tool(
    name,
    (_args, context) => {
      seen.context = context;
      onStart?.();
      return new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          seen.aborted = true;
          resolve('aborted');
        });
      });
    },
    extra,
  );
}

describe('defaults', () => {
  it('are finite', () => {
    for (const key of ['maxSteps', 'maxToolCalls', 'timeoutMs', 'maxOutputBytes'] as const) {
      expect(Number.isFinite(DEFAULT_LIMITS[key])).toBe(true);
      expect(DEFAULT_LIMITS[key]).toBeGreaterThan(0);
    }
  });

  it('end an endless-looking loop written by a model (maxSteps by default)', async () => {
    const { interpreter } = setup([]);
    const big = Array.from({ length: 10_000 }, (_, i) => i);
    const error = await failure(interpreter.run('LET n = 0 FOR a IN big DO FOR b IN big DO LET n = n + 1 END END', { variables: { big } }));
    expect(error.kind).toBe('LimitExceededError');
  }, 20_000);
});

describe('maxSteps', () => {
  it('stops at the statement that exceeds it, naming the limit and its value', async () => {
    const { interpreter, printed } = setup([], { limits: { maxSteps: 2 } });
    const error = await failure(interpreter.run('LET a = 1\nLET b = 2\nLET c = 3\nPRINT("end")'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/maxSteps \(2\)/);
    expect([error.line, error.column]).toEqual([3, 1]);
    expect(error.variables).toEqual({ a: 1, b: 2 });
    expect(printed).toEqual([]);
  });

  it('counts loop iterations', async () => {
    const { interpreter } = setup([], { limits: { maxSteps: 5 } });
    await expect(interpreter.run('FOR x IN [1, 2] DO LET y = x END')).resolves.toMatchObject({ stats: { steps: 5 } });
    const error = await failure(interpreter.run('FOR x IN [1, 2, 3] DO LET y = x END'));
    expect(error.kind).toBe('LimitExceededError');
  });
});

describe('maxToolCalls', () => {
  it('stops at the call that exceeds it; the tool runs only as often as allowed', async () => {
    let calls = 0;
    const { interpreter } = setup([tool('t', () => ((calls += 1), calls))], { limits: { maxToolCalls: 2 } });
    const error = await failure(interpreter.run('LET a = CALL t {}\nLET b = CALL t {}\nLET c = CALL t {}'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/maxToolCalls \(2\)/);
    expect(error.line).toBe(3);
    expect(calls).toBe(2);
    expect(error.variables).toEqual({ a: 1, b: 2 });
  });

  it('is per run', async () => {
    const { interpreter } = setup([tool('t', () => 1)], { limits: { maxToolCalls: 1 } });
    await interpreter.run('CALL t {}');
    await expect(interpreter.run('CALL t {}')).resolves.toMatchObject({ stats: { toolCalls: 1 } });
  });

  it('a limit reached inside a tool leaves no unhandled promise rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const { interpreter } = setup([tool('inner', () => 1), tool('outer', async (_args, context) => context.callTool('inner', {}))], {
        limits: { maxToolCalls: 1 },
      });
      const error = await failure(interpreter.run('CALL outer {}'));
      expect(error.kind).toBe('LimitExceededError');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});

describe('maxOutputBytes', () => {
  it('stops at the PRINT that exceeds it, keeping what was printed before', async () => {
    const { interpreter, printed } = setup([], { limits: { maxOutputBytes: 12 } });
    const error = await failure(interpreter.run('PRINT("hello")\nPRINT("world")\nPRINT("again")\nLET after = 1'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/maxOutputBytes \(12 bytes\)/);
    expect(error.line).toBe(3);
    expect(printed).toEqual(['hello', 'world']);
    expect(error.variables).toEqual({});
  });

  it('counts UTF-8 bytes', async () => {
    const { interpreter } = setup([], { limits: { maxOutputBytes: 6 } });
    await expect(interpreter.run('PRINT("ééé")')).rejects.toMatchObject({ kind: 'LimitExceededError' });
    await expect(interpreter.run('PRINT("éé")')).resolves.toMatchObject({ output: ['éé'] });
  });
});

describe('maxSourceBytes', () => {
  it('refuses script text longer than it before parsing it, counting UTF-8 bytes', async () => {
    const { interpreter, printed } = setup([], { limits: { maxSourceBytes: 20 } });
    await interpreter.run('PRINT("é") // 20 by'); // 20 bytes: é is two
    expect(printed).toEqual(['é']);
    const error = await failure(interpreter.run('PRINT("é") // 21 byt'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toBe('the script is 21 bytes long, more than maxSourceBytes (20)');
    // Not parsed: text that would be a syntax error is refused the same way.
    expect((await failure(interpreter.run('this is not a script at all'))).kind).toBe('LimitExceededError');
    expect(printed).toEqual(['é']);
  });

  it('does not count a program parsed already, and is 4 MiB by default', async () => {
    const { interpreter, printed } = setup([], { limits: { maxSourceBytes: 5 } });
    await interpreter.run(parse('PRINT("parsed before")'));
    expect(printed).toEqual(['parsed before']);
    expect(DEFAULT_LIMITS.maxSourceBytes).toBe(4 * 1024 * 1024);
  });
});

describe('timeoutMs', () => {
  it('ends a synchronous loop over a big list with LimitExceededError naming the limit', async () => {
    const { interpreter } = setup([], { limits: { timeoutMs: 50, maxSteps: 1e12 } });
    const big = Array.from({ length: 20_000 }, (_, i) => i);
    // Parsed beforehand: parsing counts toward timeoutMs, and a first parse can take 50 ms on its own.
    const program = parse('LET n = 0\nFOR a IN big DO\n  FOR b IN big DO\n    LET n = n + 1\n  END\nEND');
    const started = Date.now();
    const error = await failure(interpreter.run(program, { variables: { big } }));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(50 ms\)/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(typeof error.line).toBe('number');
    expect((error.variables!.n as number) > 0).toBe(true);
  }, 20_000);

  it('ends a run waiting for a tool that never finishes, aborting its signal', async () => {
    const seen = { aborted: false };
    const { interpreter, printed } = setup([waitingTool('hang', seen)], { limits: { timeoutMs: 40 } });
    const error = await failure(interpreter.run('CALL hang {}\nPRINT("after")'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(40 ms\)/);
    expect(seen.aborted).toBe(true);
    expect(printed).toEqual([]);
  });
});

describe('timeoutMs while waiting for approval', () => {
  it('the run timeout also bounds a pending approval hook', async () => {
    let calls = 0;
    const { interpreter } = setup([tool('w', () => ((calls += 1), null), { confirm: 'write' })], {
      limits: { timeoutMs: 30 },
      approve: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 200)),
    });
    const started = Date.now();
    const error = await failure(interpreter.run('CALL w {}'));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(30 ms\)/);
    expect(calls).toBe(0);
    expect(elapsed).toBeLessThan(150);
  });
});

describe('per-tool timeoutMs', () => {
  it("raises LimitExceededError naming the tool and aborts the tool's signal", async () => {
    const seen: { aborted: boolean; context?: ToolContext } = { aborted: false };
    const { interpreter, printed } = setup([waitingTool('slow', seen, { timeoutMs: 30 })]);
    const started = Date.now();
    const error = await failure(interpreter.run('PRINT("before")\nCALL slow {}\nPRINT("after")'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/`slow`.*timeoutMs \(30 ms\)/);
    expect([error.line, error.column]).toEqual([2, 1]);
    expect(seen.aborted).toBe(true);
    expect(seen.context!.signal.aborted).toBe(true);
    expect(printed).toEqual(['before']);
  });

  it('does not affect a tool that finishes in time', async () => {
    const { interpreter } = setup([tool('quick', async () => 'ok', { timeoutMs: 1000 })]);
    expect((await interpreter.run('LET r = CALL quick {}')).variables.r).toBe('ok');
  });
});

describe('cancellation', () => {
  it('a signal aborted mid-run ends the run with AbortedError; statements after do not run', async () => {
    const controller = new AbortController();
    const seen = { aborted: false };
    const { interpreter, printed } = setup([waitingTool('wait', seen, {}, () => setTimeout(() => controller.abort(), 5))]);
    const error = await failure(interpreter.run('PRINT("before")\nLET r = CALL wait {}\nPRINT("after")', { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
    expect(seen.aborted).toBe(true);
    expect(printed).toEqual(['before']);
    expect(error.variables).toEqual({});
  });

  it('a signal aborted inside a synchronous tool stops the run right after it', async () => {
    const controller = new AbortController();
    let calls = 0;
    const { interpreter, printed } = setup([
      tool('stopper', () => {
        calls += 1;
        controller.abort('enough');
        return 'done';
      }),
    ]);
    const error = await failure(interpreter.run('CALL stopper {}\nPRINT("after")\nCALL stopper {}', { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
    expect(error.message).toMatch(/enough/);
    expect(printed).toEqual([]);
    expect(calls).toBe(1);
  });

  it('an already aborted signal runs nothing', async () => {
    let calls = 0;
    const { interpreter, printed } = setup([tool('t', () => ((calls += 1), null))]);
    const error = await failure(interpreter.run('PRINT("x") CALL t {}', { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('AbortedError');
    expect(printed).toEqual([]);
    expect(calls).toBe(0);
  });

  it('cancelling while the approval hook is still deciding ends the run promptly; the tool never runs', async () => {
    const controller = new AbortController();
    let calls = 0;
    let asked = 0;
    const { interpreter } = setup([tool('w', () => ((calls += 1), null), { confirm: 'write' })], {
      approve: () => {
        asked += 1;
        setTimeout(() => controller.abort(), 10);
        return new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 200));
      },
    });
    const started = Date.now();
    const error = await failure(interpreter.run('CALL w {}', { signal: controller.signal }));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('AbortedError');
    expect(asked).toBe(1);
    expect(calls).toBe(0);
    expect(elapsed).toBeLessThan(150);
  });

  it('a cancelled run does not affect the next run of the same interpreter', async () => {
    const { interpreter } = setup([tool('t', () => 1)]);
    await failure(interpreter.run('CALL t {}', { signal: AbortSignal.abort() }));
    expect((await interpreter.run('LET x = CALL t {}')).variables).toEqual({ x: 1 });
  });
});
