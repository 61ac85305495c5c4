// What a run on DBOS records of a call, and how a replay gives it back (src/dbos/record.ts): a call
// answered from its record must end exactly as it ended when the tool ran — the same value, the same
// ToolResultError for an answer that is not JSON, the same ToolExecutionError with the tool's code and
// details. Checked through the real call path, with a journal that keeps each answer as DBOS would
// (JSON) and hands back the record instead of the tool's answer. And the names, the reading of a
// run's record, and DBOS's own divergence as a ReplayError.
import { Error as DBOSErrors } from '@dbos-inc/dbos-sdk';
import { describe, expect, it } from 'vitest';
import { RunJournal } from '../../../src/api/journal.js';
import { decisionTopic } from '../../../src/dbos/decisions.js';
import { divergence } from '../../../src/dbos/journal.js';
import { callStepName, invocationOf, logOf, NOW_STEP, readRecord, recordedAnswer, thrownRecord, type CallStep, type StepOutcome } from '../../../src/dbos/record.js';
import { defineTool, Interpreter, isNuwaError, NuwaError, ToolRegistry } from '../../../src/index.js';
import type { RegisteredTool } from '../../../src/tools/build.js';
import type { JsonObject } from '../../../src/values/json.js';

/** Each call's answer kept as JSON, as DBOS keeps a step's output, and the record handed back. */
class RecordingJournal extends RunJournal {
  readonly records: StepOutcome[] = [];
  invoke(_callId: string, _tool: RegisteredTool, _args: JsonObject, invoke: () => unknown): unknown {
    return invocationOf(invoke).then((done) => {
      const outcome: StepOutcome = 'threw' in done ? { thrown: thrownRecord(done.threw) } : done.outcome;
      const kept = JSON.parse(JSON.stringify(outcome)) as Exclude<StepOutcome, { paused: unknown }>;
      this.records.push(kept);
      return recordedAnswer(kept);
    });
  }
}

function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  const tool = (name: string, execute: () => unknown) => tools.register({ name, description: name, parameters: [], returns: 'any', execute: execute as never });
  tool('value', async () => ({ price: 189.84, tags: ['a', 'b'], missing: undefined }));
  tool('not_json', () => ({ when: new Date(0) }));
  tool('a_function', () => () => 1);
  tool('throws', () => {
    throw new TypeError('the service said no');
  });
  tool('rejects', () => Promise.reject(new Error('timed out upstream')));
  tools.register(
    defineTool({
      id: 'enveloped',
      name: 'enveloped',
      description: 'Fails in its envelope, with a code and details',
      execute: async () => ({ success: false, error: { message: 'no stock left', code: 'E_STOCK', details: { left: 0 } } }),
    }),
  );
  return tools;
}

async function ended(script: string, journal?: RecordingJournal) {
  const interpreter = new Interpreter(registry());
  if (journal === undefined) {
    try {
      return { value: (await interpreter.run(script)).variables.x };
    } catch (error) {
      if (!isNuwaError(error)) throw error;
      return { error: { kind: error.kind, message: error.message, code: error.code, details: error.details } };
    }
  }
  const outcome = await interpreter.runWithJournal(script, journal, { runId: 'replayed' });
  if (outcome.status === 'completed') return { value: outcome.result.variables.x };
  if (outcome.status !== 'failed') throw new Error(outcome.status);
  const { error } = outcome;
  return { error: { kind: error.kind, message: error.message, code: error.code, details: error.details } };
}

describe('a call answered from its record', () => {
  it.each(['value', 'not_json', 'a_function', 'throws', 'rejects', 'enveloped'])('%s ends as the call ended when the tool ran', async (tool) => {
    const script = `LET x = CALL ${tool} {}`;
    const journal = new RecordingJournal();
    const direct = await ended(script);
    expect(await ended(script, journal)).toEqual(direct);
    expect(journal.records).toHaveLength(1);
  });

  it('keeps a tool failure’s code and details, and an answer that is not JSON as its reason only', async () => {
    const [failing, notJson] = [new RecordingJournal(), new RecordingJournal()];
    await ended('LET x = CALL enveloped {}', failing);
    await ended('LET x = CALL a_function {}', notJson);
    expect(failing.records).toEqual([{ thrown: { message: 'no stock left', failure: { code: 'E_STOCK', details: { left: 0 } } } }]);
    expect(notJson.records).toEqual([{ notJson: 'the value is a function, which is not a JSON value' }]);
    expect(() => recordedAnswer({ thrown: { message: 'plain' } })).toThrow(/^plain$/);
  });
});

describe('names and records', () => {
  it('a call step is named by its callId, tool and a hash of its checked arguments, whatever their key order', () => {
    const name = callStepName('12:9/3', 'pay', { invoice: 'INV-7', amount: 80 });
    expect(name).toMatch(/^nuwa\.call 12:9\/3 pay [0-9a-f]{16}$/);
    expect(callStepName('12:9/3', 'pay', { amount: 80, invoice: 'INV-7' })).toBe(name);
    expect(callStepName('12:9/3', 'pay', { amount: 81, invoice: 'INV-7' })).not.toBe(name);
  });

  it('each wait of a call has its own decision topic; the first is the call’s own', () => {
    expect(decisionTopic('5:15')).toBe('nuwa.decision:5:15');
    expect(decisionTopic('5:15', 1)).toBe('nuwa.decision:5:15#1');
  });

  it('a run’s record: NOW() values in order, call steps by callId, and a log with the calls tools made', () => {
    const step = (callId: string, outcome: StepOutcome, endedAt: number, nested: CallStep['nested'] = []): CallStep => ({ callId, toolName: 'pay', args: {}, outcome, nested, startedAt: endedAt - 1, endedAt });
    const asked = { callId: '4:1>0', toolName: 'context.ask', args: { question: 'sure?' }, outcome: { value: 'yes' }, startedAt: 5, endedAt: 5 };
    const record = readRecord([
      { functionID: 3, name: 'nuwa.call 4:1 pay x', output: step('4:1', { value: 2 }, 6, [asked]), error: null, childWorkflowID: null },
      { functionID: 1, name: NOW_STEP, output: 1000, error: null, childWorkflowID: null },
      { functionID: 2, name: 'nuwa.call 2:1 pay x', output: step('2:1', { thrown: { message: 'boom' } }, 3), error: null, childWorkflowID: null },
      { functionID: 4, name: 'DBOS.setEvent', output: null, error: null, childWorkflowID: null },
      { functionID: 5, name: NOW_STEP, output: 2000, error: null, childWorkflowID: null },
    ]);
    expect(record.now).toEqual([1000, 2000]);
    expect([...record.calls.keys()]).toEqual(['2:1', '4:1']);
    expect(logOf(record).map((call) => [call.callId, call.outcome])).toEqual([
      ['2:1', { error: { kind: 'ToolExecutionError', message: 'tool `pay` failed: boom' } }],
      ['4:1>0', { value: 'yes' }],
      ['4:1', { value: 2 }],
    ]);
  });

  it('another step where DBOS recorded one is a ReplayError naming both, as a script author knows them', () => {
    const error = divergence(new DBOSErrors.DBOSUnexpectedStepError('run-1', 7, 'nuwa.call 3:9 pay 0123456789abcdef', NOW_STEP));
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.kind).toBe('ReplayError');
    expect(error.message).toBe(
      'the run no longer matches its record at its step 7: NOW() was recorded there, and the run now makes the call 3:9 (CALL pay); the script, a tool or the tools loaded changed since the run was recorded',
    );
  });
});
