// run(source, { approvedPlan }): the calls the approved plan covers ask no one; anything else asks.
import { describe, expect, it } from 'vitest';
import { Interpreter, NuwaError, ToolRegistry, type ApprovalRequest, type NuwaEvent, type ToolContext } from '../../../src/index.js';
import { failure } from '../../support/harness.js';
import { registerCheckTools } from '../../check/tools.js';

function setup() {
  const registry = new ToolRegistry();
  registerCheckTools(registry);
  registry.register({
    name: 'cleanup',
    description: 'Deletes files through delete_file (a tool calling a tool).',
    parameters: [{ name: 'paths', description: 'files', type: 'array' }],
    returns: 'null',
    execute: async ({ paths }, context: ToolContext) => {
      for (const path of paths as string[]) await context.callTool('delete_file', { path });
      return null;
    },
  });
  const asked: ApprovalRequest[] = [];
  const events: NuwaEvent[] = [];
  const interpreter = new Interpreter(registry, {
    print: () => {},
    approve: (request) => {
      asked.push(request);
      return true;
    },
    onEvent: (event) => events.push(event),
  });
  return { interpreter, asked, events };
}

const ORDERS = `
FOR s IN ["AAPL", "MSFT", "GOOG"] DO
  CALL place_order { symbol: s, side: "buy", qty: 1 }
END`;

describe('approvedPlan', () => {
  it('covers the calls of the plan: the approve hook is not asked, and events say the plan approved them', async () => {
    const { interpreter, asked, events } = setup();
    const approved = interpreter.plan(ORDERS);
    expect(approved.needsApproval).toEqual([{ tool: 'place_order', confirm: 'write', maxCount: 3 }]);
    await interpreter.run(ORDERS, { approvedPlan: approved });
    expect(asked).toEqual([]);
    const invoking = events.filter((e) => e.type === 'tool:invoking');
    expect(invoking.map((e) => [e.toolName, e.approvedBy])).toEqual([
      ['place_order', 'plan'],
      ['place_order', 'plan'],
      ['place_order', 'plan'],
    ]);
  });

  it('without a plan, the hook is asked for each call, and events say so', async () => {
    const { interpreter, asked, events } = setup();
    await interpreter.run(ORDERS);
    expect(asked.map((r) => r.toolName)).toEqual(['place_order', 'place_order', 'place_order']);
    expect(events.filter((e) => e.type === 'tool:invoking').map((e) => e.approvedBy)).toEqual(['hook', 'hook', 'hook']);
  });

  it('a call beyond what the plan allowed asks as usual', async () => {
    const { interpreter, asked } = setup();
    const approved = interpreter.plan(ORDERS);
    const fewer = { ...approved, calls: approved.calls.map((call) => ({ ...call, maxCount: 2 })) };
    await interpreter.run(ORDERS, { approvedPlan: fewer });
    expect(asked.map((r) => r.args.symbol)).toEqual(['GOOG']);
  });

  it('an unbounded call (maxCount null) covers any number of calls', async () => {
    const { interpreter, asked } = setup();
    const source = 'FOR s IN syms DO\n  CALL delete_file { path: s }\nEND';
    const approved = interpreter.plan(source, { variables: ['syms'] });
    expect(approved.calls[0]!.maxCount).toBeNull();
    await interpreter.run(source, { approvedPlan: approved, variables: { syms: ['a', 'b', 'c', 'd', 'e'] } });
    expect(asked).toEqual([]);
  });

  it('a tool reached through context.callTool is not covered, even one the plan lists', async () => {
    const { interpreter, asked } = setup();
    const source = 'CALL delete_file { path: "one" }\nCALL cleanup { paths: ["two", "three"] }';
    const approved = interpreter.plan(source);
    expect(approved.needsApproval).toEqual([{ tool: 'delete_file', confirm: 'destructive', maxCount: 1 }]);
    await interpreter.run(source, { approvedPlan: approved });
    expect(asked.map((r) => r.args.path)).toEqual(['two', 'three']);
  });

  it('a denied call outside the plan fails as usual', async () => {
    const registry = new ToolRegistry();
    registerCheckTools(registry);
    const interpreter = new Interpreter(registry, { print: () => {} }); // no hook: calls that need approval are denied
    const approved = interpreter.plan('CALL delete_file { path: "a" }');
    await interpreter.run('CALL delete_file { path: "a" }', { approvedPlan: approved });
    const error = await failure(interpreter.run('CALL delete_file { path: "a" }\nCALL place_order { symbol: "A", side: "buy", qty: 1 }', {
      approvedPlan: { ...approved, scriptHash: interpreter.plan('CALL delete_file { path: "a" }\nCALL place_order { symbol: "A", side: "buy", qty: 1 }').scriptHash },
    }));
    expect(error.kind).toBe('ToolDeniedError');
    expect(error.line).toBe(2);
  });

  it('a plan is tied to its script: another script is refused before anything runs', async () => {
    const { interpreter, asked, events } = setup();
    const printed: string[] = [];
    const approved = interpreter.plan(ORDERS);
    const other = 'PRINT("started")\nCALL delete_file { path: "everything" }';
    const error = await failure(new Interpreter(interpreter.registry, { print: (l) => printed.push(l), approve: () => true }).run(other, { approvedPlan: approved }));
    expect(error.kind).toBe('TypeError');
    expect(error.message).toMatch(/approvedPlan was made for another script/);
    expect(printed).toEqual([]);
    expect(asked).toEqual([]);
    expect(events.filter((e) => e.type === 'tool:invoking')).toEqual([]);
  });

  it('the same program laid out differently keeps its plan (positions are not part of the hash)', async () => {
    const { interpreter, asked } = setup();
    const approved = interpreter.plan(ORDERS);
    await interpreter.run('FOR s IN ["AAPL","MSFT","GOOG"] DO CALL place_order {symbol:s,side:"buy",qty:1} END', { approvedPlan: approved });
    expect(asked).toEqual([]);
  });

  it('a plan that went through JSON works; a malformed one is refused', async () => {
    const { interpreter, asked } = setup();
    const approved = JSON.parse(JSON.stringify(interpreter.plan(ORDERS)));
    await interpreter.run(ORDERS, { approvedPlan: approved });
    expect(asked).toEqual([]);
    for (const bad of [null, 42, {}, { scriptHash: approved.scriptHash }, { scriptHash: approved.scriptHash, calls: [{ tool: 'place_order', maxCount: -1 }] }]) {
      const error = await failure(interpreter.run(ORDERS, { approvedPlan: bad as never }));
      expect(error).toBeInstanceOf(NuwaError);
      expect(error.kind).toBe('TypeError');
    }
  });
});
