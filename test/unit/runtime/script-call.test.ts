// Unit tests for the call identity of src/runtime/script-call.ts (DURABLE.md §1): a CALL's
// `line:column`, then the index of each FOR iteration and comprehension element it is in,
// outermost first, read from the scopes the evaluator made for them.
import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../../src/runtime/evaluator.js';
import { callIdOf, type ScriptCallSite } from '../../../src/runtime/script-call.js';
import { Scope } from '../../../src/runtime/scope.js';
import { parse } from '../../../src/syntax/parse.js';
import type { ToolFunction } from '../../../src/tools/types.js';
import { makeRun, registryWith } from '../../support/evaluator-runs.js';

describe('callIdOf', () => {
  it('is the position alone outside loops', () => {
    expect(callIdOf({ line: 12, column: 9 }, new Scope(null))).toBe('12:9');
  });

  it('adds the item index of each enclosing iteration scope, outermost first, and skips other scopes', () => {
    const top = new Scope(null);
    const outer = Scope.ofItem(top, 'i', 'x', 3);
    const plain = new Scope(outer);
    const inner = Scope.ofItem(plain, 'j', 'y', 0);
    expect(callIdOf({ line: 12, column: 9 }, outer)).toBe('12:9/3');
    expect(callIdOf({ line: 12, column: 9 }, inner)).toBe('12:9/3/0');
  });

  it('follows a loop scope reused for the next item', () => {
    const scope = Scope.ofItem(new Scope(null), 'i', 1, 0);
    scope.reset('i', 2, 1);
    expect(callIdOf({ line: 1, column: 1 }, scope)).toBe('1:1/1');
  });
});

/** The callId of every CALL a script makes, in the order they are made, read from the sites the evaluator hands to the call path. */
async function callIds(source: string, tool: ToolFunction): Promise<string[]> {
  const run = makeRun([], registryWith({ t: tool }));
  const ids: string[] = [];
  const mark = run.markScriptCall.bind(run);
  run.markScriptCall = (site, name) => {
    ids.push((site as ScriptCallSite).callId);
    mark(site, name);
  };
  try {
    await compileProgram(parse(source))(run, new Scope(null));
  } finally {
    run.finish();
  }
  return ids;
}

const SCRIPT = `CALL t {}
FOR i IN [10, 20] DO
  LET a = [CALL t { x: x } FOR x IN [1, 2, 3] IF x != 2]
  IF i == 20 THEN
    LET b = CALL t {}
  END
END
LET c = [[CALL t {} FOR j IN [1, 2]] FOR k IN [1]]
FOR i IN [1, 2] DO
  LET d = [x FOR x IN CALL t {}]
END
LET e = [x FOR x IN [1] IF CALL t {} == [true]]`;

const EXPECTED = [
  '1:1',
  '3:12/0/0', '3:12/0/2',
  '3:12/1/0', '3:12/1/2', '5:13/1',
  '8:11/0/0', '8:11/0/1',
  // a CALL in a comprehension's list runs once, outside its elements
  '10:23/0', '10:23/1',
  '12:28/0',
];

describe('the callId of a script\'s CALLs', () => {
  it('numbers FOR iterations and comprehension elements, with tools that answer at once', async () => {
    expect(await callIds(SCRIPT, () => [true])).toEqual(EXPECTED);
  });

  it('is the same when the tools answer later: it depends on where a call stands, never on timing', async () => {
    expect(await callIds(SCRIPT, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return [true];
    })).toEqual(EXPECTED);
  });
});
