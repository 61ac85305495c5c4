import { describe, expect, it } from 'vitest';
import { ReplSession } from '../../../src/cli/repl-session.js';
import { failure, setup, tool } from '../../support/harness.js';

function session(initial: { variables?: Record<string, never>; state?: Record<string, never> } = {}) {
  const { interpreter, registry, printed } = setup([tool('note', (args, context) => (context.setState('note', args.text as string), 'ok'))]);
  return { repl: new ReplSession(interpreter, { variables: initial.variables ?? {}, state: initial.state ?? {} }), registry, printed };
}

describe('ReplSession', () => {
  it('runs entries like one script: LET updates the variables of earlier entries', async () => {
    const { repl, printed } = session();
    await repl.evaluate('LET total = 0');
    await repl.evaluate('FOR n IN [1, 2, 3] DO LET total = total + n LET inner = n END');
    expect(await repl.evaluate('total')).toEqual({ value: 6 });
    await expect(failure(repl.evaluate('inner'))).resolves.toMatchObject({ kind: 'UndefinedVariableError' });
    await repl.evaluate('PRINT(total)');
    expect(printed).toEqual(['6']);
    expect(repl.variables).toEqual({ total: 6 });
  });

  it('shows the value of a last bare expression but not of PRINT or a statement', async () => {
    const { repl } = session();
    expect(await repl.evaluate('LET a = 1')).toEqual({});
    expect(await repl.evaluate('LET b = 2 a + b')).toEqual({ value: 3 });
    expect(await repl.evaluate('PRINT(a)')).toEqual({});
    expect(await repl.evaluate('IF a == 1 THEN 5 END')).toEqual({});
    expect(await repl.evaluate('CALL note { text: "hi" }')).toEqual({ value: 'ok' });
    expect(Object.keys(repl.variables)).toEqual(['a', 'b']);
  });

  it('keeps what a failed entry did before its error, and not its text', async () => {
    const { repl } = session();
    await repl.evaluate('LET a = 1');
    const error = await failure(repl.evaluate('LET a = 2 LET b = [a] CALL note { text: "x" } LET c = 1 / 0'));
    expect(error.kind).toBe('DivisionByZeroError');
    expect(repl.variables).toEqual({ a: 2, b: [2] });
    expect(repl.state).toEqual({ note: 'x' });
    await failure(repl.evaluate('LET d = )'));
    expect(repl.entries).toEqual(['LET a = 1']);
  });

  it('resets to the initial variables and state', async () => {
    const { repl } = session({ variables: { limit: 3 } as never, state: { mood: 'calm' } as never });
    await repl.evaluate('LET limit = 10 LET x = 1 CALL note { text: "y" }');
    repl.reset();
    expect(repl.variables).toEqual({ limit: 3 });
    expect(repl.state).toEqual({ mood: 'calm' });
    expect(repl.entries).toEqual([]);
  });

  it('gives the entries back as one script', async () => {
    const { repl } = session();
    await repl.evaluate('LET a = 1   \n');
    await repl.evaluate('IF a == 1 THEN\n  LET a = 2\nEND');
    expect(repl.script()).toBe('LET a = 1\nIF a == 1 THEN\n  LET a = 2\nEND\n');
  });

  it('keeps variables named like object internals as plain variables', async () => {
    const { repl } = session();
    await repl.evaluate('LET __proto__ = 1 LET constructor = 2');
    expect(await repl.evaluate('__proto__ + constructor')).toEqual({ value: 3 });
    expect(Object.getPrototypeOf(repl.variables)).toBe(Object.prototype);
  });
});
