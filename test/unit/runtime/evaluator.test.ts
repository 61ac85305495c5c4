// Unit tests for src/runtime/evaluator.ts: closure compilation (sync for call-free code, async only
// where a CALL can run), the compile cache, scoping of LET / IF / FOR (LANGUAGE.md §3), and the
// runtime errors of expressions with their positions. List comprehensions:
// evaluator-comprehensions.test.ts.
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import { Interpreter } from '../../../src/index.js';
import { compileProgram } from '../../../src/runtime/evaluator.js';
import { Scope } from '../../../src/runtime/scope.js';
import { parse } from '../../../src/syntax/parse.js';
import type { ToolContext, ToolFunction } from '../../../src/tools/types.js';
import { lastJson, runChild, src } from '../../support/child.js';
import { exec, expectFailure, failure, makeRun, registryWith } from '../../support/evaluator-runs.js';

describe('compileProgram', () => {
  it('runs a script without CALL synchronously: no promise while its time slice lasts', () => {
    const output: string[] = [];
    const run = makeRun(output);
    const pending = compileProgram(parse('LET a = 1 IF a == 1 THEN PRINT(a) END FOR x IN [1] DO PRINT(x) END'))(run, new Scope(null));
    run.finish();
    expect(pending).toBeUndefined();
    expect(output).toEqual(['1', '1']);
  });

  it('returns something to wait for from the first CALL of a tool that returns a promise on, wherever it is', async () => {
    for (const source of ['CALL t {}', 'LET v = CALL t {}', 'LET a = 1 FOR x IN [1] DO IF true THEN LET y = [CALL t {}] END END', 'FOR x IN CALL t {} DO END']) {
      const run = makeRun([], registryWith({ t: async () => [1] }));
      const top = new Scope(null);
      const pending = compileProgram(parse(source))(run, top);
      expect(typeof pending?.then).toBe('function');
      expect(run.toolCalls).toBe(1);
      await pending;
      run.finish();
    }
  });

  it('costs no promise for the CALL of a statement when the tool returns a plain value', () => {
    for (const source of ['CALL t {}', 'LET v = CALL t {}', 'IF CALL yes {} THEN LET y = CALL t {} END', 'FOR x IN CALL t {} DO LET y = CALL t {} END']) {
      const run = makeRun([], registryWith({ t: () => [1], yes: () => true }));
      const top = new Scope(null);
      const pending = compileProgram(parse(source))(run, top);
      run.finish();
      expect(pending).toBeUndefined();
      expect(run.toolCalls).toBeGreaterThan(0);
    }
  });

  it('returns the same compiled program for the same AST', () => {
    const ast = parse('LET a = 1');
    expect(compileProgram(ast)).toBe(compileProgram(ast));
    const withCall = parse('CALL t {}');
    expect(compileProgram(withCall)).toBe(compileProgram(withCall));
  });

  it('keeps nothing of a program compiled to run once, which runs as the cached one does', () => {
    const ast = parse('LET total = 0 FOR x IN [1, 2, 3] DO LET total = total + x END IF total > 5 THEN PRINT(total) END');
    const once = compileProgram(ast, { once: true });
    expect(compileProgram(ast, { once: true })).not.toBe(once);
    expect(compileProgram(ast)).not.toBe(once);
    for (const compiled of [once, once, compileProgram(ast)]) {
      const output: string[] = [];
      const run = makeRun(output);
      expect(compiled(run, new Scope(null))).toBeUndefined();
      run.finish();
      expect(output).toEqual(['6']);
    }
  });

  it('runs a synchronous program to completion without awaiting', () => {
    const output: string[] = [];
    const run = makeRun(output);
    const top = new Scope(null);
    const result = compileProgram(parse('LET total = 0 FOR x IN [1, 2, 3] DO LET total = total + x END PRINT(total)'))(run, top);
    run.finish();
    expect(result).toBeUndefined();
    expect(output).toEqual(['6']);
    expect(top.lookup('total')).toBe(6);
  });

  it('lets Interpreter.run finish a call-free script before returning its promise', async () => {
    let output: string[] = [];
    const interpreter = new Interpreter(undefined, { print: (line) => output.push(line) });
    const script = 'PRINT(1) FOR x IN [2, 3] DO PRINT(x) END';
    // Synchronous unless the run's 10 ms time slice runs out, which a busy machine can make happen
    // (the run then gives the event loop a turn): after a warm-up, one of a few tries is enough.
    await interpreter.run(script);
    const seen: string[][] = [];
    for (let attempt = 0; attempt < 5 && !seen.some((lines) => lines.length === 3); attempt++) {
      output = [];
      const promise = interpreter.run(script);
      seen.push([...output]);
      await expect(promise).resolves.toMatchObject({ output: ['1', '2', '3'] });
    }
    expect(seen).toContainEqual(['1', '2', '3']);
  });

  it('awaits a tool before the statements after its CALL', async () => {
    // What had been printed when the tool ran, and once it answered (no timing involved: a run may
    // yield to the event loop before its first statement when the machine is slow).
    const output: string[] = [];
    let atCall: string[] = [];
    const tool = async () => {
      atCall = [...output];
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 5;
    };
    const interpreter = new Interpreter(registryWith({ t: tool }), { print: (line) => output.push(line) });
    await interpreter.run('PRINT("before") LET v = CALL t {} PRINT(v)');
    expect(atCall).toEqual(['before']);
    expect(output).toEqual(['before', '5']);
  });
});

describe('statements', () => {
  it('binds and updates variables with LET', async () => {
    expect((await exec('LET a = 1 LET b = a + 1 LET a = b * 10')).variables).toEqual({ a: 20, b: 2 });
  });

  it('LET in a loop updates an outer variable', async () => {
    expect((await exec('LET total = 0 FOR x IN [1, 2, 3, 4] DO LET total = total + x END')).variables).toEqual({ total: 10 });
  });

  it('LET in nested loops updates the outermost binding', async () => {
    expect((await exec('LET n = 0 FOR a IN [1, 2] DO FOR b IN [1, 2, 3] DO LET n = n + 1 END END')).variables).toEqual({ n: 6 });
  });

  it('does not leak the loop variable', async () => {
    const { variables } = await exec('FOR x IN [1, 2] DO LET y = x END');
    expect(variables).toEqual({});
    await expectFailure('FOR item IN [1] DO END\nPRINT(item)', 'UndefinedVariableError', /^`item` is not defined/, 2, 7);
  });

  it('never changes an outer variable with the loop variable\'s name', async () => {
    const { output, variables } = await exec('LET x = "outer" FOR x IN [1, 2] DO LET x = x + 10 PRINT(x) END PRINT(x)');
    expect(output).toEqual(['11', '12', 'outer']);
    expect(variables).toEqual({ x: 'outer' });
  });

  it('drops variables first created in a loop body at the end of each iteration', async () => {
    await expectFailure('FOR i IN [1, 2] DO\n  IF i == 2 THEN PRINT(fresh) END\n  LET fresh = i\nEND', 'UndefinedVariableError', /^`fresh` is not defined/, 2, 24);
  });

  it('starts every iteration with an empty scope, its own totals too', async () => {
    // Each iteration's list is within maxValueSize; two together would not be.
    const output: string[] = [];
    await new Interpreter(undefined, { print: (line) => output.push(line), limits: { maxValueSize: 10 } }).run('FOR i IN [1, 2, 3] DO\n  LET big = RANGE(6)\n  PRINT(LEN(big))\nEND');
    expect(output).toEqual(['6', '6', '6']);
    await expectFailure('FOR i IN [1, 2] DO\n  IF i == 2 THEN PRINT(more) END\n  LET more = [i]\nEND', 'UndefinedVariableError', /^`more` is not defined/, 2, 24);
  });

  it('gives a tool called in a loop the variables of its own iteration while it lasts, and refuses them once it is over', async () => {
    const contexts: ToolContext[] = [];
    const tried = (use: () => unknown) => {
      try {
        return use() ?? null;
      } catch (error) {
        return (error as NuwaError).kind;
      }
    };
    const source = `LET n = 7
FOR i IN [1, 2, 3] DO
  LET mine = i * 10
  CALL keep {}
  PRINT(CALL look {})
END
CALL keep {}
PRINT(CALL late {})`;
    const { output, variables } = await exec(source, {
      keep: async (_args, context) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        contexts.push(context);
        return null;
      },
      // Within the iteration, after the call it was given to: still that iteration's variables.
      look: () => {
        const context = contexts.at(-1)!;
        context.setVar('mine', (context.getVar('mine') as number) + 1);
        return [context.getVar('i'), context.getVar('mine')];
      },
      late: async () => {
        // Still in the run: what refuses is the iteration being over, not the run.
        const refusals = await Promise.all([contexts[0]!.callTool('look', {}), contexts[2]!.ask('why?')].map((call) => call.then(String, (error: NuwaError) => error.message)));
        expect(refusals).toEqual([
          'context.callTool: the FOR iteration or comprehension element of the CALL to `keep` is over',
          'context.ask: the FOR iteration or comprehension element of the CALL to `keep` is over',
        ]);
        expect(tried(() => contexts[1]!.getVar('i'))).toBe('AbortedError');
        return contexts.map((context) => [tried(() => context.getVar('i')), tried(() => context.getVar('n')), tried(() => context.setVar('n', 8))]);
      },
    });
    const over = ['AbortedError', 'AbortedError', 'AbortedError'];
    expect(output).toEqual(['[1,11]', '[2,21]', '[3,31]', JSON.stringify([over, over, over, [null, 7, null]])]);
    expect(variables).toEqual({ n: 8 });
  });

  it('refuses the variables to the context of a tool called by a tool, once the iteration of the CALL is over', async () => {
    let inner: ToolContext | undefined;
    const source = `FOR i IN [1, 2] DO
  CALL outer {}
END
PRINT(CALL late {})`;
    const { output } = await exec(source, {
      outer: (_args, context) => context.callTool('inner', {}),
      inner: (_args, context) => {
        inner ??= context;
        return context.getVar('i');
      },
      late: async () => {
        const refused = (use: () => unknown) => {
          try {
            return use();
          } catch (error) {
            return (error as NuwaError).message;
          }
        };
        return [refused(() => inner!.getVar('i')), await inner!.callTool('inner', {}).then(String, (error: NuwaError) => error.message)];
      },
    });
    expect(output).toEqual([
      JSON.stringify([
        'context.getVar("i"): the FOR iteration or comprehension element of its CALL is over, and its variables with it',
        'context.callTool: the FOR iteration or comprehension element of the CALL to `inner` is over',
      ]),
    ]);
  });

  it('refuses the variables to the context of a call in an inner loop once an outer iteration is over, as the iterations go on', async () => {
    const seen: unknown[] = [];
    let first: ToolContext | undefined;
    const source = `FOR a IN [1, 2] DO
  FOR b IN [10, 20] DO
    CALL keep {}
  END
END`;
    await exec(source, {
      keep: (_args, context) => {
        first ??= context;
        try {
          seen.push([context.getVar('a'), context.getVar('b'), first.getVar('b')]);
        } catch (error) {
          seen.push([context.getVar('a'), context.getVar('b'), (error as NuwaError).kind]);
        }
        return null;
      },
    });
    expect(seen).toEqual([
      [1, 10, 10],
      [1, 20, 'AbortedError'],
      [2, 10, 'AbortedError'],
      [2, 20, 'AbortedError'],
    ]);
  });

  it('iterates over the list as it was when the loop started', async () => {
    const { output, variables } = await exec('LET xs = [1, 2] FOR x IN xs DO LET xs = APPEND(xs, x * 10) PRINT(x) END');
    expect(output).toEqual(['1', '2']);
    expect(variables).toEqual({ xs: [1, 2, 10, 20] });
  });

  it('runs nothing for an empty list', async () => {
    expect((await exec('FOR x IN [] DO PRINT(x) END')).output).toEqual([]);
  });

  it('does not open a scope for IF bodies', async () => {
    expect((await exec('IF true THEN LET a = 1 ELSE LET b = 2 END IF false THEN LET c = 3 ELSE LET d = 4 END')).variables).toEqual({ a: 1, d: 4 });
  });

  it('runs the right branch of nested IFs', async () => {
    const source = 'FOR n IN [1, 2, 3] DO IF n == 1 THEN PRINT("one") ELSE IF n == 2 THEN PRINT("two") ELSE PRINT("many") END END END';
    expect((await exec(source)).output).toEqual(['one', 'two', 'many']);
  });

  it('counts statements and loop iterations as steps', async () => {
    // LET, FOR, 2 iterations, 2 PRINTs, IF, and the LET in its branch.
    expect((await exec('LET a = 1 FOR x IN [1, 2] DO PRINT(x) END IF true THEN LET b = 2 END')).steps).toBe(8);
  });

  it('stops at maxSteps with LimitExceededError at the statement', async () => {
    const error = await failure('LET a = 0\nFOR x IN [1, 2, 3, 4, 5] DO\n  LET a = a + 1\nEND', {}, { maxSteps: 5 });
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/maxSteps \(5\)/);
    // LET, FOR, iteration 1, its LET, iteration 2: the sixth step is the second LET in the body.
    expect([error.line, error.column]).toEqual([3, 3]);
  });

  it('refuses a non-boolean IF condition at the condition', async () => {
    await expectFailure('LET n = 1\nIF   n THEN END', 'InvalidConditionError', /^an IF condition must be true or false, got number 1/, 2, 6);
    await expectFailure('IF null THEN END', 'InvalidConditionError', /got null/, 1, 4);
    await expectFailure('IF "true" THEN END', 'InvalidConditionError', /got string "true"/, 1, 4);
  });

  it('refuses a FOR over a non-list at the iterable, suggesting KEYS for an object', async () => {
    const error = await expectFailure('LET o = {a: 1}\nFOR k IN  o DO END', 'InvalidIterableError', /^FOR needs a list to loop over, got object with keys a/, 2, 11);
    expect(error.message).toMatch(/write FOR k IN KEYS\(o\) DO \(and read o\[k\] in the loop\)$/);
    const text = await expectFailure('FOR c IN "abc" DO END', 'InvalidIterableError', /got string "abc"/, 1, 10);
    expect(text.message).not.toMatch(/KEYS/);
  });

  it('stops at the first runtime error; earlier output and variables stay', async () => {
    const output: string[] = [];
    const run = makeRun(output);
    const top = new Scope(null);
    expect(() => compileProgram(parse('LET a = 1 PRINT("one") LET b = 1 / 0 PRINT("two")'))(run, top)).toThrow(NuwaError);
    run.finish();
    expect(output).toEqual(['one']);
    expect(top.entries()).toEqual([['a', 1]]);
  });
});

describe('expressions', () => {
  it('shares a list literal of literals between runs, which APPEND and the limits see as any list', async () => {
    // One compiled script (the same text), two runs: the second starts from the literal as written.
    const script = 'LET xs = [1, 2, 3]\nLET more = APPEND(xs, 4)\nLET other = APPEND(xs, 5)';
    for (let i = 0; i < 2; i++) {
      const { variables } = await new Interpreter().run(script);
      expect(variables).toEqual({ xs: [1, 2, 3], more: [1, 2, 3, 4], other: [1, 2, 3, 5] });
    }
    // A run whose limits the shared list is over is refused, as with a list made for it.
    await expect(new Interpreter(undefined, { limits: { maxValueSize: 2 } }).run(script)).rejects.toMatchObject({ kind: 'LimitExceededError' });
    await expect(new Interpreter(undefined, { limits: { maxStringLength: 3 } }).run('LET s = ["ab", "cd"]')).rejects.toMatchObject({ kind: 'LimitExceededError' });
    expect((await new Interpreter().run('LET s = ["ab", "cd"]')).variables).toEqual({ s: ['ab', 'cd'] });
  });

  it('evaluates literals, lists, objects, member access and indexing', async () => {
    const { output } = await exec(
      'LET o = { name: "n", "first-name": "F", items: [10, 20, [30]] } PRINT(o.items[2][0]) PRINT(o["first-name"]) PRINT(o) PRINT([1 + 1, -(2), NOT false])',
    );
    expect(output).toEqual(['30', 'F', '{"name":"n","first-name":"F","items":[10,20,[30]]}', '[2,-2,true]']);
  });

  it('evaluates operators with the precedence of §4', async () => {
    const { output } = await exec('PRINT(2 + 3 * 4) PRINT(10 - 4 - 3) PRINT(NOT 1 == 2) PRINT(-2 * -3) PRINT(7 % 3 + 1) PRINT(1 < 2 AND "a" < "b")');
    expect(output).toEqual(['14', '3', 'true', '6', '2', 'true']);
  });

  it('compares structurally with == and !=', async () => {
    const { output } = await exec('PRINT(1 == "1") PRINT([1, {a: 2, b: 3}] == [1, {b: 3, a: 2}]) PRINT(null != false)');
    expect(output).toEqual(['false', 'true', 'true']);
  });

  it('short-circuits AND and OR', async () => {
    const { output } = await exec('PRINT(false AND missing) PRINT(true OR missing) PRINT(true AND false) PRINT(false OR true)');
    expect(output).toEqual(['false', 'true', 'false', 'true']);
  });

  it('requires boolean operands for AND and OR', async () => {
    await expectFailure('PRINT(1 AND true)', 'TypeError', /^the left side of AND must be a boolean, got number 1/, 1, 9);
    await expectFailure('PRINT(true AND "x")', 'TypeError', /^the right side of AND must be a boolean/, 1, 12);
    await expectFailure('PRINT(false OR null)', 'TypeError', /^the right side of OR must be a boolean, got null/, 1, 13);
  });

  it('reports arithmetic errors at the operator', async () => {
    await expectFailure('LET a = 1\nLET s = "x" +  a', 'TypeError', /use FORMAT/, 2, 13);
    await expectFailure('LET z = 0 LET q = 5 %  z', 'DivisionByZeroError', /^`%` by zero/, 1, 21);
    await expectFailure('PRINT(1e308 * 1e308)', 'TypeError', /overflow/, 1, 13);
    await expectFailure('PRINT(NOT 5)', 'TypeError', /^NOT needs a boolean/, 1, 7);
  });

  it('names an undefined variable, with a suggestion', async () => {
    const error = await expectFailure('LET total = 1\nPRINT(totl)', 'UndefinedVariableError', /^`totl` is not defined: set it with LET totl = \.\.\. before reading it/, 2, 7);
    expect(error.message).toMatch(/did you mean `total`\?/);
  });

  it('hints at literals and functions for names read as variables', async () => {
    // (A script that never sets TRUE gets this as a SyntaxError; one that might, meets it at run time.)
    await expectFailure('IF false THEN LET TRUE = 1 END\nLET a = TRUE', 'UndefinedVariableError', /literals are lowercase: write `true`/, 2, 9);
    await expectFailure('LET n = LEN', 'UndefinedVariableError', /LEN is a function: call it as LEN\(list \| string \| object\)/, 1, 9);
  });

  it('lets a variable be named like a built-in while NAME(...) stays the function', async () => {
    expect((await exec('LET LEN = [1, 2, 3] PRINT(LEN(LEN)) PRINT(LEN)')).output).toEqual(['3', '[1,2,3]']);
  });

  it('reports member access on a non-object and a missing key at the property name', async () => {
    await expectFailure('LET l = [1]\nPRINT(l.size)', 'MemberAccessError', /^`\.size` needs an object, got list of 1 item/, 2, 9);
    const error = await expectFailure('LET o = {price: 1, qty: 2}\nPRINT(o.pric)', 'MemberAccessError', /^the object has no key "pric": did you mean `price`\?/, 2, 9);
    expect(error.message).toMatch(/\(its keys: price, qty\)/);
    await expectFailure('PRINT({}.x)', 'MemberAccessError', /\(its keys: none\)/, 1, 10);
  });

  it('does not find inherited properties', async () => {
    await expectFailure('PRINT({}.constructor)', 'MemberAccessError', /no key "constructor"/, 1, 10);
    await expectFailure('PRINT({a: 1}["__proto__"])', 'MemberAccessError', /no key "__proto__"/, 1, 13);
  });

  it('reads __proto__ as an ordinary key', async () => {
    expect((await exec('LET o = {"__proto__": 1, constructor: 2} PRINT(o.__proto__ + o["constructor"]) PRINT(KEYS(o))')).output).toEqual(['3', '["__proto__","constructor"]']);
  });

  it('checks list indexes: whole numbers within bounds', async () => {
    await expectFailure('LET l = [1, 2]\nPRINT(l[2])', 'IndexOutOfBoundsError', /^index 2 is outside the list: valid indexes are 0 to 1/, 2, 8);
    await expectFailure('PRINT([1][-1])', 'IndexOutOfBoundsError', /^index -1 is outside the list/, 1, 10);
    await expectFailure('PRINT([][0])', 'IndexOutOfBoundsError', /the list is empty/, 1, 9);
    await expectFailure('PRINT([1][0.5])', 'TypeError', /^a list index must be a whole number, got number 0\.5/, 1, 10);
    await expectFailure('PRINT([1]["0"])', 'TypeError', /^a list index must be a whole number, got string "0"/, 1, 10);
  });

  it('indexes objects with strings only', async () => {
    await expectFailure('PRINT({a: 1}[0])', 'TypeError', /^an object is indexed by a string key, got number 0/, 1, 13);
    await expectFailure('PRINT({a: 1}["b"])', 'MemberAccessError', /^the object has no key "b"/, 1, 13);
  });

  it('refuses to index anything else', async () => {
    await expectFailure('PRINT("abc"[0])', 'TypeError', /^only lists and objects can be indexed, got string "abc"/, 1, 12);
    await expectFailure('PRINT(null[0])', 'TypeError', /got null/, 1, 11);
  });

  it('names unknown functions with a hint', async () => {
    await expectFailure('print(1)', 'UnknownFunctionError', /^there is no function `print`: built-in names are uppercase: write `PRINT`/, 1, 1);
    await expectFailure('LET n =  LENN([1])', 'UnknownFunctionError', /^there is no function `LENN`: did you mean `LEN`\?/, 1, 10);
    const error = await expectFailure('LET x = FROBNICATE(4)', 'UnknownFunctionError', /^there is no function `FROBNICATE` \(the built-ins are PRINT, NOW, FORMAT, LEN/, 1, 9);
    await expectFailure('LET x = AVERAGE([4])', 'UnknownFunctionError', /^there is no function `AVERAGE`: divide SUM by LEN: write `SUM\(\[4\]\) \/ LEN\(\[4\]\)` \(the built-ins are/, 1, 9);
    await expectFailure('LET x = AVERAGE()', 'UnknownFunctionError', /^there is no function `AVERAGE`: write SUM\(list\) \/ LEN\(list\) \(the built-ins are/, 1, 9);
    await expectFailure('LET x = sum([4, 5])', 'UnknownFunctionError', /^there is no function `sum`: built-in names are uppercase: write `SUM`, as in SUM\(\[4, 5\]\)/, 1, 9);
    await expectFailure('LET x = filter([4])', 'UnknownFunctionError', /^there is no function `filter`: write \[x FOR x IN list IF condition\]/, 1, 9);
    expect(error.message).toMatch(/tools are called with CALL name \{ \.\.\. \}/);
    await expectFailure('get_price({})', 'UnknownFunctionError', /`get_price` is a tool: write CALL get_price \{ \.\.\. \}/, 1, 1, { get_price: () => 1 });
  });

  it('checks the argument count of built-ins at the call', async () => {
    await expectFailure('LET a = 1\n  PRINT(1, 2)', 'FunctionArgumentError', /^PRINT takes 1 argument, got 2/, 2, 3);
    await expectFailure('NOW(1)', 'FunctionArgumentError', /^NOW takes 0 arguments, got 1/, 1, 1);
    await expectFailure('PRINT(MIN())', 'FunctionArgumentError', /^MIN takes at least 1 argument, got 0/, 1, 7);
  });

  it('passes argument errors of built-ins at the call', async () => {
    await expectFailure('LET a =  LEN(5)', 'FunctionArgumentError', /^LEN expects a list, string or object, got number 5/, 1, 10);
  });
});

// Every CALL path twice: a tool that answers at once goes on synchronously, one that returns a
// promise goes on from the microtask in which the promise settles (util/pending.ts).
const ANSWERS: Array<[string, (fn: ToolFunction) => ToolFunction]> = [
  ['at once', (fn) => fn],
  ['with a promise', (fn) => async (args, context) => fn(args, context)],
];

describe.each(ANSWERS)('expressions with CALL of a tool that answers %s', (_answers, answer) => {
  const tools = (map: Record<string, ToolFunction>): Record<string, ToolFunction> => Object.fromEntries(Object.entries(map).map(([name, fn]) => [name, answer(fn)]));

  it('awaits tools and uses their results anywhere in an expression', async () => {
    const used = tools({ price: () => ({ amount: 2.5, tags: ['a', 'b'] }), double: (args) => (args.n as number) * 2 });
    const { output, variables } = await exec(
      'LET p = CALL price {} LET total = CALL double { n: p.amount } + 1 PRINT((CALL price {}).tags[1]) PRINT([CALL double { n: 1 }, -CALL double { n: 2 }]) PRINT(NOT (CALL double { n: 1 } == 2))',
      used,
    );
    expect(output).toEqual(['b', '[2,-4]', 'false']);
    expect(variables).toMatchObject({ total: 6 });
  });

  it('evaluates CALL arguments, list elements and object values left to right', async () => {
    const order: unknown[] = [];
    const used = tools({ log: (args) => (order.push(args.v), args.v as number) });
    await exec('LET x = { a: CALL log { v: 1 }, b: [CALL log { v: 2 }, CALL log { v: 3 }] } CALL log { v: CALL log { v: 4 } + CALL log { v: 5 } }', used);
    expect(order).toEqual([1, 2, 3, 4, 5, 9]);
  });

  it('short-circuits AND/OR around a CALL', async () => {
    const calls: string[] = [];
    const used = tools({ yes: () => (calls.push('yes'), true) });
    const { output } = await exec('PRINT(false AND CALL yes {}) PRINT(true OR CALL yes {}) PRINT(true AND CALL yes {})', used);
    expect(output).toEqual(['false', 'true', 'true']);
    expect(calls).toEqual(['yes']);
  });

  it('runs loops and IFs whose bodies call tools, accumulating into outer variables', async () => {
    const used = tools({ square: (args) => (args.n as number) ** 2 });
    const source = 'LET sum = 0 FOR n IN [1, 2, 3] DO IF CALL square { n: n } > 1 THEN LET sum = sum + CALL square { n: n } ELSE PRINT("small") END END';
    const { output, variables } = await exec(source, used);
    expect(output).toEqual(['small']);
    expect(variables).toEqual({ sum: 13 });
  });

  it('passes arguments with any keys, in order, as own properties', async () => {
    const received: unknown[] = [];
    const take = tools({ take: (args) => (received.push(args), null) });
    await exec('CALL take { "a\\"b": 1, "c\\\\d": 2, "\\u2028": 3, "2024": 4, constructor: 5, z: 6 }', take);
    await exec('CALL take { __proto__: 7, x: [1] }\nCALL take { "__proto__": { y: 8 } }\nCALL take { only: "one" }', take);
    expect(received).toEqual<unknown[]>([{ 'a"b': 1, 'c\\d': 2, '\u2028': 3, 2024: 4, constructor: 5, z: 6 }, { ['__proto__']: 7, x: [1] }, { ['__proto__']: { y: 8 } }, { only: 'one' }]);
    expect(Object.keys(received[0]!)).toEqual(['2024', 'a"b', 'c\\d', '\u2028', 'constructor', 'z']);
    for (const args of received.slice(1, 3)) {
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(Object.hasOwn(args as object, '__proto__')).toBe(true);
    }
  });

  it('makes the arguments objects key by key in a host that forbids code from text', async () => {
    const result = await runChild(
      `import { Interpreter, ToolRegistry } from '${src('index.ts')}';
      const registry = new ToolRegistry();
      registry.register('take', { description: 'd', parameters: [{ name: 'a', type: 'any' }, { name: 'b', type: 'any', required: false }], returns: 'any' }, (args) => [Object.keys(args), args]);
      const result = await new Interpreter(registry).run('LET one = CALL take { a: 1 }\\nLET two = CALL take { b: [2], a: "x" }');
      let forbidden = false;
      try { new Function('return 1'); } catch { forbidden = true; }
      console.log(JSON.stringify({ forbidden, variables: result.variables }));`,
      { nodeArgs: ['--disallow-code-generation-from-strings'] },
    );
    expect(result.stderr).toBe('');
    expect(lastJson(result)).toEqual({ forbidden: true, variables: { one: [['a'], { a: 1 }], two: [['b', 'a'], { b: [2], a: 'x' }] } });
  });

  it('passes lists and objects to tools as plain JSON', async () => {
    let received: unknown;
    await exec('CALL take { list: [1, {a: [true]}], "odd key": null }', tools({ take: (args) => ((received = args), null) }));
    expect(received).toEqual({ list: [1, { a: [true] }], 'odd key': null });
  });

  it('reports errors after a CALL at the right position', async () => {
    await expectFailure('LET a = CALL obj {}\nPRINT((CALL obj {}).missing)', 'MemberAccessError', /no key "missing"/, 2, 21, tools({ obj: () => ({ present: 1 }) }));
    await expectFailure('IF CALL n {} THEN END', 'InvalidConditionError', /got number 1/, 1, 4, tools({ n: () => 1 }));
    await expectFailure('FOR x IN CALL n {} DO END', 'InvalidIterableError', /got number 1/, 1, 10, tools({ n: () => 1 }));
    await expectFailure('PRINT(CALL n {} + "a")', 'TypeError', /use FORMAT/, 1, 17, tools({ n: () => 1 }));
    await expectFailure('FOR x IN [1, 2] DO\n  LET y = CALL n {}\n  LET z = y / (x - 2)\nEND', 'DivisionByZeroError', /by zero/, 3, 13, tools({ n: () => 1 }));
  });

  it('evaluates CALC whose vars come from a CALL', async () => {
    expect((await exec('PRINT(CALC { formula: "a * 2", vars: { a: CALL n {} } })', tools({ n: () => 21 }))).output).toEqual(['42']);
  });

  it('waits at every level of nested loops, IFs and blocks, and goes on where it stopped', async () => {
    const used = tools({ id: (args) => args.v as number, yes: () => true, list: (args) => Array.from({ length: args.n as number }, (_, i) => i) });
    const source = [
      'LET total = 0',
      'LET seen = []',
      'FOR a IN CALL list { n: 3 } DO',
      '  IF CALL yes {} THEN',
      '    FOR b IN CALL list { n: 4 } DO',
      '      LET v = CALL id { v: a * 10 + b }',
      '      IF v % 2 == 0 THEN',
      '        CALL id { v: 0 }',
      '        LET total = total + v',
      '      ELSE',
      '        LET seen = APPEND(seen, CALL id { v: v })',
      '      END',
      '    END',
      '  END',
      'END',
      'PRINT(total)',
      'PRINT(seen)',
    ].join('\n');
    const { output, steps } = await exec(source, used);
    expect(output).toEqual(['66', '[1,3,11,13,21,23]']);
    // LET ×2, FOR, 3 × (iteration, IF, FOR, 2 even b × (iteration, LET, IF, CALL, LET) + 2 odd b × (iteration, LET, IF, LET)), PRINT ×2
    expect(steps).toBe(2 + 1 + 3 * (3 + 2 * 5 + 2 * 4) + 2);
  });

  it('runs a long loop over the tool without growing the stack', async () => {
    const used = tools({ inc: (args) => (args.v as number) + 1 });
    const { output } = await exec('LET total = 0\nFOR i IN RANGE(30000) DO\n  LET total = CALL inc { v: total }\nEND\nPRINT(total)', used, { maxSteps: 1e6, maxToolCalls: 1e6 });
    expect(output).toEqual(['30000']);
  });
});

describe('a tool whose promise-like answer settles inside its `then`', () => {
  it('is waited for like a promise, and a long loop over it does not recurse', async () => {
    const now = { then: (resolve: (value: unknown) => void) => resolve(1) };
    const { output } = await exec('LET total = 0\nFOR i IN RANGE(30000) DO\n  LET total = total + CALL now {}\n  CALL now {}\nEND\nPRINT(total)', { now: () => now as never }, {
      maxSteps: 1e6,
      maxToolCalls: 1e6,
    });
    expect(output).toEqual(['30000']);
  });
});

