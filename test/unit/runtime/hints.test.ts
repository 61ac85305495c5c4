// Unit tests for src/runtime/hints.ts: "not defined" and "no such function" messages point at the
// likely fix first — a keyword or literal written the wrong way, a tool without CALL, a variable that
// only lived inside a loop or a branch, a counter never initialised — and never at Object.prototype.
import { describe, expect, it } from 'vitest';
import { Interpreter, NuwaError, ToolRegistry, parse } from '../../../src/index.js';
import type * as A from '../../../src/syntax/ast.js';
import { memberHint, undefinedVariableMessage } from '../../../src/runtime/hints.js';
import { unknownFunctionMessage } from '../../../src/syntax/functions.js';

/** The message of the error running `source` raises (with a tool `get_weather` registered). */
async function failure(source: string | A.Program): Promise<string> {
  const registry = new ToolRegistry();
  registry.register({ name: 'get_weather', description: 'w', parameters: [], returns: 'object', execute: async () => ({ t: 1 }) });
  try {
    await new Interpreter(registry, { print: () => {} }).run(source);
  } catch (error) {
    if (error instanceof NuwaError) return error.message;
    throw error;
  }
  throw new Error('expected the script to fail');
}

const variable = (name: string): A.Variable => ({ type: 'Variable', name, line: 1, column: 1, hasCall: false });

describe('undefinedVariableMessage', () => {
  it('gives the keyword or literal hint first, before any "set it with LET"', () => {
    expect(undefinedVariableMessage(variable('TRUE'))).toBe('`TRUE` is not defined: literals are lowercase: write `true`');
    expect(undefinedVariableMessage(variable('None'))).toBe('`None` is not defined: literals are lowercase: write `null`');
    expect(undefinedVariableMessage(variable('for'))).toBe('`for` is not defined: keywords are uppercase: write `FOR`');
    expect(undefinedVariableMessage(variable('RETURN'))).toMatch(/^`RETURN` is not defined: there is no RETURN/);
    expect(undefinedVariableMessage(variable('BREAK'))).toMatch(/^`BREAK` is not defined: there is no BREAK/);
  });

  it('says a tool is called with CALL, and a built-in with parentheses', () => {
    expect(undefinedVariableMessage(variable('get_weather'), { isTool: (n) => n === 'get_weather' })).toBe(
      '`get_weather` is a tool, not a variable: call it with CALL get_weather { ... }',
    );
    expect(undefinedVariableMessage(variable('LEN'))).toMatch(/^`LEN` is not defined: LEN is a function: call it as LEN\(/);
  });

  it('treats the names of Object.prototype as ordinary names', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(undefinedVariableMessage(variable(name), { visibleNames: () => [] })).toBe(`\`${name}\` is not defined: set it with LET ${name} = ... before reading it`);
    }
    for (const name of ['constructor', 'toString', '__proto__']) expect(unknownFunctionMessage(name)).not.toMatch(/native code|function Object|\[object/);
  });

  it('suggests a close name otherwise', () => {
    expect(undefinedVariableMessage(variable('totl'), { visibleNames: () => ['total', 'x'] })).toMatch(/set it with LET totl = \.\.\. before reading it: did you mean `total`\?$/);
  });
});

describe('where a missing variable was set (from the AST, when the script runs)', () => {
  it('explains that a variable set in a loop body is gone after the loop', async () => {
    expect(await failure('FOR x IN [1, 2] DO\n  LET last = x\nEND\nPRINT(last)')).toMatch(
      /^`last` is not defined here: it was first set inside the FOR loop on line 1, .* write LET last = \.\.\. before the loop/,
    );
  });

  it('explains that a loop body forgets its variables between iterations', async () => {
    expect(await failure('FOR x IN [1, 2] DO\n  IF x == 2 THEN\n    PRINT(prev)\n  END\n  LET prev = x\nEND')).toMatch(
      /^`prev` is not defined here: it is set later in the loop body \(line 5\), .* before the FOR on line 1/,
    );
  });

  it('says to initialise a counter before the loop, not "did you mean" another name', async () => {
    const message = await failure('LET c = 1\nFOR x IN [1] DO\n  LET count = count + 1\nEND');
    expect(message).toMatch(/^`count` is read before it has a value .*initialise it before the loop, e\.g\. LET count = 0 above the FOR on line 2/);
    expect(message).not.toMatch(/did you mean/);
    expect(await failure('LET count = count + 1')).toMatch(/initialise it first, e\.g\. LET count = 0 on an earlier line/);
  });

  it('explains a loop variable read after its loop, a variable set later, and one set in a branch that did not run', async () => {
    expect(await failure('FOR item IN [1] DO\nEND\nPRINT(item)')).toMatch(/it is the loop variable of the FOR on line 1 and exists only inside that loop/);
    expect(await failure('PRINT(z)\nLET z = 1')).toMatch(/it is first set on line 2, after this line/);
    expect(await failure('IF false THEN\n  LET q = 1\nEND\nPRINT(q)')).toMatch(/it is set only inside the IF on line 1, and that branch did not run; LET q = \.\.\. before the IF/);
  });

  it('finds these facts in a parsed program run as an AST too, and in programs nested deep', async () => {
    expect(await failure(parse('FOR x IN [1] DO\n  LET t = x\nEND\nPRINT(t)'))).toMatch(/first set inside the FOR loop on line 1/);
    const deep = `${'IF true THEN\n'.repeat(900)}FOR x IN [1] DO\n  LET t = x\nEND\nPRINT(t)\n${'END\n'.repeat(900)}`;
    expect(await failure(deep)).toMatch(/first set inside the FOR loop on line 901/);
  });

  it('says a tool read as a value is called with CALL', async () => {
    expect(await failure('LET w = get_weather')).toBe('`get_weather` is a tool, not a variable: call it with CALL get_weather { ... }');
  });
});

describe('unknownFunctionMessage and memberHint', () => {
  it('names the uppercase built-in, the tool, or a close built-in', () => {
    expect(unknownFunctionMessage('print')).toMatch(/^there is no function `print`: built-in names are uppercase: write `PRINT` \(the built-ins are /);
    expect(unknownFunctionMessage('get_weather', (n) => n === 'get_weather')).toMatch(/^there is no function `get_weather`: `get_weather` is a tool: write CALL get_weather \{ \.\.\. \}/);
    expect(unknownFunctionMessage('LENGHT')).toMatch(/^there is no function `LENGHT`: did you mean `LEN`\?/);
    expect(unknownFunctionMessage('LENGTH')).toMatch(/^there is no function `LENGTH`: use LEN\(\.\.\.\)/);
    expect(unknownFunctionMessage('length')).toMatch(/^there is no function `length`: use LEN\(\.\.\.\)/);
  });

  it('points .length on a list or string at LEN, and a field of a list at its items', () => {
    expect(memberHint('length', variable('items'), 'list')).toBe(': for the length write LEN(items)');
    expect(memberHint('size', variable('s'), 'string')).toBe(': for the length write LEN(s)');
    expect(memberHint('length', variable('o'), undefined)).toBe('');
    expect(memberHint('price', variable('flights'), 'list')).toBe(': it is a list: for its first item write flights[0].price, for every item [f.price FOR f IN flights]');
    expect(memberHint('name', variable('x'), 'list')).toBe(': it is a list: for its first item write x[0].name, for every item [item.name FOR item IN x]');
    // A field of a string, or a method's name, has nothing better to say.
    expect(memberHint('name', variable('s'), 'string')).toBe('');
    expect(memberHint('upper', variable('xs'), 'list')).toBe('');
    expect(memberHint('constructor', variable('xs'), 'string')).toBe('');
  });
});
