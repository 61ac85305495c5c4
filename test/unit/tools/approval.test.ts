// Unit tests for the approval policy of src/tools/invoke.ts (TOOLS.md §6, API.md `approve`,
// `needsApproval`), through Interpreter runs.
import { describe, expect, it, vi } from 'vitest';
import type { NuwaEvent } from '../../../src/events.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import type { InterpreterOptions } from '../../../src/api/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ApprovalRequest, ConfirmLevel } from '../../../src/tools/types.js';
import { failure } from '../../support/harness.js';

function setup(options: InterpreterOptions = {}) {
  const registry = new ToolRegistry();
  const invoked: string[] = [];
  for (const confirm of ['none', 'read', 'write', 'destructive'] as ConfirmLevel[]) {
    registry.register({
      name: `${confirm}_tool`,
      description: `a ${confirm} tool`,
      parameters: [{ name: 'path', description: 'a path', type: 'string', required: false }],
      returns: 'string',
      confirm,
      category: confirm === 'none' ? 'data' : 'file',
      execute: () => {
        invoked.push(confirm);
        return `${confirm} done`;
      },
    });
  }
  const events: NuwaEvent[] = [];
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), onEvent: (event) => events.push(event), ...options });
  return { registry, interpreter, invoked, events, printed };
}

describe('default policy without a hook', () => {
  it('runs none and read tools without asking', async () => {
    const { interpreter, invoked } = setup();
    const result = await interpreter.run('LET a = CALL none_tool {} LET b = CALL read_tool {}');
    expect(result.variables).toEqual({ a: 'none done', b: 'read done' });
    expect(invoked).toEqual(['none', 'read']);
  });

  it.each(['write', 'destructive'])('denies a %s tool with ToolDeniedError; the tool never runs', async (level) => {
    const { interpreter, invoked, printed } = setup();
    const error = await failure(interpreter.run(`LET a = 1\n  CALL ${level}_tool { path: "x" }\nPRINT("after")`));
    expect(error.kind).toBe('ToolDeniedError');
    expect(error.toolName).toBe(`${level}_tool`);
    expect(error.message).toMatch(new RegExp(`${level}_tool.*denied`));
    expect([error.line, error.column]).toEqual([2, 3]);
    expect(invoked).toEqual([]);
    expect(printed).toEqual([]);
  });

  it('emits a tool:denied event', async () => {
    const { interpreter, events } = setup();
    await failure(interpreter.run('CALL destructive_tool {}'));
    const denied = events.filter((event) => event.type === 'tool:denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ type: 'tool:denied', toolName: 'destructive_tool', confirm: 'destructive' });
    expect(typeof denied[0]!.executionId).toBe('string');
    expect(typeof denied[0]!.timestamp).toBe('number');
    expect(events.some((event) => event.type === 'tool:invoking')).toBe(false);
    expect(events.map((event) => event.type)).toEqual(['script:started', 'tool:denied', 'script:failed']);
  });
});

describe('with an approval hook', () => {
  it('runs a write tool when a sync hook returns true', async () => {
    const approve = vi.fn(() => true);
    const { interpreter, invoked } = setup({ approve });
    const result = await interpreter.run('LET r = CALL write_tool { path: "a.txt" }');
    expect(result.variables.r).toBe('write done');
    expect(invoked).toEqual(['write']);
    expect(approve).toHaveBeenCalledTimes(1);
  });

  it('runs a destructive tool when an async hook resolves true', async () => {
    const approve = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return true;
    });
    const { interpreter, invoked } = setup({ approve });
    expect((await interpreter.run('LET r = CALL destructive_tool {}')).variables.r).toBe('destructive done');
    expect(invoked).toEqual(['destructive']);
  });

  it('asks with { toolName, confirm, category, args, callId } (the checked arguments)', async () => {
    const requests: ApprovalRequest[] = [];
    const { interpreter } = setup({ approve: (request) => (requests.push(request), true) });
    await interpreter.run('CALL write_tool { path: 42 } CALL destructive_tool {}');
    expect(requests).toEqual([
      { toolName: 'write_tool', confirm: 'write', category: 'file', args: { path: '42' }, callId: '1:1' },
      { toolName: 'destructive_tool', confirm: 'destructive', category: 'file', args: {}, callId: '1:30' },
    ]);
  });

  it('does not ask about none and read tools', async () => {
    const approve = vi.fn(() => false);
    const { interpreter, invoked } = setup({ approve });
    await interpreter.run('CALL none_tool {} CALL read_tool {}');
    expect(approve).not.toHaveBeenCalled();
    expect(invoked).toEqual(['none', 'read']);
  });

  it.each([
    ['returns false', () => false],
    ['resolves false', async () => false],
    ['returns a truthy non-boolean', () => 'yes' as unknown as boolean],
    [
      'throws',
      () => {
        throw new Error('hook broke');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('hook broke'))],
  ])('denies when the hook %s', async (_label, approve) => {
    const { interpreter, invoked, events } = setup({ approve });
    const error = await failure(interpreter.run('CALL write_tool {}'));
    expect(error.kind).toBe('ToolDeniedError');
    expect(invoked).toEqual([]);
    expect(events.filter((event) => event.type === 'tool:denied')).toHaveLength(1);
  });

  it('names a failing hook in the denial message', async () => {
    const { interpreter } = setup({
      approve: () => {
        throw new Error('hook broke');
      },
    });
    expect((await failure(interpreter.run('CALL write_tool {}'))).message).toMatch(/hook broke/);
  });

  it('checks arguments before asking: the hook is not asked about an invalid call', async () => {
    const approve = vi.fn(() => true);
    const { interpreter } = setup({ approve });
    const error = await failure(interpreter.run('CALL write_tool { path: [1] }'));
    expect(error.kind).toBe('ToolArgumentError');
    expect(approve).not.toHaveBeenCalled();
  });
});

describe('needsApproval', () => {
  it('changes which levels ask', async () => {
    const asked: string[] = [];
    const { interpreter, invoked } = setup({ needsApproval: ['read'], approve: (request) => (asked.push(request.toolName), false) });
    const result = await interpreter.run('CALL none_tool {} CALL write_tool {} CALL destructive_tool {}');
    expect(result.stats.toolCalls).toBe(3);
    expect(invoked).toEqual(['none', 'write', 'destructive']);
    expect(asked).toEqual([]);
    const error = await failure(interpreter.run('CALL read_tool {}'));
    expect(error.kind).toBe('ToolDeniedError');
    expect(asked).toEqual(['read_tool']);
  });

  it('an empty list asks about nothing, even without a hook', async () => {
    const { interpreter, invoked } = setup({ needsApproval: [] });
    await interpreter.run('CALL destructive_tool {} CALL write_tool {}');
    expect(invoked).toEqual(['destructive', 'write']);
  });

  it('can make every level ask', async () => {
    const asked: string[] = [];
    const { interpreter } = setup({ needsApproval: ['none', 'read', 'write', 'destructive'], approve: (request) => (asked.push(request.confirm), true) });
    await interpreter.run('CALL none_tool {} CALL read_tool {} CALL write_tool {} CALL destructive_tool {}');
    expect(asked).toEqual(['none', 'read', 'write', 'destructive']);
  });
});
