// Unit tests for src/runtime/evaluator.ts: list comprehensions (LANGUAGE.md §8) compiled and run,
// with their scope and the calls of their elements. The rest of the evaluator: evaluator.test.ts.
import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../../src/runtime/evaluator.js';
import { Scope } from '../../../src/runtime/scope.js';
import { parse } from '../../../src/syntax/parse.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { toJson } from '../../../src/values/values.js';
import { exec, expectFailure, failure, makeRun, registryWith } from '../../support/evaluator-runs.js';

describe('list comprehensions', () => {
  it('runs a comprehension without CALL synchronously, one step per item', () => {
    const output: string[] = [];
    const run = makeRun(output);
    const pending = compileProgram(parse('LET ys = [x * 2 FOR x IN [1, 2, 3, 4] IF x % 2 == 0]\nPRINT(ys)'))(run, new Scope(null));
    run.finish();
    expect(pending).toBeUndefined();
    expect(output).toEqual(['[4,8]']);
    // LET, 4 items, PRINT
    expect(run.steps).toBe(6);
  });

  it('makes no promise inside an expression while its time slice lasts', () => {
    // (Elements that call tools run concurrently, DURABLE.md §4: they always wait, for their turn.)
    for (const source of ['PRINT([x FOR x IN [1, 2]])', 'LET s = SUM([x * 2 FOR x IN [1, 2]]) + LEN([[y FOR y IN [x]] FOR x IN [3]])', 'PRINT(SUM([CALL t { x: x } FOR x IN [1]]))']) {
      const output: string[] = [];
      const run = makeRun(output, registryWith({ t: ({ x }) => x }));
      const pending = compileProgram(parse(source))(run, new Scope(null));
      run.finish();
      expect(pending, source).toBeUndefined();
    }
  });

  it('evaluates the list once and the element for each item that passes, in item order', async () => {
    const seen: unknown[] = [];
    const { output } = await exec('PRINT([CALL echo { v: x } FOR x IN CALL list {} IF x != "b"])', {
      list: () => (seen.push('list'), ['a', 'b', 'c']),
      echo: ({ v }) => (seen.push(v), String(v).toUpperCase()),
    });
    expect(output).toEqual(['["A","C"]']);
    expect(seen).toEqual(['list', 'a', 'c']);
  });

  it('waits for each element in turn, and keeps item order whatever the tools take', async () => {
    const started: number[] = [];
    const { output } = await exec('PRINT([CALL slow { ms: ms } FOR ms IN [30, 1, 15]])', {
      slow: async ({ ms }) => {
        started.push(ms as number);
        await new Promise((resolve) => setTimeout(resolve, ms as number));
        return ms;
      },
    });
    expect(output).toEqual(['[30,1,15]']);
    expect(started).toEqual([30, 1, 15]);
  });

  it('returns something to wait for when a tool in an element returns a promise, and nothing when it answers at once', async () => {
    const source = 'LET a = [CALL t { x: x } FOR x IN [1, 2]]';
    const waiting = makeRun([], registryWith({ t: async ({ x }) => x }));
    const pending = compileProgram(parse(source))(waiting, new Scope(null));
    expect(typeof pending?.then).toBe('function');
    await pending;
    waiting.finish();
    const top = new Scope(null);
    const atOnce = makeRun([], registryWith({ t: ({ x }) => x }));
    const result = compileProgram(parse(source))(atOnce, top);
    await result;
    atOnce.finish();
    expect(toJson(top.lookup('a')!)).toEqual([1, 2]);
  });

  it('binds the variable in a scope of each element: it never leaks nor changes an outer variable', async () => {
    const { output, variables } = await exec('LET x = "outer"\nLET ys = [x + 1 FOR x IN [1, 2]]\nPRINT(x)\nPRINT(ys)');
    expect(output).toEqual(['outer', '[2,3]']);
    expect(variables).toEqual({ x: 'outer', ys: [2, 3] });
    const error = await expectFailure('LET ys = [item FOR item IN [1]]\nPRINT(item)', 'UndefinedVariableError', /`item` is not defined here: it is the variable of the list comprehension on line 1 and exists only inside its brackets/, 2, 7);
    expect(error.message).not.toMatch(/LET item/);
  });

  it('nests: an inner comprehension sees the outer variable, each element its own', async () => {
    expect((await exec('PRINT([[i * j FOR j IN [1, 2, 3]] FOR i IN [1, 10]])')).output).toEqual(['[[1,2,3],[10,20,30]]']);
    expect((await exec('PRINT([[x FOR x IN [x, x + 1]] FOR x IN [1, 5]])')).output).toEqual(['[[1,2],[5,6]]']);
  });

  it('gives a tool called in an element the variables of its own element while it lasts, and refuses them once it is over', async () => {
    const contexts: ToolContext[] = [];
    const { output } = await exec('LET n = 7\nLET a = [CALL keep {} FOR i IN [1, 2]]\nPRINT(a)\nPRINT(CALL look {})', {
      keep: (_args, context) => (contexts.push(context), [context.getVar('i'), context.getVar('n')]),
      look: () =>
        contexts.map((context) => {
          try {
            return context.getVar('i');
          } catch (error) {
            return (error as { kind: string }).kind;
          }
        }),
    });
    expect(output).toEqual(['[[1,7],[2,7]]', '["AbortedError","AbortedError"]']);
  });

  it('refuses a non-list at the list, suggesting KEYS for an object, and a non-boolean condition at the condition', async () => {
    const object = await expectFailure('LET o = {a: 1}\nPRINT([k FOR k IN  o])', 'InvalidIterableError', /^a list comprehension needs a list to go over \(FOR k IN list\), got object with keys a/, 2, 20);
    expect(object.message).toMatch(/\[\.\.\. FOR key IN KEYS\(obj\)\]/);
    await expectFailure('PRINT([c FOR c IN "abc"])', 'InvalidIterableError', /got string "abc"$/, 1, 19);
    await expectFailure('PRINT([x FOR x IN [1, null] IF x])', 'InvalidConditionError', /^the IF condition of a list comprehension must be true or false, got number 1/, 1, 32);
    await expectFailure('LET a = [CALL t {} FOR x IN [1] IF CALL t {}]', 'InvalidConditionError', /got number 5/, 1, 36, { t: async () => 5 });
    await expectFailure('LET a = [x FOR x IN CALL t {}]', 'InvalidIterableError', /got number 5/, 1, 21, { t: async () => 5 });
  });

  it('reports an error inside the element at its own position, for the item that fails', async () => {
    await expectFailure('LET a = [10 / x FOR x IN [2, 1, 0]]', 'DivisionByZeroError', /by zero/, 1, 13);
    await expectFailure('LET a = [p.price FOR p IN [{price: 1}, {cost: 2}]]', 'MemberAccessError', /no key "price"/, 1, 12);
  });

  it('counts each item as a step against maxSteps, with or without CALL', async () => {
    const error = await failure('LET a = [x FOR x IN RANGE(10)]', {}, { maxSteps: 5 });
    expect([error.kind, error.line, error.column]).toEqual(['LimitExceededError', 1, 9]);
    const withCall = await failure('LET a = [CALL t {} FOR x IN RANGE(10)]', { t: () => 1 }, { maxSteps: 5 });
    expect(withCall.kind).toBe('LimitExceededError');
    expect((await exec('LET a = [x FOR x IN RANGE(10) IF false]', {}, { maxSteps: 11 })).variables).toEqual({ a: [] });
  });

  it('refuses a result over maxValueSize as soon as the values collected pass it', async () => {
    let made = 0;
    const error = await failure('LET a = [CALL big {} FOR x IN RANGE(10)]', { big: () => (made++, [1, 2, 3]) }, { maxValueSize: 20 });
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/the list would hold 24 items/);
    // Elements start ahead of the ones being collected (their calls run concurrently).
    expect(made).toBeGreaterThanOrEqual(6);
    const sync = await failure('LET a = [[x, x] FOR x IN RANGE(5)]', {}, { maxValueSize: 12 });
    expect([sync.kind, sync.line, sync.column]).toEqual(['LimitExceededError', 1, 9]);
  });
});
