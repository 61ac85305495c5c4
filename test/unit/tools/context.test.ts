// Unit tests for src/tools/context.ts: the ToolContext a tool receives during a run (TOOLS.md §4).
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import type { JsonValue } from '../../../src/values/json.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext, ToolFunction } from '../../../src/tools/types.js';
import { failure, setup, tool } from '../../support/harness.js';

const sandboxes: string[] = [];
afterAll(() => {
  for (const dir of sandboxes) rmSync(dir, { recursive: true, force: true });
});

describe('facts about the call', () => {
  it('toolName is the called tool, and executionId is unique per call', async () => {
    const seen: Array<{ toolName: string; executionId: string }> = [];
    const record: ToolFunction = (_args, context) => {
      seen.push({ toolName: context.toolName, executionId: context.executionId });
      return null;
    };
    const { interpreter } = setup([tool('first', record), tool('second', record)]);
    await interpreter.run('FOR i IN [1, 2, 3] DO CALL first {} END CALL second {}');
    await interpreter.run('CALL first {}');
    expect(seen.map((s) => s.toolName)).toEqual(['first', 'first', 'first', 'second', 'first']);
    const ids = seen.map((s) => s.executionId);
    for (const id of ids) expect(typeof id === 'string' && id.length > 0).toBe(true);
    expect(new Set(ids).size).toBe(5);
  });

  it("sessionId is the id of the interpreter's session", async () => {
    const ids: string[] = [];
    const registry = new ToolRegistry();
    registry.register(tool('who', (_args, context) => (ids.push(context.sessionId), null)));
    const session = registry.createSession('session-42');
    await new Interpreter(registry, { session, print: () => {} }).run('CALL who {}');
    await new Interpreter(registry, { print: () => {} }).run('CALL who {}');
    expect(ids).toEqual(['session-42', registry.defaultSession.id]);
  });

  it("the state methods act on the interpreter's session", async () => {
    const registry = new ToolRegistry();
    registry.register(
      tool('remember', (args, context) => {
        const count = (context.getStateValue('count') as number | undefined) ?? 0;
        context.setState('count', count + 1, { description: 'calls so far' });
        context.setState('last', args.v as JsonValue);
        return context.hasState('count');
      }),
    );
    const session = registry.createSession();
    const interpreter = new Interpreter(registry, { session, print: () => {} });
    await interpreter.run('CALL remember { v: 1 }');
    await interpreter.run('CALL remember { v: [2] }');
    expect(session.getStateValue('count')).toBe(2);
    expect(session.getStateValue('last')).toEqual([2]);
    expect(session.getStateMetadata('count')).toEqual({ description: 'calls so far' });
    expect(registry.hasState('count')).toBe(false);
  });

  it('a tool cannot change stored state except through setState', async () => {
    const { interpreter, registry } = setup([
      tool('sneak', (_args, context) => {
        (context.getStateValue('list') as number[]).push(2);
        (context.getAllState().get('list') as number[]).push(3);
        return null;
      }),
    ]);
    registry.setState('list', [1]);
    await interpreter.run('CALL sneak {}');
    expect(registry.getStateValue('list')).toEqual([1]);
  });
});

describe('signal', () => {
  it('is not aborted while the call runs normally', async () => {
    let aborted: boolean | undefined;
    const { interpreter } = setup([tool('t', (_args, context) => ((aborted = context.signal.aborted), null))]);
    await interpreter.run('CALL t {}');
    expect(aborted).toBe(false);
  });

  it('is aborted when the run is cancelled: a tool awaiting it sees the abort', async () => {
    const controller = new AbortController();
    let context: ToolContext | undefined;
    let sawAbort = false;
    const { interpreter, printed } = setup([
      tool('wait', (_args, ctx) => {
        context = ctx;
        return new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve('stopped');
          });
          setTimeout(() => controller.abort(), 5);
        });
      }),
    ]);
    const error = await failure(interpreter.run('CALL wait {}\nPRINT("after")', { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
    expect(sawAbort).toBe(true);
    expect(context!.signal.aborted).toBe(true);
    expect(printed).toEqual([]);
  });
});

describe('logger', () => {
  it("routes to the Interpreter's logger option, tagged with the tool name", async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const { interpreter } = setup(
      [
        tool('chatty', (_args, context) => {
          context.logger.debug('d-msg');
          context.logger.info('i-msg', { k: 1 });
          context.logger.warn('w-msg');
          context.logger.error('e-msg', 'meta');
          return null;
        }),
      ],
      { logger },
    );
    await interpreter.run('CALL chatty {}');
    for (const [level, text] of [
      ['debug', 'd-msg'],
      ['info', 'i-msg'],
      ['warn', 'w-msg'],
      ['error', 'e-msg'],
    ] as const) {
      expect(logger[level]).toHaveBeenCalledTimes(1);
      const message = logger[level].mock.calls[0]![0] as string;
      expect(message).toContain(text);
      expect(message).toContain('chatty');
    }
    expect(logger.info.mock.calls[0]![1]).toEqual({ k: 1 });
    expect(logger.error.mock.calls[0]![1]).toBe('meta');
  });
});

describe('print', () => {
  it('goes to the same output as PRINT, in order', async () => {
    const lines: string[] = [];
    const { interpreter } = setup([tool('say', (args, context) => (context.print(`tool says ${String(args.n)}`), null))], { print: (line) => lines.push(line) });
    const result = await interpreter.run('PRINT("a")\nCALL say { n: 1 }\nPRINT("b")\nCALL say { n: 2 }');
    expect(lines).toEqual(['a', 'tool says 1', 'b', 'tool says 2']);
    expect(result.output).toEqual(lines);
  });

  it('counts toward maxOutputBytes', async () => {
    const { interpreter } = setup([tool('say', (_args, context) => (context.print('x'.repeat(20)), null))], { limits: { maxOutputBytes: 30 } });
    const error = await failure(interpreter.run('PRINT("0123456789")\nCALL say {}'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/maxOutputBytes \(30/);
  });
});

describe('callTool', () => {
  it('calls another tool and returns plain JSON', async () => {
    const { interpreter } = setup([
      tool('inner', (args) => ({ doubled: (args.n as number) * 2, list: [1] }), { parameters: [{ name: 'n', description: 'n', type: 'number' }] }),
      tool('outer', async (_args, context) => {
        const result = (await context.callTool('inner', { n: '21' })) as { doubled: number; list: number[] };
        return { got: result, isPlain: Object.getPrototypeOf(result) === Object.prototype && Array.isArray(result.list) };
      }),
    ]);
    const result = await interpreter.run('LET r = CALL outer {}');
    expect(result.variables.r).toEqual({ got: { doubled: 42, list: [1] }, isPlain: true });
  });

  it('applies the same argument checks', async () => {
    let innerCalls = 0;
    const { interpreter } = setup([
      tool('inner', () => ((innerCalls += 1), null), { parameters: [{ name: 'n', description: 'n', type: 'number' }] }),
      tool('outer', async (_args, context) => {
        try {
          await context.callTool('inner', { n: 'abc', extra: 1 });
          return 'no error';
        } catch (error) {
          const e = error as NuwaError;
          return { kind: e.kind, paths: (e.problems ?? []).map((p) => p.path).sort() };
        }
      }),
    ]);
    const result = await interpreter.run('LET r = CALL outer {}');
    expect(result.variables.r).toEqual({ kind: 'ToolArgumentError', paths: ['extra', 'n'] });
    expect(innerCalls).toBe(0);
  });

  it('applies the approval policy: denied without a hook', async () => {
    let innerCalls = 0;
    const { interpreter } = setup([
      tool('inner', () => ((innerCalls += 1), null), { confirm: 'destructive' }),
      tool('outer', async (_args, context) => {
        try {
          await context.callTool('inner', {});
          return 'ran';
        } catch (error) {
          return (error as NuwaError).kind;
        }
      }),
    ]);
    expect((await interpreter.run('LET r = CALL outer {}')).variables.r).toBe('ToolDeniedError');
    expect(innerCalls).toBe(0);
  });

  it('applies the approval policy: the hook is asked about the inner call', async () => {
    const approve = vi.fn(() => true);
    const { interpreter } = setup(
      [tool('inner', () => 'done', { confirm: 'write', category: 'file' }), tool('outer', (_args, context) => context.callTool('inner', { path: 'x' }))],
      { approve },
    );
    expect((await interpreter.run('LET r = CALL outer {}')).variables.r).toBe('done');
    expect(approve).toHaveBeenCalledTimes(1);
    // A nested call's identity: its parent's, then the order the tool started its calls in.
    expect(approve).toHaveBeenCalledWith({ toolName: 'inner', confirm: 'write', category: 'file', args: { path: 'x' }, callId: '1:9>0' });
  });

  it('counts toward maxToolCalls', async () => {
    let innerError: string | undefined;
    const { interpreter } = setup(
      [
        tool('inner', () => 1),
        tool('outer', async (_args, context) => {
          try {
            return await context.callTool('inner', {});
          } catch (error) {
            innerError = (error as NuwaError).kind;
            return null;
          }
        }),
      ],
      { limits: { maxToolCalls: 1 } },
    );
    const error = await failure(interpreter.run('CALL outer {}'));
    expect(innerError).toBe('LimitExceededError');
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/maxToolCalls \(1\)/);
  });

  it('gives an unknown name ToolNotFoundError', async () => {
    const { interpreter } = setup([
      tool('outer', async (_args, context) => {
        try {
          await context.callTool('missing_tool', {});
          return 'ran';
        } catch (error) {
          return (error as NuwaError).kind;
        }
      }),
    ]);
    expect((await interpreter.run('LET r = CALL outer {}')).variables.r).toBe('ToolNotFoundError');
  });
});

describe('getVar and setVar', () => {
  it('see the scope of the CALL, including loop variables, with LET semantics', async () => {
    const seen: Array<Record<string, JsonValue | undefined>> = [];
    const { interpreter } = setup([
      tool('probe', (_args, context) => {
        const item = context.getVar('item') as number;
        seen.push({ item, local: context.getVar('local'), total: context.getVar('total'), nope: context.getVar('nope') });
        context.setVar('total', (context.getVar('total') as number) + item); // updates the outer binding
        context.setVar('fresh', item); // new: lives in this iteration's scope only
        return null;
      }),
    ]);
    const result = await interpreter.run(`
LET total = 0
FOR item IN [1, 2] DO
  LET local = item * 10
  CALL probe {}
  LET check = fresh
END`);
    expect(seen).toEqual([
      { item: 1, local: 10, total: 0, nope: undefined },
      { item: 2, local: 20, total: 1, nope: undefined },
    ]);
    expect(result.variables).toEqual({ total: 3 });
  });

  it('setVar at the top level creates a variable the rest of the script can read', async () => {
    const { interpreter, printed } = setup([tool('make', (_args, context) => (context.setVar('made', { a: [1] }), null))]);
    const result = await interpreter.run('CALL make {}\nPRINT(made.a)');
    expect(printed).toEqual(['[1]']);
    expect(result.variables).toEqual({ made: { a: [1] } });
  });

  it('setVar of the loop variable changes it for the rest of the iteration only', async () => {
    const { interpreter, printed } = setup([tool('bump', (_args, context) => (context.setVar('x', (context.getVar('x') as number) + 100), null))]);
    const result = await interpreter.run('LET x = "outer"\nFOR x IN [1, 2] DO CALL bump {} PRINT(x) END\nPRINT(x)');
    expect(printed).toEqual(['101', '102', 'outer']);
    expect(result.variables).toEqual({ x: 'outer' });
  });

  it('getVar returns a copy, and setVar stores one', async () => {
    let kept: { list: number[] } | undefined;
    const { interpreter } = setup([
      tool('touch', (_args, context) => {
        (context.getVar('o') as { list: number[] }).list.push(2);
        kept = { list: [7] };
        context.setVar('p', kept);
        return null;
      }),
      tool('later', () => (kept!.list.push(8), null)),
    ]);
    const result = await interpreter.run('LET o = { list: [1] } CALL touch {} CALL later {}');
    expect(result.variables).toEqual({ o: { list: [1] }, p: { list: [7] } });
  });

  it('setVar refuses a value that is not JSON and a bad name', async () => {
    const outcomes: string[] = [];
    const { interpreter } = setup([
      tool('bad', (_args, context) => {
        for (const attempt of [() => context.setVar('d', new Date() as never), () => context.setVar('not valid', 1)]) {
          try {
            attempt();
            outcomes.push('stored');
          } catch (error) {
            outcomes.push((error as Error).constructor.name);
          }
        }
        return null;
      }),
    ]);
    const result = await interpreter.run('CALL bad {}');
    expect(outcomes).toEqual(['TypeError', 'TypeError']);
    expect(result.variables).toEqual({});
  });

  it('the script sees the CALL result assigned after setVar of the same name', async () => {
    const { interpreter } = setup([tool('t', (_args, context) => (context.setVar('r', 'from setVar'), 'from result'))]);
    expect((await interpreter.run('LET r = CALL t {}')).variables.r).toBe('from result');
  });
});

describe('sandboxDir and resolvePath', () => {
  it('use the Interpreter sandboxDir option', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'nuwa-ctx-test-')));
    sandboxes.push(dir);
    const { interpreter } = setup(
      [
        tool('write', (args, context) => {
          const file = context.resolvePath(args.name as string);
          writeFileSync(file, 'hello');
          return { dir: context.sandboxDir, file };
        }),
      ],
      { sandboxDir: dir },
    );
    const result = await interpreter.run('LET r = CALL write { name: "out.txt" }');
    expect(result.variables.r).toEqual({ dir, file: path.join(dir, 'out.txt') });
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hello');
  });

  it('resolvePath throws on an escape, which the script sees as ToolExecutionError', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'nuwa-ctx-test-')));
    sandboxes.push(dir);
    const { interpreter } = setup([tool('escape', (_args, context) => context.resolvePath('../../etc/passwd'))], { sandboxDir: dir });
    const error = await failure(interpreter.run('CALL escape {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/outside the sandbox directory/);
  });

  it('without the option, sandboxDir is a private temporary directory', async () => {
    let dir = '';
    const { interpreter } = setup([tool('where', (_args, context) => ((dir = context.sandboxDir), null))]);
    await interpreter.run('CALL where {}');
    sandboxes.push(dir);
    expect(path.basename(dir)).toMatch(/^nuwa-sandbox-/);
    expect(path.dirname(dir)).toBe(path.resolve(tmpdir()));
  });
});

describe('a context kept after its run (issue 5.5)', () => {
  /** Runs `CALL keep {}` and returns the context the tool kept. */
  async function keptContext(options: Parameters<typeof setup>[1] = {}) {
    let kept: ToolContext | undefined;
    const parts = setup(
      [
        tool('keep', (_args, context) => {
          kept = context;
          return null;
        }),
        tool('other', () => 'ran', { confirm: 'write' }),
      ],
      options,
    );
    await parts.interpreter.run('LET x = 1\nCALL keep {}');
    return { ...parts, kept: kept! };
  }

  it('refuses callTool, print and setVar with AbortedError', async () => {
    const { kept, printed } = await keptContext({ approve: () => true });
    const refusals = [() => kept.print('late'), () => kept.setVar('x', 2)];
    for (const refused of refusals) {
      let error: unknown;
      try {
        refused();
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(NuwaError);
      expect((error as NuwaError).kind).toBe('AbortedError');
      expect((error as NuwaError).message).toMatch(/has ended/);
    }
    await expect(kept.callTool('other', {})).rejects.toMatchObject({ kind: 'AbortedError', message: expect.stringMatching(/callTool: the run that called `keep` has ended/) });
    expect(printed).toEqual([]);
  });

  it('also after a run that failed, and its signal is aborted', async () => {
    let kept: ToolContext | undefined;
    const { interpreter } = setup([
      tool('keep', (_args, context) => {
        kept = context;
        throw new Error('no');
      }),
    ]);
    await failure(interpreter.run('CALL keep {}'));
    expect(kept!.signal.aborted).toBe(true);
    expect(() => kept!.print('late')).toThrow(/has ended/);
  });

  it('after a run that finished, a signal first read then is aborted: AbortedError, the run has finished', async () => {
    // The run makes its AbortController only when a tool asks for the signal (tools/run.ts): this
    // tool never did during the run, so the signal is made after it, and must be aborted already.
    let kept: ToolContext | undefined;
    const { interpreter } = setup([tool('keep', (_args, context) => ((kept = context), null))]);
    await interpreter.run('CALL keep {}');
    expect(kept!.signal.aborted).toBe(true);
    expect(kept!.signal.reason).toMatchObject({ kind: 'AbortedError', message: 'the run has finished' });
    expect(kept!.signal).toBe(kept!.signal);
  });

  it('still reads the session state, which outlives the run', async () => {
    const { kept, registry } = await keptContext();
    registry.setState('k', 1);
    expect(kept.getStateValue('k')).toBe(1);
  });

  it('exposes only the documented surface: no way to the host or the interpreter', async () => {
    const { kept } = await keptContext();
    expect(Object.getOwnPropertyNames(kept).sort()).toEqual(['toolName']);
    const documented = [
      'constructor', 'signal', 'executionId', 'setState', 'getStateValue', 'hasState', 'getAllState', 'clearState', 'getStateMetadata', 'getAllStateMetadata',
      'registerStateMetadata', 'sessionId', 'logger', 'print', 'callTool', 'getVar', 'setVar', 'sandboxDir', 'resolvePath', 'ask', 'llm',
    ];
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(kept)).sort()).toEqual(documented.sort());
    const anyContext = kept as unknown as Record<string, unknown>;
    for (const internal of ['host', 'site', 'session', 'registry', 'run', 'needsApproval']) expect(anyContext[internal]).toBeUndefined();
    expect(Object.isFrozen(kept.logger)).toBe(true);
  });

  it('a tool cannot turn approval off for later runs', async () => {
    const { interpreter } = setup([
      tool('meddle', (_args, context) => {
        const reach = context as unknown as { host?: { needsApproval?: Set<string> } };
        reach.host?.needsApproval?.clear();
        return null;
      }),
      tool('write', () => 'written', { confirm: 'write' }),
    ]);
    await interpreter.run('CALL meddle {}');
    const error = await failure(interpreter.run('CALL write {}'));
    expect(error.kind).toBe('ToolDeniedError');
  });
});
