// OpenTelemetry tracing of runs and calls (API.md v1.1, "Tracing"), in this one module, fed by the
// run's events (every tool event carries its callId) and, for what no event tells, by the call path
// (the wait for an approval). A run is a span `nuwa.run`; each call a child span
// `execute_tool {name}` as the GenAI semantic conventions name it; a call a tool makes (callId
// `a>0`) a child of its parent's (`a`); an approval wait a `nuwa.approval` span inside its call's.
// A call that needs approval is traced from the moment the approval is asked, so that a denied call
// is a span too, failed with ToolDeniedError.
//
// The host's tracer is used through its interface only (TracerLike, which @opentelemetry/api's
// Tracer satisfies): the package imports nothing of OpenTelemetry. A span is made the parent of
// another through the OpenTelemetry Context interface, with the key the API itself keeps a span
// under, `Symbol.for('OpenTelemetry Context Key SPAN')` (a Symbol.for so that every copy of the API
// finds it). The `nuwa.run` span, and a function call's span, take the host's active context as
// their parent, as any span started without a context does.
//
// Arguments and results are recorded only when the host opts in (`traceContent`): they may hold
// what a trace backend should not see. Without a tracer none of this exists: no module state, no
// listener, no event built for it.
import type { EventError, NuwaEvent, RunStats } from '../events.js';
import type { JsonValue } from '../values/json.js';
import type { Logger } from './types.js';
import { describeThrown } from '../util/foreign.js';
import type { Options } from '../util/options.js';

/** An attribute value as OpenTelemetry takes it. */
export type TraceAttributeValue = string | number | boolean;
export type TraceAttributes = Record<string, TraceAttributeValue | undefined>;

/** The part of an OpenTelemetry Span Nuwa uses. */
export interface SpanLike {
  setAttribute(key: string, value: TraceAttributeValue): unknown;
  setAttributes(attributes: TraceAttributes): unknown;
  /** `code`: 0 unset, 1 ok, 2 error (OpenTelemetry's SpanStatusCode). */
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** OpenTelemetry's Context interface: an immutable map from keys to values. */
export interface TraceContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): TraceContextLike;
  deleteValue(key: symbol): TraceContextLike;
}

/**
 * The part of an OpenTelemetry Tracer Nuwa uses: `trace.getTracer('my-agent')` of
 * `@opentelemetry/api` is one. `kind` 0 is SpanKind.INTERNAL.
 */
export interface TracerLike {
  startSpan(name: string, options?: { kind?: number; attributes?: TraceAttributes }, context?: TraceContextLike): SpanLike;
}

/** What a host gives to trace its runs (InterpreterOptions, ExecuteOptions). */
export interface TraceOptions {
  /** An OpenTelemetry tracer: runs and calls become spans. */
  tracer?: TracerLike;
  /**
   * Also record each call's arguments and result (`gen_ai.tool.call.arguments` and
   * `gen_ai.tool.call.result`, as JSON), which may hold private data. Default false.
   */
  traceContent?: boolean;
}

/** How a wait for approval ended. */
export type ApprovalOutcome = 'approved' | 'denied' | 'paused' | { stopped: string };

/** What the call path tells a run's trace besides events: a wait for an approval begins. */
export interface ApprovalTrace {
  /** The hook is asked about the call `callId`; the function returned is called with its answer. */
  approvalAsked(callId: string, toolName: string, confirm: string): (outcome: ApprovalOutcome) => void;
}

/** The key under which @opentelemetry/api keeps a context's span (its `trace.setSpan`). */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const INTERNAL = 0;
const STATUS_ERROR = 2;

/** The tracing options of a host's options (Interpreter, ToolRegistry, execute), each read once and checked. */
const isTracer = (value: unknown) => value !== null && typeof (value as { startSpan?: unknown }).startSpan === 'function';

export function readTraceOptions(given: Options): TraceOptions {
  return {
    tracer: given.check<TracerLike>('tracer', isTracer, "an OpenTelemetry Tracer (an object with startSpan), such as trace.getTracer('my-agent')"),
    traceContent: given.boolean('traceContent'),
  };
}

/** A call's span and the context its nested calls and approval wait start in. */
interface CallSpan {
  span: SpanLike;
  context: TraceContextLike;
}

/**
 * The spans of one run (a script's, or a function call's): fed every event of the run, and told by
 * the call path when an approval is asked. A tracer that throws is the host's problem, logged once,
 * never the run's.
 */
export class RunTrace implements ApprovalTrace {
  private readonly tracer: TracerLike;
  private readonly content: boolean;
  private readonly logger: Logger;
  private run: CallSpan | undefined;
  /** The calls under way, by callId: the parents of the calls they make. */
  private readonly calls = new Map<string, CallSpan>();
  private failed = false;

  constructor(options: TraceOptions & { tracer: TracerLike }, logger: Logger) {
    this.tracer = options.tracer;
    this.content = options.traceContent === true;
    this.logger = logger;
  }

  /** Feeds one event of the run to its spans. */
  event(event: NuwaEvent): void {
    this.guarded(() => this.apply(event));
  }

  approvalAsked(callId: string, toolName: string, confirm: string): (outcome: ApprovalOutcome) => void {
    let wait: SpanLike | undefined;
    this.guarded(() => {
      const call = this.calls.get(callId) ?? this.startCall(callId, toolName);
      wait = this.tracer.startSpan(
        'nuwa.approval',
        { kind: INTERNAL, attributes: { 'gen_ai.tool.name': toolName, 'gen_ai.tool.call.id': callId, 'nuwa.approval.confirm': confirm } },
        call.context,
      );
    });
    return (outcome) =>
      this.guarded(() => {
        if (wait === undefined) return;
        const answer = typeof outcome === 'string' ? outcome : 'stopped';
        wait.setAttribute('nuwa.approval.outcome', answer);
        wait.end();
        // A call that goes no further has no event of its own to end its span with.
        if (answer === 'paused') this.endCall(callId, { 'nuwa.call.paused': true });
        if (typeof outcome === 'object') this.endCall(callId, {}, { kind: outcome.stopped, message: 'the run stopped while the call waited for approval' });
      });
  }

  private apply(event: NuwaEvent): void {
    switch (event.type) {
      case 'script:started': {
        const span = this.tracer.startSpan('nuwa.run', {
          kind: INTERNAL,
          attributes: { 'nuwa.run.id': event.executionId, 'nuwa.session.id': event.sessionId, 'nuwa.run.file_name': event.fileName },
        });
        this.run = { span, context: contextWith(span) };
        return;
      }
      case 'script:completed':
        return this.endRun('completed', event.stats);
      case 'script:failed':
        return this.endRun('failed', event.stats, { kind: event.error.kind, message: event.error.message });
      case 'run:paused':
        return this.endRun('paused', undefined);
      case 'tool:invoking': {
        const call = this.calls.get(event.callId) ?? this.startCall(event.callId, event.toolName);
        call.span.setAttributes({
          'nuwa.call.execution_id': event.executionId,
          'nuwa.tool.id': event.toolId === event.toolName ? undefined : event.toolId,
          'nuwa.call.approved_by': event.approvedBy,
          'gen_ai.tool.call.arguments': this.content ? json(event.payload) : undefined,
        });
        return;
      }
      case 'tool:completed':
        return this.endCall(event.callId, { 'gen_ai.tool.call.result': this.content ? json(event.payload) : undefined });
      case 'tool:failed':
      case 'tool:aborted':
        return this.endCall(event.callId, {}, event.error);
      case 'tool:denied':
        this.calls.get(event.callId) ?? this.startCall(event.callId, event.toolName);
        return this.endCall(event.callId, { 'nuwa.approval.confirm': event.confirm }, { kind: 'ToolDeniedError', message: `the call to \`${event.toolName}\` was denied` });
      case 'tool:replayed': {
        // Answered from a durable run's record: the tool did not run again.
        this.startCall(event.callId, event.toolName);
        const failure = event.error;
        return this.endCall(event.callId, { 'nuwa.call.replayed': true, 'gen_ai.tool.call.result': this.content && failure === undefined ? json(event.payload) : undefined }, failure);
      }
      default:
        return;
    }
  }

  /** A call's span, a child of its parent call's (`a>0` → `a`), else of the run's. */
  private startCall(callId: string, toolName: string): CallSpan {
    const cut = callId.lastIndexOf('>');
    const parent = cut < 0 ? this.run : (this.calls.get(callId.slice(0, cut)) ?? this.run);
    const span = this.tracer.startSpan(
      `execute_tool ${toolName}`,
      {
        kind: INTERNAL,
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': toolName, 'gen_ai.tool.call.id': callId, 'gen_ai.tool.type': 'function' },
      },
      parent?.context,
    );
    const call = { span, context: contextWith(span) };
    this.calls.set(callId, call);
    return call;
  }

  private endCall(callId: string, attributes: TraceAttributes, error?: { kind: string; message: string }): void {
    const call = this.calls.get(callId);
    if (call === undefined) return;
    this.calls.delete(callId);
    call.span.setAttributes(attributes);
    if (error !== undefined) fail(call.span, error);
    call.span.end();
  }

  private endRun(status: 'completed' | 'failed' | 'paused', stats: RunStats | undefined, error?: { kind: string; message: string }): void {
    const run = this.run;
    if (run === undefined) return;
    this.run = undefined;
    run.span.setAttributes({
      'nuwa.run.status': status,
      'nuwa.run.steps': stats?.steps,
      'nuwa.run.tool_calls': stats?.toolCalls,
      'nuwa.run.duration_ms': stats?.durationMs,
    });
    if (error !== undefined) fail(run.span, error);
    run.span.end();
  }

  private guarded(action: () => void): void {
    try {
      action();
    } catch (error) {
      if (this.failed) return;
      this.failed = true;
      this.logger.warn(`the tracer threw, so the trace of this run is incomplete: ${describeThrown(error)}`);
    }
  }
}

function fail(span: SpanLike, error: { kind: string; message: string }): void {
  span.setAttribute('error.type', error.kind);
  span.setStatus({ code: STATUS_ERROR, message: error.message });
}

function json(value: JsonValue | EventError): string {
  return JSON.stringify(value);
}

/** A context holding `span`, as @opentelemetry/api's `trace.setSpan(ROOT_CONTEXT, span)` makes it. */
function contextWith(span: SpanLike): TraceContextLike {
  return new SpanContext(new Map([[SPAN_KEY, span]]));
}

class SpanContext implements TraceContextLike {
  constructor(private readonly values: ReadonlyMap<symbol, unknown>) {}

  getValue(key: symbol): unknown {
    return this.values.get(key);
  }

  setValue(key: symbol, value: unknown): TraceContextLike {
    return new SpanContext(new Map(this.values).set(key, value));
  }

  deleteValue(key: symbol): TraceContextLike {
    const values = new Map(this.values);
    values.delete(key);
    return new SpanContext(values);
  }
}
