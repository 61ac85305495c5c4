// Tracing with OpenTelemetry (API.md v1.1, "Tracing"; src/tools/tracing.ts), checked with the
// OpenTelemetry SDK itself: a BasicTracerProvider whose spans go to an InMemorySpanExporter. A run
// is a span `nuwa.run`, each call a child `execute_tool {name}` with the GenAI attributes, nested
// calls children of their parent's, approval waits `nuwa.approval` spans, replayed calls marked.
import { context, trace, ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { Interpreter } from '../../../src/api/interpreter.js';
import type { InterpreterOptions } from '../../../src/api/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { TracerLike } from '../../../src/tools/tracing.js';
import { failure } from '../../support/harness.js';

const ERROR = 2; // SpanStatusCode.ERROR

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('nuwa-test');
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((span) => span.name === name);
  const one = (name: string) => {
    const found = named(name);
    expect(found.map((span) => span.name), `one span named ${name}`).toEqual([name]);
    return found[0]!;
  };
  return { tracer, spans, named, one };
}

const spanId = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

function registry() {
  const tools = new ToolRegistry();
  tools.register({ name: 'add', description: 'a + b', parameters: [{ name: 'a', type: 'number' }, { name: 'b', type: 'number' }], returns: 'number', execute: ({ a, b }) => a + b });
  tools.register({ name: 'fail', description: 'throws', execute: () => { throw new Error('out of paper'); } });
  tools.register({ name: 'order', description: 'places an order', confirm: 'write', parameters: [{ name: 'n', type: 'number' }], execute: ({ n }) => ({ placed: n }) });
  tools.register({
    name: 'outer',
    description: 'calls add twice',
    parameters: [{ name: 'n', type: 'number' }],
    execute: async ({ n }, ctx) => (Number(await ctx.callTool('add', { a: n, b: 1 })) + Number(await ctx.callTool('add', { a: n, b: 2 }))),
  });
  tools.register({ name: 'slow', description: 'never answers in time', timeoutMs: 20, execute: () => new Promise(() => {}) });
  return tools;
}

function interpreter(tracer: TracerLike, options: InterpreterOptions = {}) {
  return new Interpreter(registry(), { tracer, ...options });
}

describe('a run and its calls', () => {
  it('is a span nuwa.run with the file name, run id and stats, and each call a child execute_tool span with the GenAI attributes', async () => {
    const { tracer, one, spans } = tracing();
    const events: { type: string; executionId: string; callId?: string }[] = [];
    await interpreter(tracer, { onEvent: (event) => events.push(event) }).run('LET x = CALL add { a: 1, b: 2 }\nLET y = CALL add { a: x, b: 3 }', { fileName: 'plan.nuwa' });

    const run = one('nuwa.run');
    const started = events.find((event) => event.type === 'script:started')!;
    expect(run.attributes).toMatchObject({ 'nuwa.run.id': started.executionId, 'nuwa.run.file_name': 'plan.nuwa', 'nuwa.run.status': 'completed', 'nuwa.run.steps': 2, 'nuwa.run.tool_calls': 2 });
    expect(run.attributes['nuwa.run.duration_ms']).toBeTypeOf('number');
    expect(run.status.code).not.toBe(ERROR);
    expect(parentOf(run)).toBeUndefined();

    const calls = spans().filter((span) => span.name === 'execute_tool add');
    expect(calls).toHaveLength(2);
    expect(calls.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['1:9', '2:9']);
    for (const call of calls) {
      expect(call.kind).toBe(0); // INTERNAL
      expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'add', 'gen_ai.tool.type': 'function' });
      expect(parentOf(call)).toBe(spanId(run));
      expect(call.spanContext().traceId).toBe(run.spanContext().traceId);
      // Neither the arguments nor the result without the host's say-so.
      expect(call.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
      expect(call.attributes).not.toHaveProperty('gen_ai.tool.call.result');
    }
    // The call's executionId, as its events carry it.
    expect(calls[0]!.attributes['nuwa.call.execution_id']).toBe(events.find((event) => event.type === 'tool:invoking')!.executionId);
  });

  it('records arguments and results only when the host opts in (traceContent)', async () => {
    const { tracer, one } = tracing();
    await interpreter(tracer, { traceContent: true }).run('CALL add { a: 1, b: "2" }');
    // The arguments as the tool got them (coerced), the result as the script got it.
    expect(one('execute_tool add').attributes).toMatchObject({ 'gen_ai.tool.call.arguments': '{"a":1,"b":2}', 'gen_ai.tool.call.result': '3' });
  });

  it('a failed call has error.type and an error status, and so has the run it fails', async () => {
    const { tracer, one } = tracing();
    const error = await failure(interpreter(tracer).run('CALL fail {}'));
    const call = one('execute_tool fail');
    expect(call.attributes['error.type']).toBe('ToolExecutionError');
    expect(call.status).toEqual({ code: ERROR, message: error.message });
    const run = one('nuwa.run');
    expect(run.attributes).toMatchObject({ 'error.type': 'ToolExecutionError', 'nuwa.run.status': 'failed', 'nuwa.run.tool_calls': 1 });
    expect(run.status.code).toBe(ERROR);
  });

  it('a call stopped by its timeout is an error span with the limit as its error.type', async () => {
    const { tracer, one } = tracing();
    await failure(interpreter(tracer).run('CALL slow {}'));
    expect(one('execute_tool slow').attributes['error.type']).toBe('LimitExceededError');
  });

  it('a script error outside any call fails the run span alone', async () => {
    const { tracer, one, spans } = tracing();
    await failure(interpreter(tracer).run('LET x = 1 / "a"'));
    expect(one('nuwa.run').attributes['error.type']).toBe('TypeError');
    expect(spans()).toHaveLength(1);
  });
});

describe('tools calling tools', () => {
  it('are children of their parent call, with callIds a>0, a>1', async () => {
    const { tracer, one, named } = tracing();
    await interpreter(tracer).run('PRINT(CALL outer { n: 1 })');
    const outer = one('execute_tool outer');
    const inner = named('execute_tool add');
    expect(inner.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['1:7>0', '1:7>1']);
    for (const span of inner) expect(parentOf(span)).toBe(spanId(outer));
    expect(parentOf(outer)).toBe(spanId(one('nuwa.run')));
  });
});

describe('approval', () => {
  it('the wait for the approve hook is a span nuwa.approval inside the call’s span', async () => {
    const { tracer, one } = tracing();
    await interpreter(tracer, { approve: async () => true }).run('CALL order { n: 2 }');
    const call = one('execute_tool order');
    const wait = one('nuwa.approval');
    expect(parentOf(wait)).toBe(spanId(call));
    expect(wait.attributes).toMatchObject({ 'gen_ai.tool.name': 'order', 'gen_ai.tool.call.id': '1:1', 'nuwa.approval.confirm': 'write', 'nuwa.approval.outcome': 'approved' });
    expect(call.attributes['nuwa.call.approved_by']).toBe('hook');
    expect(call.status.code).not.toBe(ERROR);
    // The call's span holds the wait: it started when the hook was asked.
    expect(call.startTime <= wait.startTime).toBe(true);
  });

  it('a denied call is a span failed with ToolDeniedError, its wait answered denied', async () => {
    const { tracer, one } = tracing();
    await failure(interpreter(tracer, { approve: () => false }).run('CALL order { n: 2 }'));
    expect(one('nuwa.approval').attributes['nuwa.approval.outcome']).toBe('denied');
    const call = one('execute_tool order');
    expect(call.attributes['error.type']).toBe('ToolDeniedError');
    expect(call.status.code).toBe(ERROR);
    expect(one('nuwa.run').attributes['error.type']).toBe('ToolDeniedError');
  });

  it('without a hook there is no wait: the denied call alone', async () => {
    const { tracer, one, named } = tracing();
    await failure(interpreter(tracer).run('CALL order { n: 2 }'));
    expect(one('execute_tool order').attributes['error.type']).toBe('ToolDeniedError');
    expect(named('nuwa.approval')).toEqual([]);
  });

  it('a run cancelled during the wait ends the wait and the call', async () => {
    const { tracer, one } = tracing();
    const controller = new AbortController();
    const run = interpreter(tracer, { approve: () => new Promise(() => controller.abort()) }).run('CALL order { n: 2 }', { signal: controller.signal });
    await failure(run);
    expect(one('nuwa.approval').attributes['nuwa.approval.outcome']).toBe('stopped');
    expect(one('execute_tool order').attributes['error.type']).toBe('AbortedError');
  });
});

describe('durable runs', () => {
  it('a paused run ends its span as paused; resumed, the calls answered from the record are marked replayed', async () => {
    const { tracer, named, spans } = tracing();
    const host = interpreter(tracer, { approve: () => 'pause' });
    const outcome = await host.start('LET x = CALL add { a: 1, b: 2 }\nLET o = CALL order { n: x }');
    expect(outcome.status).toBe('paused');
    expect(named('nuwa.run').map((span) => span.attributes['nuwa.run.status'])).toEqual(['paused']);
    expect(named('nuwa.approval').map((span) => span.attributes['nuwa.approval.outcome'])).toEqual(['paused']);
    const waiting = named('execute_tool order');
    expect(waiting.map((span) => span.attributes['nuwa.call.paused'])).toEqual([true]);
    expect(waiting[0]!.status.code).not.toBe(ERROR);

    const before = spans().length;
    const done = await host.resume(outcome.checkpoint, { decisions: { '2:9': true } });
    expect(done.status).toBe('completed');
    const resumed = spans().slice(before);
    const replayed = resumed.filter((span) => span.attributes['nuwa.call.replayed'] === true);
    expect(replayed.map((span) => span.name)).toEqual(['execute_tool add']);
    expect(replayed[0]!.attributes['gen_ai.tool.call.id']).toBe('1:9');
    const order = resumed.find((span) => span.name === 'execute_tool order')!;
    expect(order.attributes).toMatchObject({ 'nuwa.call.approved_by': 'decision' });
    expect(order.attributes).not.toHaveProperty('nuwa.call.replayed');
    const run = resumed.find((span) => span.name === 'nuwa.run')!;
    expect(run.attributes['nuwa.run.status']).toBe('completed');
    for (const span of [...replayed, order]) expect(parentOf(span)).toBe(spanId(run));
  });

  it('a replayed call that failed is an error span', async () => {
    const { tracer, spans } = tracing();
    const tools = registry();
    // A tool that goes on after a failed call of its own, then asks a question: the run pauses there,
    // and resumed, the tool runs again and its failed call is answered from the record.
    tools.register({
      name: 'careful',
      description: 'tries, then asks',
      execute: async (_args, ctx) => {
        const tried = await ctx.callTool('fail', {}).then(() => 'worked', () => 'failed');
        return `${tried}, ${await ctx.ask('go on?')}`;
      },
    });
    const host = new Interpreter(tools, { tracer });
    const outcome = await host.start('PRINT(CALL careful {})');
    expect(outcome.status).toBe('paused');
    const before = spans().length;
    const done = await host.resume(outcome.checkpoint, { decisions: { '1:7>1': { answer: 'yes' } } });
    expect(done.status === 'completed' && done.result.output).toEqual(['failed, yes']);
    const replayed = spans().slice(before).filter((span) => span.attributes['nuwa.call.replayed'] === true);
    expect(replayed.map((span) => [span.name, span.attributes['gen_ai.tool.call.id'], span.attributes['error.type'], span.status.code])).toEqual([
      ['execute_tool fail', '1:7>0', 'ToolExecutionError', ERROR],
    ]);
    expect(parentOf(replayed[0]!)).toBe(spanId(spans().slice(before).find((span) => span.name === 'execute_tool careful')!));
  });
});

describe('registry.execute', () => {
  it('traces a function call as an execute_tool span with its nested calls as children', async () => {
    const { tracer, one, named } = tracing();
    const result = await registry().execute('outer', { n: 1 }, { tracer, traceContent: true });
    expect(result.success).toBe(true);
    const outer = one('execute_tool outer');
    expect(outer.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call', 'gen_ai.tool.call.arguments': '{"n":1}', 'gen_ai.tool.call.result': '5' });
    expect(parentOf(outer)).toBeUndefined();
    expect(named('execute_tool add').map((span) => parentOf(span))).toEqual([spanId(outer), spanId(outer)]);
    expect(named('nuwa.run')).toEqual([]);
  });

  it('takes the tracer from the registry’s options too', async () => {
    const { tracer, one } = tracing();
    const tools = new ToolRegistry({ tracer });
    tools.register({ name: 'ping', description: 'pong', execute: () => 'pong' });
    await tools.execute('ping');
    expect(one('execute_tool ping').attributes['gen_ai.tool.name']).toBe('ping');
  });
});

describe('the host’s context and tracer', () => {
  afterEach(() => context.disable());

  it('a run is a child of the span active where the host runs it', async () => {
    context.setGlobalContextManager(new StackContextManager());
    const { tracer, one } = tracing();
    const agent = tracer.startSpan('invoke_agent');
    await context.with(trace.setSpan(ROOT_CONTEXT, agent), () => interpreter(tracer).run('CALL add { a: 1, b: 1 }'));
    agent.end();
    expect(parentOf(one('nuwa.run'))).toBe(spanId(one('invoke_agent')));
  });

  it('a tracer that throws changes nothing in the run: the problem is logged once', async () => {
    const warnings: string[] = [];
    const broken: TracerLike = {
      startSpan: () => {
        throw new Error('exporter down');
      },
    };
    const result = await interpreter(broken, { logger: { warn: (message) => warnings.push(message) } }).run('LET x = CALL add { a: 1, b: 1 }\nLET y = CALL add { a: x, b: 1 }');
    expect(result.variables).toEqual({ x: 2, y: 3 });
    expect(warnings).toEqual(['the tracer threw, so the trace of this run is incomplete: exporter down']);
  });

  it('refuses a tracer that is not one', () => {
    expect(() => new Interpreter(new ToolRegistry(), { tracer: {} as TracerLike })).toThrow(/`tracer` must be an OpenTelemetry Tracer/);
    expect(() => new ToolRegistry({ tracer: 'otel' as unknown as TracerLike })).toThrow(/`tracer` must be an OpenTelemetry Tracer/);
    expect(() => new Interpreter(new ToolRegistry(), { traceContent: 'yes' as unknown as boolean })).toThrow(/`traceContent` must be true or false/);
  });
});

/** The simplest context manager (a stack, for code that runs synchronously inside `with`), for the test above. */
class StackContextManager implements ContextManager {
  private stack: Context[] = [ROOT_CONTEXT];
  active(): Context {
    return this.stack.at(-1)!;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    this.stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.stack = [ROOT_CONTEXT];
    return this;
  }
}
