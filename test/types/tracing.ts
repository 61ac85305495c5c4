// The tracer a host has is the tracer Nuwa takes: @opentelemetry/api's Tracer (and an SDK's)
// satisfies TracerLike, though the package imports nothing of OpenTelemetry.
import { trace, type Tracer } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { Interpreter, ToolRegistry, type TracerLike } from '../../src/index.js';

const tracer: Tracer = trace.getTracer('my-agent');
const registry = new ToolRegistry({ tracer: new BasicTracerProvider().getTracer('registry') });
new Interpreter(registry, { tracer, traceContent: true });
void registry.execute('ping', {}, { tracer, traceContent: false });
export const like: TracerLike = tracer;

// @ts-expect-error: a tracer is an object with startSpan
new Interpreter(registry, { tracer: { start: () => null } });
// @ts-expect-error: traceContent is true or false
new Interpreter(registry, { tracer, traceContent: 'yes' });
