// Unit tests for events (TOOLS.md §8): the registry's tool:registered / tool:unregistered to
// registry.on, and tool:aborted in a run's event stream for a call stopped from outside the tool.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NuwaEvent } from '../../../src/events.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { defineTool } from '../../../src/tools/forms.js';
import { ToolRegistry, type RegistryEvent } from '../../../src/tools/registry.js';
import { failure, tool } from '../../support/harness.js';

afterEach(() => vi.restoreAllMocks());

describe('registry.on', () => {
  it('tells listeners about every registration form and every unregistration', () => {
    const registry = new ToolRegistry();
    const events: RegistryEvent[] = [];
    registry.on('tool:registered', (event) => events.push(event));
    registry.on('tool:unregistered', (event) => events.push(event));
    const before = Date.now();
    registry.register(tool('a', () => 1));
    registry.register('b', async () => ({ success: true }), { description: 'plaited' });
    registry.register(defineTool({ id: 'c-tool', name: 'C', description: 'sdkwork', source: 'module', execute: async () => ({ success: true }) }));
    registry.registerToolset('g', [tool('d', () => 1)]);
    registry.unregister('c-tool');
    registry.unregister('missing');
    expect(events.map((event) => `${event.type} ${event.toolName} ${event.source}`)).toEqual([
      'tool:registered a local',
      'tool:registered b local',
      'tool:registered C module',
      'tool:registered g.d local',
      'tool:unregistered C module',
    ]);
    expect(events[0]!.tool).toBe(registry.lookup('a'));
    expect(events.every((event) => event.timestamp >= before && event.timestamp <= Date.now())).toBe(true);
  });

  it('is not told about a registration that fails', () => {
    const registry = new ToolRegistry();
    const listener = vi.fn();
    registry.on('tool:registered', listener);
    registry.register(tool('a', () => 1));
    expect(() => registry.register(tool('a', () => 2))).toThrow(/already registered/);
    expect(() => registry.register(tool('bad name', () => 2))).toThrow(/not a valid tool name/);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('returns a function that stops listening', () => {
    const registry = new ToolRegistry();
    const listener = vi.fn();
    const off = registry.on('tool:registered', listener);
    registry.register(tool('a', () => 1));
    off();
    off();
    registry.register(tool('b', () => 1));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a throwing listener does not stop registration or the other listeners; it is reported as a warning', () => {
    const registry = new ToolRegistry();
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const second = vi.fn();
    registry.on('tool:registered', () => {
      throw new Error('listener bug');
    });
    registry.on('tool:registered', second);
    registry.register(tool('a', () => 1));
    expect(registry.has('a')).toBe(true);
    expect(second).toHaveBeenCalledTimes(1);
    expect(String(warning.mock.calls[0]![0])).toMatch(/a registry tool:registered listener threw: listener bug/);
  });

  it('refuses an unknown event type or a listener that is not a function', () => {
    const registry = new ToolRegistry();
    expect(() => registry.on('tool:invoking' as never, () => {})).toThrow(/unknown event "tool:invoking"/);
    expect(() => registry.on('tool:registered', 'x' as never)).toThrow(/listener must be a function/);
  });
});

describe('tool:aborted', () => {
  function run(tools: Parameters<typeof tool>[], options: ConstructorParameters<typeof Interpreter>[1] = {}) {
    const registry = new ToolRegistry();
    for (const args of tools) registry.register(tool(...args));
    const events: NuwaEvent[] = [];
    const interpreter = new Interpreter(registry, { print: () => {}, onEvent: (event) => events.push(event), ...options });
    return { interpreter, events };
  }

  it('a tool stopped by its own timeoutMs', async () => {
    const { interpreter, events } = run([['slow', () => new Promise(() => {}), { timeoutMs: 20 }]]);
    const error = await failure(interpreter.run('CALL slow {}'));
    expect(error.kind).toBe('LimitExceededError');
    expect(events.map((event) => event.type)).toEqual(['script:started', 'tool:invoking', 'tool:aborted', 'script:failed']);
    const aborted = events[2] as Extract<NuwaEvent, { type: 'tool:aborted' }>;
    expect(aborted).toMatchObject({ toolName: 'slow', error: { kind: 'LimitExceededError' } });
    expect(aborted.duration).toBeGreaterThanOrEqual(0);
    expect(aborted.executionId).toBe((events[1] as Extract<NuwaEvent, { type: 'tool:invoking' }>).executionId);
  });

  it('a tool stopped by the run’s timeout', async () => {
    const { interpreter, events } = run([['hang', () => new Promise(() => {})]], { limits: { timeoutMs: 30 } });
    expect((await failure(interpreter.run('CALL hang {}'))).kind).toBe('LimitExceededError');
    expect(events.filter((event) => event.type === 'tool:aborted')).toHaveLength(1);
  });

  it('is not emitted for a tool that fails by itself', async () => {
    const { interpreter, events } = run([['bad', () => Promise.reject(new Error('no'))]]);
    await failure(interpreter.run('CALL bad {}'));
    expect(events.map((event) => event.type)).toContain('tool:failed');
    expect(events.map((event) => event.type)).not.toContain('tool:aborted');
  });
});
