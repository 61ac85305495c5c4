// Durable runs (DURABLE.md §1–2): pausing where a decision is needed, resuming from a checkpoint that
// went through JSON, replaying without invoking tools again, and refusing checkpoints that do not fit.
import { describe, expect, it } from 'vitest';
import { Interpreter, MemoryRunStore, type Checkpoint, type NuwaEvent, type RunOutcome } from '../../../src/index.js';
import { failure, setup, tool } from '../../support/harness.js';
import type { ToolDefinition } from '../../../src/tools/types.js';

/** Tools that count their invocations: a read that gives prices, a write that pays. */
function shop() {
  const calls: string[] = [];
  const tools: ToolDefinition[] = [
    tool('price', ({ symbol }) => (calls.push(`price ${String(symbol)}`), symbol === 'A' ? 10 : 20), { confirm: 'read' }),
    tool('pay', ({ amount }) => (calls.push(`pay ${String(amount)}`), { paid: amount }), { confirm: 'write' }),
  ];
  return { calls, tools };
}

const PLAN = ['LET a = CALL price { symbol: "A" }', 'PRINT(FORMAT("a is {a}", { a: a }))', 'LET r = CALL pay { amount: a * 3 }', 'PRINT(FORMAT("paid {p}", { p: r.paid }))', 'LET b = CALL price { symbol: "B" }'].join('\n');

function paused(outcome: RunOutcome): Extract<RunOutcome, { status: 'paused' }> {
  expect(outcome.status).toBe('paused');
  return outcome as Extract<RunOutcome, { status: 'paused' }>;
}

function completed(outcome: RunOutcome): Extract<RunOutcome, { status: 'completed' }> {
  if (outcome.status === 'failed') throw outcome.error;
  expect(outcome.status).toBe('completed');
  return outcome as Extract<RunOutcome, { status: 'completed' }>;
}

/** Through JSON, as a host that stores it would hand it back. */
const viaJson = (checkpoint: Checkpoint): Checkpoint => JSON.parse(JSON.stringify(checkpoint));

describe('pausing at a call that needs approval', () => {
  it("the approve hook's 'pause' stops the run there, with the call pending, and nothing after it runs", async () => {
    const { calls, tools } = shop();
    const { interpreter, printed } = setup(tools, { approve: () => 'pause' });
    const outcome = paused(await interpreter.start(PLAN, { runId: 'run-1' }));
    expect(outcome.runId).toBe('run-1');
    expect(outcome.pending).toEqual([{ callId: '3:9', kind: 'approval', toolName: 'pay', confirm: 'write', category: 'custom', args: { amount: 30 }, line: 3, column: 9 }]);
    expect(calls).toEqual(['price A']);
    expect(printed).toEqual(['a is 10']);
    expect(outcome.checkpoint).toMatchObject({ version: 1, runId: 'run-1', status: 'paused', printed: 1, pending: outcome.pending, source: PLAN });
    expect(outcome.checkpoint.log).toEqual([expect.objectContaining({ callId: '1:9', toolName: 'price', args: { symbol: 'A' }, outcome: { value: 10 } })]);
  });

  it("onApproval: 'pause' pauses without a hook; run() keeps v1's meaning and denies", async () => {
    const { tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    paused(await interpreter.start(PLAN));
    const error = await failure(interpreter.run(PLAN));
    expect(error.kind).toBe('ToolDeniedError');
    const withHook = setup(shop().tools, { approve: () => 'pause' }).interpreter;
    expect((await failure(withHook.run(PLAN))).message).toMatch(/only a durable run \(interpreter\.start\) can pause/);
  });

  it('resuming in another interpreter with true runs the call, replays the rest, and prints only the new lines', async () => {
    const { calls, tools } = shop();
    const first = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await first.interpreter.start(PLAN));
    const events: NuwaEvent[] = [];
    const second = setup(tools, { onEvent: (event) => events.push(event) });
    const done = completed(await second.interpreter.resume(viaJson(outcome.checkpoint), { decisions: { '3:9': true } }));
    expect(calls).toEqual(['price A', 'pay 30', 'price B']);
    expect(second.printed).toEqual(['paid 30']);
    expect(done.result.output).toEqual(['a is 10', 'paid 30']);
    expect(done.result.variables).toEqual({ a: 10, r: { paid: 30 }, b: 20 });
    expect(done.result.stats).toMatchObject({ steps: 5, toolCalls: 3 });
    expect(events.map((e) => e.type)).toEqual([
      'run:resumed',
      'script:started',
      'tool:replayed',
      'tool:invoking',
      'tool:invoked',
      'tool:completed',
      'tool:invoking',
      'tool:invoked',
      'tool:completed',
      'script:completed',
    ]);
    expect(events[3]).toMatchObject({ callId: '3:9', approvedBy: 'decision' });
    expect(done.checkpoint.status).toBe('completed');
    expect(done.checkpoint.log.map((c) => c.callId)).toEqual(['1:9', '3:9', '5:9']);
  });

  it('resuming with false raises ToolDeniedError at the call, and the run fails there', async () => {
    const { calls, tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(PLAN));
    const next = await interpreter.resume(outcome.checkpoint, { decisions: { '3:9': false } });
    expect(next.status).toBe('failed');
    if (next.status !== 'failed') return;
    expect(next.error).toMatchObject({ kind: 'ToolDeniedError', line: 3, column: 9 });
    expect(next.error.message).toMatch(/denied it when the run was resumed/);
    expect(calls).toEqual(['price A']);
  });

  it('resuming without a decision pauses again at the same call, and a hook may decide then', async () => {
    const { tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(PLAN));
    const again = paused(await interpreter.resume(outcome.checkpoint));
    expect(again.pending).toEqual(outcome.pending);
    const approving = setup(tools, { approve: () => true }).interpreter;
    completed(await approving.resume(again.checkpoint));
  });

  it('pauses again at the next call that needs approval, with every earlier call kept', async () => {
    const { calls, tools } = shop();
    const script = 'LET x = CALL pay { amount: 1 }\nLET y = CALL pay { amount: 2 }\nPRINT(x.paid + y.paid)';
    const { interpreter, printed } = setup(tools, { onApproval: 'pause' });
    const one = paused(await interpreter.start(script));
    const two = paused(await interpreter.resume(viaJson(one.checkpoint), { decisions: { '1:9': true } }));
    expect(two.pending.map((p) => p.callId)).toEqual(['2:9']);
    const done = completed(await interpreter.resume(viaJson(two.checkpoint), { decisions: { '2:9': true } }));
    expect(calls).toEqual(['pay 1', 'pay 2']);
    expect(done.result.output).toEqual(['3']);
    expect(printed).toEqual(['3']);
  });
});

describe('replay', () => {
  it('answers NOW() with the recorded values', async () => {
    const { tools } = shop();
    const script = 'LET t = NOW()\nLET r = CALL pay { amount: 1 }\nLET u = NOW()';
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(script));
    const [t] = outcome.checkpoint.now;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const done = completed(await interpreter.resume(outcome.checkpoint, { decisions: { '2:9': true } }));
    expect(done.result.variables.t).toBe(t);
    expect(done.result.variables.u as number).toBeGreaterThan(t!);
    expect(done.checkpoint.now).toEqual([t, done.result.variables.u]);
  });

  it('replays a recorded failure as the same error without calling the tool', async () => {
    let called = 0;
    const tools = [
      tool('flaky', () => {
        called++;
        throw new Error('down');
      }),
      tool('pay', () => 1, { confirm: 'write' }),
    ];
    const script = 'CALL pay {}\nCALL flaky {}';
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(script));
    const failed = await interpreter.resume(outcome.checkpoint, { decisions: { '1:1': true } });
    expect(failed.status).toBe('failed');
    const log = failed.checkpoint.log;
    expect(log.at(-1)).toMatchObject({ callId: '2:1', outcome: { error: { kind: 'ToolExecutionError', message: 'tool `flaky` failed: down' } } });
    expect(called).toBe(1);
  });

  it('rejects with ReplayError, naming the call, when the record does not match what the run does now', async () => {
    const { tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(PLAN));
    const tampered = viaJson(outcome.checkpoint);
    tampered.log[0]!.args = { symbol: 'Z' };
    const error = await failure(interpreter.resume(tampered, { decisions: { '3:9': true } }));
    expect(error.kind).toBe('ReplayError');
    expect(error.message).toContain('call 1:9 (line 1, column 9): it was CALL price {"symbol":"Z"}, and is now CALL price {"symbol":"A"}');
  });

  it('refuses a checkpoint whose source was changed, or a source that is not the script', async () => {
    const { tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(PLAN, { includeSource: false }));
    expect(outcome.checkpoint.source).toBeUndefined();
    expect((await failure(interpreter.resume(outcome.checkpoint))).message).toMatch(/holds no source/);
    expect((await failure(interpreter.resume(outcome.checkpoint, { source: `${PLAN}\n` }))).message).toMatch(/not the script this run was started with/);
    completed(await interpreter.resume(outcome.checkpoint, { source: PLAN, decisions: { '3:9': true } }));
    const altered = { ...viaJson(paused(await interpreter.start(PLAN)).checkpoint), source: 'PRINT(1)' };
    expect((await failure(interpreter.resume(altered))).message).toMatch(/source does not match its sourceHash/);
  });

  it('refuses to resume a run that ended, and decisions for calls the run does not wait at', async () => {
    const { tools } = shop();
    const { interpreter } = setup(tools, { approve: () => true });
    const done = completed(await interpreter.start(PLAN));
    expect((await failure(interpreter.resume(done.checkpoint))).kind).toBe('ReplayError');
    const pausing = setup(tools, { onApproval: 'pause' }).interpreter;
    const outcome = paused(await pausing.start(PLAN));
    const error = await failure(pausing.resume(outcome.checkpoint, { decisions: { '9:9': true } }));
    expect(error).toMatchObject({ kind: 'TypeError' });
    expect(error.message).toMatch(/does not wait at call 9:9 \(it waits at 3:9\)/);
    expect((await failure(pausing.resume(outcome.checkpoint, { decisions: { '3:9': 'yes' as never } }))).message).toMatch(/true or false/);
  });
});

describe('signed checkpoints', () => {
  it('with checkpointKey, resumes its own checkpoints and refuses unsigned or altered ones', async () => {
    const { tools } = shop();
    const key = 'a secret of the host';
    const { interpreter } = setup(tools, { onApproval: 'pause', checkpointKey: key });
    const outcome = paused(await interpreter.start(PLAN));
    expect(outcome.checkpoint.signature).toMatch(/^[0-9a-f]{64}$/);
    completed(await interpreter.resume(viaJson(outcome.checkpoint), { decisions: { '3:9': true } }));

    const { signature: _signature, ...unsigned } = viaJson(outcome.checkpoint);
    expect((await failure(interpreter.resume(unsigned as Checkpoint))).message).toMatch(/not signed/);
    const altered = viaJson(outcome.checkpoint);
    altered.pending[0] = { ...altered.pending[0]!, args: { amount: 1 } } as never;
    expect((await failure(interpreter.resume(altered))).message).toMatch(/altered/);
    const otherKey = setup(tools, { checkpointKey: 'another key' }).interpreter;
    expect((await failure(otherKey.resume(viaJson(outcome.checkpoint)))).kind).toBe('ReplayError');
  });
});

describe('limits across pauses', () => {
  it('maxToolCalls counts the calls made before the pause', async () => {
    const { tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause', limits: { maxToolCalls: 2 } });
    const outcome = paused(await interpreter.start(PLAN));
    const next = await interpreter.resume(outcome.checkpoint, { decisions: { '3:9': true } });
    expect(next.status).toBe('failed');
    if (next.status === 'failed') expect(next.error).toMatchObject({ kind: 'LimitExceededError', line: 5 });
  });

  it('timeoutMs counts the time spent running before the pause, not the time paused', async () => {
    const slow = tool('slow', () => new Promise((resolve) => setTimeout(() => resolve(1), 120)), { confirm: 'read' });
    const pay = tool('pay', () => 1, { confirm: 'write' });
    const script = 'CALL slow {}\nCALL pay {}\nCALL slow {}';
    const { interpreter } = setup([slow, pay], { onApproval: 'pause', limits: { timeoutMs: 200 } });
    const outcome = paused(await interpreter.start(script));
    expect(outcome.checkpoint.stats.durationMs).toBeGreaterThanOrEqual(100);
    await new Promise((resolve) => setTimeout(resolve, 250)); // paused longer than the limit: not counted
    const next = await interpreter.resume(outcome.checkpoint, { decisions: { '2:1': true } });
    expect(next.status).toBe('failed');
    if (next.status === 'failed') expect(next.error).toMatchObject({ kind: 'LimitExceededError', line: 3 });
  });
});

describe('a tool whose own call waits', () => {
  it('pauses inside the tool; on resume the tool runs again and its recorded calls are replayed', async () => {
    const invocations: string[] = [];
    const tools = [
      tool('check', () => (invocations.push('check'), 'ok'), { confirm: 'read' }),
      tool('transfer', () => (invocations.push('transfer'), 'moved'), { confirm: 'write' }),
      tool('batch', async (_args, context) => {
        invocations.push('batch');
        const checked = await context.callTool('check', {});
        const moved = await context.callTool('transfer', {});
        return `${String(checked)} ${String(moved)}`;
      }),
    ];
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start('LET r = CALL batch {}\nPRINT(r)'));
    expect(outcome.pending.map((p) => p.callId)).toEqual(['1:9>1']);
    expect(outcome.checkpoint.log.map((c) => c.callId)).toEqual(['1:9>0']);
    const done = completed(await interpreter.resume(viaJson(outcome.checkpoint), { decisions: { '1:9>1': true } }));
    expect(done.result.output).toEqual(['ok moved']);
    expect(invocations).toEqual(['batch', 'check', 'batch', 'transfer']);
  });
});

describe('options', () => {
  it('are checked: a bad one rejects with a NuwaError naming it', async () => {
    const { interpreter } = setup(shop().tools);
    expect((await failure(interpreter.start(PLAN, { runId: '../x' }))).message).toMatch(/runId/);
    expect((await failure(interpreter.start(PLAN, { store: {} as never }))).message).toMatch(/store must be a run store/);
    expect((await failure(interpreter.start(PLAN, { nope: 1 } as never))).message).toMatch(/unknown option `nope`/);
    expect((await failure(interpreter.start(42 as never))).message).toMatch(/script text/);
    expect((await failure(interpreter.resume(null as never))).kind).toBe('ReplayError');
    expect((await failure(interpreter.resume({ version: 2 } as never))).message).toMatch(/version 2/);
    expect((await failure(interpreter.recover('r', {} as never))).message).toMatch(/store/);
  });

  it('a script error is a failed outcome, not a rejection', async () => {
    const { interpreter } = setup(shop().tools);
    const outcome = await interpreter.start('LET x = 1 / 0');
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error.kind).toBe('DivisionByZeroError');
  });
});

describe('with a store', () => {
  it('records the run as it goes: the inbox lists it paused, then completed', async () => {
    const store = new MemoryRunStore();
    const { tools } = shop();
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start(PLAN, { store, runId: 'inbox-1' }));
    expect(await store.list({ status: 'paused' })).toEqual([expect.objectContaining({ runId: 'inbox-1', status: 'paused', pending: outcome.pending })]);
    const stored = await store.load('inbox-1');
    expect(stored?.checkpoint).toEqual(outcome.checkpoint);
    completed(await interpreter.resume(stored!.checkpoint, { store, decisions: { '3:9': true } }));
    expect((await store.load('inbox-1'))?.status).toBe('completed');
    expect(await store.list({ status: 'paused' })).toEqual([]);
  });

  it('two drivers of one run: the second gets ConflictError', async () => {
    const store = new MemoryRunStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tools = [tool('wait', () => gate.then(() => 1), { confirm: 'read' }), tool('pay', () => 1, { confirm: 'write' })];
    const { interpreter } = setup(tools, { onApproval: 'pause' });
    const outcome = paused(await interpreter.start('CALL pay {}\nCALL wait {}', { store, runId: 'busy' }));
    const first = interpreter.resume(outcome.checkpoint, { store, decisions: { '1:1': true } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const error = await failure(interpreter.resume(outcome.checkpoint, { store, decisions: { '1:1': true } }));
    expect(error.kind).toBe('ConflictError');
    expect((await failure(store.delete('busy'))).kind).toBe('ConflictError');
    release();
    completed(await first);
    expect((await failure(interpreter.start('PRINT(1)', { store, runId: 'busy' }))).kind).toBe('ConflictError');
  });
});

describe('Interpreter', () => {
  it('has start, resume and recover', () => {
    expect(typeof Interpreter.prototype.start).toBe('function');
    expect(typeof Interpreter.prototype.resume).toBe('function');
    expect(typeof Interpreter.prototype.recover).toBe('function');
  });
});

describe('a tool that asks (context.ask)', () => {
  const asking = () => {
    const asked: string[] = [];
    const deleted: string[] = [];
    const tools = [
      tool(
        'delete_files',
        async ({ pattern }, context) => {
          const answer = await context.ask(`Delete every file matching ${String(pattern)}?`, { choices: ['yes', 'no'] });
          asked.push(answer);
          if (answer === 'yes') deleted.push(String(pattern));
          return answer === 'yes' ? 'deleted' : 'kept';
        },
        { confirm: 'read' },
      ),
    ];
    return { asked, deleted, tools };
  };

  it('pauses without an ask hook; the answer given on resume is what context.ask returns, recorded for later replays', async () => {
    const { asked, deleted, tools } = asking();
    const { interpreter } = setup(tools);
    const outcome = paused(await interpreter.start('LET r = CALL delete_files { pattern: "*.tmp" }\nPRINT(r)'));
    expect(outcome.pending).toEqual([{ callId: '1:9>0', kind: 'question', question: 'Delete every file matching *.tmp?', choices: ['yes', 'no'], line: 1, column: 9 }]);
    expect(asked).toEqual([]);
    const done = completed(await interpreter.resume(viaJson(outcome.checkpoint), { decisions: { '1:9>0': { answer: 'yes' } } }));
    expect(done.result.output).toEqual(['deleted']);
    expect(deleted).toEqual(['*.tmp']);
    expect(done.checkpoint.log).toEqual([
      expect.objectContaining({ callId: '1:9>0', toolName: 'context.ask', outcome: { value: 'yes' } }),
      expect.objectContaining({ callId: '1:9', toolName: 'delete_files', outcome: { value: 'deleted' } }),
    ]);
  });

  it("an ask hook's { pause: true } pauses too; an answer outside the choices is refused on resume", async () => {
    const { tools } = asking();
    const { interpreter } = setup(tools, { ask: () => ({ pause: true }) });
    const outcome = paused(await interpreter.start('LET r = CALL delete_files { pattern: "a" }'));
    const bad = await interpreter.resume(outcome.checkpoint, { decisions: { '1:9>0': { answer: 'maybe' } } });
    expect(bad.status).toBe('failed');
    if (bad.status === 'failed') expect(bad.error.message).toMatch(/not one of the choices/);
    expect((await failure(interpreter.resume(outcome.checkpoint, { decisions: { '1:9>0': true } }))).message).toMatch(/\{ answer: "\.\.\." \}/);
  });

  it('run() keeps v1: no hook is a ToolExecutionError the tool sees', async () => {
    const { tools } = asking();
    const { interpreter } = setup(tools);
    expect((await failure(interpreter.run('CALL delete_files { pattern: "a" }'))).message).toMatch(/no ask hook/);
  });
});

describe('arguments as checked', () => {
  it('replays a call whose arguments were coerced and given defaults, and refuses one whose tool now fills in another default', async () => {
    const calls: string[] = [];
    const quote = (parameters: object) =>
      tool('quote', (args) => (calls.push(JSON.stringify(args)), 1), { confirm: 'read', parameters: parameters as never });
    const v1 = { type: 'object', properties: { symbol: { type: 'string' }, venue: { type: 'string', default: 'NYSE' } }, required: ['symbol'] };
    const pay = tool('pay', () => 1, { confirm: 'write' });
    const script = 'CALL quote { symbol: 42 }\nCALL pay {}';
    const first = paused(await setup([quote(v1), pay], { onApproval: 'pause' }).interpreter.start(script));
    expect(first.checkpoint.log[0]!.args).toEqual({ symbol: '42', venue: 'NYSE' });
    completed(await setup([quote(v1), pay]).interpreter.resume(first.checkpoint, { decisions: { '2:1': true } }));
    expect(calls).toEqual(['{"symbol":"42","venue":"NYSE"}']);
    const v2 = { ...v1, properties: { ...v1.properties, currency: { type: 'string', default: 'USD' } } };
    const error = await failure(setup([quote(v2), pay]).interpreter.resume(first.checkpoint, { decisions: { '2:1': true } }));
    expect(error.kind).toBe('ReplayError');
    expect(calls).toHaveLength(1);
  });
});
