// Unit tests for function calling (TOOLS.md §5): registry.execute in both call shapes, its ToolResult
// (never a rejection), the same checks, policy, limits, events and state as a script's CALL, per-call
// overrides over the registry's defaults, and the wire formats toOpenAITools / toAnthropicTools.
import { describe, expect, it } from 'vitest';
import type { NuwaEvent } from '../../../src/events.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { toAnthropicTools, toOpenAITools } from '../../../src/tools/function-calling.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolDefinition } from '../../../src/tools/types.js';
import { failure } from '../../support/harness.js';

function weather(extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', minimum: 1, default: 1 } },
      required: ['city'],
    },
    returns: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, temperature: { type: 'number' } }, required: ['city', 'temperature'] },
    execute: (args) => ({ city: args.city!, days: args.days!, temperature: 18.5 }),
    ...extra,
  };
}

function registryWith(...definitions: ToolDefinition[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const definition of definitions) registry.register(definition);
  return registry;
}

describe('execute: the two call shapes', () => {
  it('takes { name, arguments } with arguments as a JSON string, as models send them', async () => {
    const result = await registryWith(weather()).execute({ name: 'get_weather', arguments: '{"city": "Paris"}' });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ city: 'Paris', days: 1, temperature: 18.5 });
    expect(result.error).toBeUndefined();
    expect(result.code).toBeUndefined();
  });

  it('takes { name, arguments } with arguments as an object', async () => {
    const result = await registryWith(weather()).execute({ name: 'get_weather', arguments: { city: 'Oslo', days: 3 } });
    expect(result).toMatchObject({ success: true, data: { city: 'Oslo', days: 3 } });
  });

  it('takes execute(name, input), the sdkwork shape', async () => {
    const result = await registryWith(weather()).execute('get_weather', { city: 'Rome' });
    expect(result).toMatchObject({ success: true, data: { city: 'Rome' } });
  });

  it('treats missing, null and empty-string arguments as no arguments', async () => {
    const registry = registryWith({ name: 'ping', description: 'answers', parameters: [], returns: 'string', execute: () => 'pong' });
    for (const args of [undefined, null, '', '  ']) {
      expect(await registry.execute({ name: 'ping', arguments: args as never })).toMatchObject({ success: true, data: 'pong' });
    }
    expect(await registry.execute('ping')).toMatchObject({ success: true, data: 'pong' });
  });

  it('fills metadata: the call executionId, the tool name and the timings', async () => {
    const events: NuwaEvent[] = [];
    const registry = new ToolRegistry({ onEvent: (event) => events.push(event) });
    registry.register(weather());
    const before = Date.now();
    const result = await registry.execute('get_weather', { city: 'Paris' });
    const metadata = result.metadata!;
    expect(metadata.toolName).toBe('get_weather');
    expect(metadata.startTime).toBeGreaterThanOrEqual(before);
    expect(metadata.endTime).toBeGreaterThanOrEqual(metadata.startTime);
    expect(metadata.duration).toBeGreaterThanOrEqual(0);
    // The same executionId as the call's events, so a host can join them.
    expect(events.map((event) => event.executionId)).toEqual([metadata.executionId, metadata.executionId, metadata.executionId]);
  });
});

describe('execute: failures are results, with the exact messages of §5', () => {
  it('an unknown tool: "Unknown tool: X", ToolNotFoundError', async () => {
    const result = await registryWith(weather()).execute({ name: 'unknownTool', arguments: '{}' });
    expect(result).toMatchObject({ success: false, error: 'Unknown tool: unknownTool', code: 'ToolNotFoundError' });
    expect(result.metadata!.toolName).toBe('unknownTool');
  });

  it('invalid JSON: the JSON parser’s own message', async () => {
    let parserMessage = '';
    try {
      JSON.parse('not valid json');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    const result = await registryWith(weather()).execute({ name: 'get_weather', arguments: 'not valid json' });
    expect(result).toMatchObject({ success: false, error: parserMessage });
  });

  it('arguments that are JSON but not an object', async () => {
    const result = await registryWith(weather()).execute({ name: 'get_weather', arguments: '[1, 2]' });
    expect(result).toMatchObject({ success: false, code: 'ToolArgumentError' });
    expect(result.error).toMatch(/the arguments must be an object, received list of 2 items/);
    expect((await registryWith(weather()).execute('get_weather', 42)).error).toMatch(/received number 42/);
    // execute(name, input) takes a JSON string too, as sdkwork's executeTool does.
    expect(await registryWith(weather()).execute('get_weather', '{"city": "Paris"}')).toMatchObject({ success: true, data: { city: 'Paris' } });
  });

  it('arguments that are not JSON values', async () => {
    const result = await registryWith(weather()).execute('get_weather', { city: 'Paris', when: new Date() });
    expect(result).toMatchObject({ success: false, code: 'ToolArgumentError' });
  });

  it('a missing or non-string name', async () => {
    const registry = registryWith(weather());
    expect(await registry.execute({} as never)).toMatchObject({ success: false, code: 'ToolNotFoundError' });
    expect(await registry.execute(null as never)).toMatchObject({ success: false, code: 'ToolNotFoundError' });
  });

  // Each failure reads exactly as a script would see it, with the same kind.
  it.each([
    ['bad arguments', weather(), { city: 'Paris', days: 0 }, 'ToolArgumentError'],
    ['a missing argument', weather(), {}, 'ToolArgumentError'],
    ['an unknown argument', weather(), { city: 'Paris', country: 'FR' }, 'ToolArgumentError'],
    [
      'a thrown error',
      weather({
        execute: () => {
          throw new Error('the weather service is down');
        },
      }),
      { city: 'Paris' },
      'ToolExecutionError',
    ],
    ['a result of the wrong type', weather({ execute: () => ({ city: 'Paris' }) }), { city: 'Paris' }, 'ToolResultError'],
    ['a result that is not JSON', weather({ execute: () => ({ city: 'Paris', temperature: Number.NaN }) }), { city: 'Paris' }, 'ToolResultError'],
    ['a denied call', weather({ confirm: 'write' }), { city: 'Paris' }, 'ToolDeniedError'],
  ])('%s: the message and kind a script gets', async (_label, definition, args, kind) => {
    const registry = registryWith(definition);
    const result = await registry.execute('get_weather', args);
    const scriptError = await failure(new Interpreter(registry, { print: () => {} }).run(`CALL get_weather ${JSON.stringify(args).replace(/"(\w+)":/g, '$1:')}`));
    expect(scriptError.kind).toBe(kind);
    expect(result).toMatchObject({ success: false, code: kind, error: scriptError.message });
  });

  it('never rejects, whatever the tool does', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'throws_string', description: 'd', parameters: [], returns: 'any', execute: () => Promise.reject('plain string') });
    registry.register({ name: 'throws_null', description: 'd', parameters: [], returns: 'any', execute: () => Promise.reject(null) });
    registry.register({ name: 'bigint', description: 'd', parameters: [], returns: 'any', execute: () => 10n });
    for (const name of ['throws_string', 'throws_null', 'bigint']) {
      const result = await registry.execute(name);
      expect(result.success).toBe(false);
      expect(typeof result.error).toBe('string');
    }
  });
});

describe('execute: names', () => {
  it('accepts a dotted name and its exported spelling', async () => {
    const registry = new ToolRegistry();
    registry.registerToolset('math', [{ name: 'add', description: 'adds', parameters: [{ name: 'a', description: 'a', type: 'number' }, { name: 'b', description: 'b', type: 'number' }], returns: 'number', execute: (args) => (args.a as number) + (args.b as number) }]);
    expect(await registry.execute({ name: 'math.add', arguments: '{"a": 1, "b": 2}' })).toMatchObject({ success: true, data: 3 });
    const exported = await registry.execute({ name: 'math__add', arguments: '{"a": 1, "b": 2}' });
    expect(exported).toMatchObject({ success: true, data: 3 });
    expect(exported.metadata!.toolName).toBe('math.add');
  });

  it('prefers a tool registered under the exact name over the dotted reading', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'my__tool', description: 'd', parameters: [], returns: 'string', execute: () => 'underscored' });
    registry.registerToolset('my', [{ name: 'tool', description: 'd', parameters: [], returns: 'string', execute: () => 'dotted' }]);
    expect((await registry.execute('my__tool')).data).toBe('underscored');
    expect((await registry.execute('my.tool')).data).toBe('dotted');
  });
});

describe('execute: policy, limits and cancellation', () => {
  const write = () => weather({ confirm: 'write' });

  it('denies a write tool without an approval hook, like a script, and never runs it', async () => {
    let ran = false;
    const registry = registryWith(weather({ confirm: 'write', execute: () => ((ran = true), { city: 'x', temperature: 1 }) }));
    const result = await registry.execute('get_weather', { city: 'Paris' });
    expect(result).toMatchObject({ success: false, code: 'ToolDeniedError' });
    expect(result.error).toMatch(/no approval hook is configured/);
    expect(ran).toBe(false);
  });

  it('uses the registry’s default approval policy, and a per-call override over it', async () => {
    const requests: unknown[] = [];
    const registry = new ToolRegistry({ approve: (request) => (requests.push(request), true) });
    registry.register(write());
    expect((await registry.execute('get_weather', { city: 'Paris' })).success).toBe(true);
    expect(requests).toEqual([{ toolName: 'get_weather', confirm: 'write', category: 'custom', args: { city: 'Paris', days: 1 }, callId: 'call' }]);
    const denied = await registry.execute('get_weather', { city: 'Paris' }, { approve: async () => false });
    expect(denied).toMatchObject({ success: false, code: 'ToolDeniedError' });
    expect(denied.error).toMatch(/the host did not approve it/);
  });

  it('needsApproval decides which levels ask, per registry and per call', async () => {
    const registry = new ToolRegistry({ needsApproval: ['destructive'] });
    registry.register(write());
    expect((await registry.execute('get_weather', { city: 'Paris' })).success).toBe(true);
    expect((await registry.execute('get_weather', { city: 'Paris' }, { needsApproval: ['write'] })).code).toBe('ToolDeniedError');
  });

  it('a per-call timeoutMs stops a hanging tool, aborts its signal and emits tool:aborted', async () => {
    let signal: AbortSignal | undefined;
    const events: NuwaEvent[] = [];
    const registry = registryWith(weather({ execute: (_args, context) => ((signal = context.signal), new Promise(() => {})) }));
    const result = await registry.execute('get_weather', { city: 'Paris' }, { timeoutMs: 30, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ success: false, code: 'LimitExceededError' });
    expect(result.error).toMatch(/timeoutMs \(30 ms\)/);
    expect(signal?.aborted).toBe(true);
    expect(events.map((event) => event.type)).toEqual(['tool:invoking', 'tool:aborted']);
  });

  it('a tool’s own timeoutMs applies too', async () => {
    const registry = registryWith(weather({ timeoutMs: 20, execute: () => new Promise(() => {}) }));
    const result = await registry.execute('get_weather', { city: 'Paris' });
    expect(result).toMatchObject({ success: false, code: 'LimitExceededError' });
    expect(result.error).toMatch(/took longer than its timeoutMs \(20 ms\)/);
  });

  it('a signal cancels the call: AbortedError, the tool’s signal aborted', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const registry = registryWith(
      weather({
        execute: (_args, context) => {
          toolSignal = context.signal;
          setTimeout(() => controller.abort('user pressed stop'), 5);
          return new Promise(() => {});
        },
      }),
    );
    const result = await registry.execute('get_weather', { city: 'Paris' }, { signal: controller.signal });
    expect(result).toMatchObject({ success: false, code: 'AbortedError', error: 'the call was cancelled: user pressed stop' });
    expect(toolSignal?.aborted).toBe(true);
  });

  it('an already aborted signal: the tool is never invoked', async () => {
    let ran = false;
    const registry = registryWith(weather({ execute: () => ((ran = true), { city: 'x', temperature: 1 }) }));
    const result = await registry.execute('get_weather', { city: 'Paris' }, { signal: AbortSignal.abort() });
    expect(result.code).toBe('AbortedError');
    expect(ran).toBe(false);
  });

  it('nested calls through context.callTool get the same checks, and the context refuses use after the call', async () => {
    let kept: import('../../../src/tools/types.js').ToolContext | undefined;
    const registry = registryWith(weather(), {
      name: 'plan_trip',
      description: 'calls get_weather',
      parameters: [{ name: 'city', description: 'where', type: 'string' }],
      returns: 'any',
      execute: async (args, context) => {
        kept = context;
        const forecast = await context.callTool('get_weather', { city: args.city! });
        const bad = await context.callTool('get_weather', { town: 'x' }).catch((error: Error) => error.message);
        return { forecast, bad };
      },
    });
    const result = await registry.execute('plan_trip', { city: 'Lima' });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ forecast: { city: 'Lima', temperature: 18.5 }, bad: expect.stringMatching(/unknown argument `town`/) });
    await expect(kept!.callTool('get_weather', { city: 'x' })).rejects.toMatchObject({ kind: 'AbortedError' });
  });
});

describe('execute: state and events', () => {
  const counter: ToolDefinition = {
    name: 'count',
    description: 'counts calls in the session state',
    parameters: [],
    returns: 'number',
    execute: (_args, context) => {
      const next = ((context.getStateValue('count') as number | undefined) ?? 0) + 1;
      context.setState('count', next);
      return next;
    },
  };

  it('shares the default session’s state with scripts', async () => {
    const registry = registryWith(counter);
    await registry.execute('count');
    await new Interpreter(registry, { print: () => {} }).run('CALL count {}');
    expect((await registry.execute('count')).data).toBe(3);
    expect(registry.getStateValue('count')).toBe(3);
  });

  it('uses another session when asked, without touching the default one', async () => {
    const registry = registryWith(counter);
    const session = registry.createSession();
    await registry.execute('count', {}, { session });
    await registry.execute('count', {}, { session });
    expect(session.getStateValue('count')).toBe(2);
    expect(registry.hasState('count')).toBe(false);
  });

  it('emits tool:invoking and tool:completed like a script’s CALL, and tool:failed on failure', async () => {
    const events: NuwaEvent[] = [];
    const registry = registryWith(weather(), weather({ name: 'broken', execute: () => Promise.reject(new Error('down')) }));
    await registry.execute('get_weather', { city: 'Paris' }, { onEvent: (event) => events.push(event) });
    await registry.execute('broken', { city: 'Paris' }, { onEvent: (event) => events.push(event) });
    expect(events.map((event) => [event.type, 'toolName' in event ? event.toolName : '']).flat()).toEqual([
      'tool:invoking',
      'get_weather',
      'tool:invoked',
      'get_weather',
      'tool:completed',
      'get_weather',
      'tool:invoking',
      'broken',
      'tool:failed',
      'broken',
    ]);
    // A function call's identity is `call` (DURABLE.md §1: it stands nowhere in a script).
    expect(events.every((event) => 'callId' in event && event.callId === 'call')).toBe(true);
  });

  it('a listener that throws does not change the result', async () => {
    const warnings: string[] = [];
    const registry = new ToolRegistry({ logger: { warn: (message) => warnings.push(message) } });
    registry.register(weather());
    const result = await registry.execute('get_weather', { city: 'Paris' }, {
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(result.success).toBe(true);
    expect(warnings[0]).toMatch(/listener bug/);
  });
});

describe('function-calling wire formats', () => {
  function registry(): ToolRegistry {
    const r = registryWith(weather());
    r.registerToolset('math', [{ name: 'add', description: 'Adds', parameters: [{ name: 'a', description: 'first', type: 'number' }], returns: 'number', execute: (args) => args.a! }]);
    return r;
  }

  it('registry.schemas: { name, description, parameters } with exported names', () => {
    expect(registry().schemas.map((schema) => schema.name)).toEqual(['get_weather', 'math__add']);
    expect(registry().schemas[0]!.parameters).toMatchObject({ type: 'object', required: ['city'], additionalProperties: false });
  });

  it('toOpenAITools: [{ type: "function", function: { name, description, parameters } }]', () => {
    expect(toOpenAITools(registry())).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Current weather for a city', parameters: registry().lookup('get_weather')!.parametersSchema } },
      {
        type: 'function',
        function: {
          name: 'math__add',
          description: 'Adds',
          parameters: { type: 'object', properties: { a: { type: 'number', description: 'first' } }, required: ['a'], additionalProperties: false },
        },
      },
    ]);
  });

  it('toAnthropicTools: [{ name, description, input_schema }]', () => {
    const tools = toAnthropicTools(registry());
    expect(tools.map((tool) => Object.keys(tool))).toEqual([
      ['name', 'description', 'input_schema'],
      ['name', 'description', 'input_schema'],
    ]);
    expect(tools[1]).toEqual({ name: 'math__add', description: 'Adds', input_schema: registry().lookup('math.add')!.parametersSchema });
  });

  it('exported names only use the characters the formats allow, and the schemas are the host’s to change', () => {
    const r = registry();
    for (const tool of toOpenAITools(r)) expect(tool.function.name).toMatch(/^[A-Za-z0-9_-]+$/);
    const [first] = toOpenAITools(r);
    (first!.function.parameters as Record<string, unknown>).strict = true;
    expect(r.lookup('get_weather')!.parametersSchema).not.toHaveProperty('strict');
  });

  it('every exported name can be executed back', async () => {
    const r = registry();
    for (const tool of toAnthropicTools(r)) expect(r.get(tool.name)).toBeDefined();
    expect((await r.execute({ name: 'math__add', arguments: '{"a": 4}' })).data).toBe(4);
  });
});

describe('execute: bad options', () => {
  it('a registry refuses bad defaults when it is made', () => {
    expect(() => new ToolRegistry({ approve: true as never })).toThrow(/new ToolRegistry\(options\): `approve` must be a function/);
    expect(() => new ToolRegistry({ needsApproval: 'write' as never })).toThrow(/`needsApproval` must be a list of confirm levels/);
    expect(() => new ToolRegistry({ timeoutMs: -1 })).toThrow(/`timeoutMs` must be a non-negative number/);
  });

  it('a call with bad options is a failed result, not a rejection, and the tool does not run', async () => {
    let ran = false;
    const registry = registryWith(weather({ execute: () => ((ran = true), { city: 'x', temperature: 1 }) }));
    const result = await registry.execute('get_weather', { city: 'Paris' }, { signal: 'stop' as never });
    expect(result).toMatchObject({ success: false, code: 'TypeError', error: 'execute(call, options): `signal` must be an AbortSignal, got "stop"' });
    expect(await registry.execute('get_weather', { city: 'Paris' }, { needsApproval: ['sometimes'] as never })).toMatchObject({ code: 'TypeError' });
    expect(ran).toBe(false);
  });
});
