// Unit tests for run events (TOOLS.md §8, API.md `onEvent`).
import { describe, expect, it, vi } from 'vitest';
import { Interpreter, ToolRegistry, type NuwaEvent } from '../../../src/index.js';
import { failure, tool } from '../../support/harness.js';

function setup(extraOptions: Partial<ConstructorParameters<typeof Interpreter>[1]> = {}) {
  const registry = new ToolRegistry();
  registry.register(tool('ok', async (args) => ({ echoed: args.v ?? null })));
  registry.register(
    tool('bad', () => {
      throw new Error('broken tool');
    }),
  );
  registry.register(tool('wrong', () => 'text', { returns: 'number' }));
  const events: NuwaEvent[] = [];
  const interpreter = new Interpreter(registry, { print: () => {}, onEvent: (event) => events.push(event), ...extraOptions });
  return { registry, interpreter, events };
}

describe('event order and content', () => {
  it('a successful run: script:started, tool:invoking, tool:invoked, tool:completed, script:completed', async () => {
    const { interpreter, events, registry } = setup();
    const before = Date.now();
    await interpreter.run('LET a = CALL ok { v: [1] }', { fileName: 'plan.nuwa' });
    const after = Date.now();
    expect(events.map((event) => event.type)).toEqual(['script:started', 'tool:invoking', 'tool:invoked', 'tool:completed', 'script:completed']);
    const [started, invoking, invoked, completed, done] = events as [
      Extract<NuwaEvent, { type: 'script:started' }>,
      Extract<NuwaEvent, { type: 'tool:invoking' }>,
      Extract<NuwaEvent, { type: 'tool:invoked' }>,
      Extract<NuwaEvent, { type: 'tool:completed' }>,
      Extract<NuwaEvent, { type: 'script:completed' }>,
    ];
    for (const event of events) {
      expect(typeof event.executionId).toBe('string');
      expect(event.executionId.length).toBeGreaterThan(0);
      expect(event.timestamp).toBeGreaterThanOrEqual(before);
      expect(event.timestamp).toBeLessThanOrEqual(after);
    }
    const timestamps = events.map((event) => event.timestamp);
    expect([...timestamps].sort((x, y) => x - y)).toEqual(timestamps);
    expect(started.fileName).toBe('plan.nuwa');
    expect(started.sessionId).toBe(registry.defaultSession.id);
    expect(done.executionId).toBe(started.executionId);
    expect(invoking).toMatchObject({ toolName: 'ok', args: { v: [1] } });
    // Since v1.1 every tool event names the call (callId), the tool (toolId) and what it is about.
    expect(invoking).toMatchObject({ callId: '1:9', toolId: 'ok', payload: { v: [1] } });
    expect(invoked).toMatchObject({ callId: '1:9', toolId: 'ok', toolName: 'ok', executionId: invoking.executionId, payload: null });
    expect(completed).toMatchObject({ callId: '1:9', toolId: 'ok', payload: { echoed: [1] } });
    expect(completed.toolName).toBe('ok');
    expect(completed.executionId).toBe(invoking.executionId);
    expect(invoking.executionId).not.toBe(started.executionId);
    expect(typeof completed.duration).toBe('number');
    expect(completed.duration).toBeGreaterThanOrEqual(0);
    expect(done.stats).toMatchObject({ steps: 1, toolCalls: 1 });
  });

  it('a failing tool: tool:failed with the error, then script:failed with kind and position', async () => {
    const { interpreter, events } = setup();
    await failure(interpreter.run('LET a = CALL ok {}\nLET b = CALL bad {}\nLET c = CALL ok {}'));
    expect(events.map((event) => event.type)).toEqual(['script:started', 'tool:invoking', 'tool:invoked', 'tool:completed', 'tool:invoking', 'tool:failed', 'script:failed']);
    const failed = events[5] as Extract<NuwaEvent, { type: 'tool:failed' }>;
    expect(failed.toolName).toBe('bad');
    expect(failed.executionId).toBe(events[4]!.executionId);
    expect(failed.error).toEqual({ kind: 'ToolExecutionError', message: 'tool `bad` failed: broken tool' });
    expect(failed).toMatchObject({ callId: '2:9', payload: failed.error });
    expect(failed.duration).toBeGreaterThanOrEqual(0);
    const scriptFailed = events[6] as Extract<NuwaEvent, { type: 'script:failed' }>;
    expect(scriptFailed.executionId).toBe(events[0]!.executionId);
    expect(scriptFailed.error).toMatchObject({ kind: 'ToolExecutionError', line: 2, column: 9 });
    expect(scriptFailed.stats.toolCalls).toBe(2);
  });

  it('a result of the wrong type emits tool:failed', async () => {
    const { interpreter, events } = setup();
    await failure(interpreter.run('CALL wrong {}'));
    const failed = events.find((event) => event.type === 'tool:failed') as Extract<NuwaEvent, { type: 'tool:failed' }>;
    expect(failed.error.kind).toBe('ToolResultError');
    expect(events.some((event) => event.type === 'tool:completed')).toBe(false);
  });

  it('a script error without tools: script:started then script:failed', async () => {
    const { interpreter, events } = setup();
    await failure(interpreter.run('LET x = 1 / 0'));
    expect(events.map((event) => event.type)).toEqual(['script:started', 'script:failed']);
    expect((events[1] as Extract<NuwaEvent, { type: 'script:failed' }>).error.kind).toBe('DivisionByZeroError');
  });

  it('a syntax error still emits script:started and script:failed', async () => {
    const { interpreter, events } = setup();
    await failure(interpreter.run('LET = 1'));
    expect(events.map((event) => event.type)).toEqual(['script:started', 'script:failed']);
    expect((events[1] as Extract<NuwaEvent, { type: 'script:failed' }>).error.kind).toBe('SyntaxError');
  });

  it('an argument error emits no tool:invoking (the tool never runs)', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('typed', () => null, { parameters: [{ name: 'n', description: 'n', type: 'number' }] }));
    const events: NuwaEvent[] = [];
    await failure(new Interpreter(registry, { print: () => {}, onEvent: (event) => events.push(event) }).run('CALL typed { n: "x" }'));
    expect(events.map((event) => event.type)).toEqual(['script:started', 'script:failed']);
  });

  it('a cancelled run: the waiting tool gets tool:aborted (AbortedError), then script:failed', async () => {
    const registry = new ToolRegistry();
    const controller = new AbortController();
    registry.register(
      tool('wait', (_args, context) => {
        setTimeout(() => controller.abort(), 5);
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(null)));
      }),
    );
    const events: NuwaEvent[] = [];
    await failure(new Interpreter(registry, { print: () => {}, onEvent: (event) => events.push(event) }).run('CALL wait {}', { signal: controller.signal }));
    expect(events.map((event) => event.type)).toEqual(['script:started', 'tool:invoking', 'tool:aborted', 'script:failed']);
    expect((events[2] as Extract<NuwaEvent, { type: 'tool:aborted' }>).error.kind).toBe('AbortedError');
    expect((events[3] as Extract<NuwaEvent, { type: 'script:failed' }>).error.kind).toBe('AbortedError');
  });

  it('each run has its own executionId', async () => {
    const { interpreter, events } = setup();
    await interpreter.run('LET a = 1');
    await interpreter.run('LET a = 1');
    const starts = events.filter((event) => event.type === 'script:started');
    expect(starts).toHaveLength(2);
    expect(starts[0]!.executionId).not.toBe(starts[1]!.executionId);
  });
});

describe('a throwing listener', () => {
  it('does not break the run, and the failure is logged', async () => {
    const warn = vi.fn();
    const registry = new ToolRegistry();
    registry.register(tool('ok', () => 1));
    const lines: string[] = [];
    const interpreter = new Interpreter(registry, {
      print: (line) => lines.push(line),
      logger: { warn },
      onEvent: () => {
        throw new Error('listener exploded');
      },
    });
    const result = await interpreter.run('LET a = CALL ok {}\nPRINT(a)');
    expect(result.variables).toEqual({ a: 1 });
    expect(lines).toEqual(['1']);
    expect(warn).toHaveBeenCalled();
    expect(String(warn.mock.calls[0]![0])).toMatch(/listener exploded/);
  });

  it('does not replace the error of a failing run', async () => {
    const interpreter = new Interpreter(new ToolRegistry(), {
      print: () => {},
      logger: { warn: () => {} },
      onEvent: () => {
        throw new Error('listener exploded');
      },
    });
    const error = await failure(interpreter.run('LET x = nope'));
    expect(error.kind).toBe('UndefinedVariableError');
  });
});
