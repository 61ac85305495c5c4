// Unit tests for a risk level that depends on the arguments (ToolDefinition.confirmFor; TOOLS.md §6,
// §12: http.request is read for GET and HEAD, write otherwise): what the approve hook is asked, the
// denial, the event, the plan, and a confirmFor that misbehaves.
import { describe, expect, it } from 'vitest';
import { plan } from '../../../src/check/check.js';
import type { NuwaEvent } from '../../../src/events.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { defineTool } from '../../../src/tools/forms.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ApprovalRequest, ConfirmLevel, ToolDefinition } from '../../../src/tools/types.js';
import type { JsonObject } from '../../../src/values/json.js';
import { failure } from '../../support/harness.js';

/** `send`: write, but read when `dryRun` is true (its default). */
function sendTool(confirmFor: (args: JsonObject) => unknown = (args) => (args.dryRun === true ? 'read' : 'write')): ToolDefinition {
  return {
    name: 'send',
    description: 'sends, or only pretends to',
    parameters: { type: 'object', properties: { to: { type: 'string' }, dryRun: { type: 'boolean', default: true } }, required: ['to'] },
    returns: 'string',
    confirm: 'write',
    confirmFor: confirmFor as (args: JsonObject) => ConfirmLevel,
    execute: ({ to, dryRun }) => `${dryRun ? 'would send' : 'sent'} to ${String(to)}`,
  };
}

function setup(definition: ToolDefinition = sendTool(), answer = true) {
  const registry = new ToolRegistry();
  registry.register(definition);
  const requests: ApprovalRequest[] = [];
  const events: NuwaEvent[] = [];
  const interpreter = new Interpreter(registry, { print: () => {}, approve: (request) => (requests.push(request), answer), onEvent: (event) => events.push(event) });
  return { registry, interpreter, requests, events };
}

describe('confirmFor', () => {
  it('decides per call, from the checked arguments with defaults filled in', async () => {
    const { interpreter, requests } = setup();
    const result = await interpreter.run('LET a = CALL send { to: "x" }\nLET b = CALL send { to: "y", dryRun: "false" }');
    expect(result.variables).toEqual({ a: 'would send to x', b: 'sent to y' });
    expect(requests).toEqual([{ toolName: 'send', confirm: 'write', category: 'custom', args: { to: 'y', dryRun: false }, callId: '2:9' }]);
  });

  it('names the call\'s level in the denial and the tool:denied event', async () => {
    const { interpreter, events } = setup(sendTool((args) => (args.dryRun === true ? 'read' : 'destructive')), false);
    const error = await failure(interpreter.run('CALL send { to: "y", dryRun: false }'));
    expect(error.kind).toBe('ToolDeniedError');
    expect(error.message).toContain('(a destructive action)');
    expect(events.find((event) => event.type === 'tool:denied')).toMatchObject({ confirm: 'destructive' });
  });

  it('gets its own copy of the arguments', async () => {
    const { interpreter } = setup(
      sendTool((args) => {
        args.to = 'changed';
        return 'read';
      }),
    );
    expect((await interpreter.run('LET a = CALL send { to: "x" }')).variables.a).toBe('would send to x');
  });

  it.each([
    ['throws', () => { throw new Error('boom'); }],
    ['answers something that is not a level', () => 'harmless'],
    ['answers nothing', () => undefined],
  ])('counts as the tool\'s confirm when it %s', async (_what, misbehaving) => {
    const { interpreter, requests } = setup(sendTool(misbehaving));
    await interpreter.run('CALL send { to: "x" }');
    expect(requests.map((request) => request.confirm)).toEqual(['write']);
  });

  it('must be a function', () => {
    expect(() => new ToolRegistry().register({ ...sendTool(), confirmFor: 'read' as unknown as () => ConfirmLevel })).toThrow(/confirmFor must be a function/);
  });

  it('is kept through defineTool (sdkwork form)', async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        id: 'mail-send',
        name: 'mail.send',
        description: 'sends mail',
        confirm: 'write',
        confirmFor: (input) => (input.draft === true ? 'read' : 'write'),
        input: { type: 'object', properties: { draft: { type: 'boolean' } } },
        execute: async () => ({ success: true, data: 'ok' }),
      }),
    );
    const asked: string[] = [];
    const interpreter = new Interpreter(registry, { print: () => {}, approve: ({ confirm }) => (asked.push(confirm), true) });
    await interpreter.run('CALL mail.send { draft: true }\nCALL mail.send { draft: false }');
    expect(asked).toEqual(['write']);
  });

  it('sets the level a plan shows for a call whose arguments are all literals, else the tool\'s own', () => {
    const { registry } = setup();
    const result = plan('CALL send { to: "a" }\nCALL send { to: "b", dryRun: false }\nCALL send { to: who }', registry, { variables: ['who'] });
    expect(result.calls.map((call) => call.confirm)).toEqual(['read', 'write', 'write']);
    expect(result.needsApproval).toEqual([{ tool: 'send', confirm: 'write', maxCount: 2 }]);
  });

  it('is asked before the function runs, and the plan covers what it approved', async () => {
    const { registry, interpreter, requests } = setup(sendTool(), false);
    const source = 'LET a = CALL send { to: "x", dryRun: false }';
    const approved = plan(source, registry);
    expect((await interpreter.run(source, { approvedPlan: approved })).variables.a).toBe('sent to x');
    expect(requests).toEqual([]);
  });
});
