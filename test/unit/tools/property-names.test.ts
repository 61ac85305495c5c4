// Property names are data (issue 14): a parameter may be called `__proto__`, `constructor`,
// `toString`, `""` or `名前`, and it behaves as `city` does — in validation (required, unknown),
// coercion, defaults (also nested), result checks, `check` and the prompts. Ajv reads inherited names
// through the prototype and skips `__proto__` altogether; src/tools/bare.ts is what makes them
// ordinary, and this property is what proves it, for names fast-check makes up as well as the odd ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPrompt, check, Interpreter, ToolRegistry } from '../../../src/index.js';
import { argumentKey } from '../../../src/tools/signature.js';
import type { JsonObject } from '../../../src/values/json.js';
import type { JsonSchema } from '../../../src/tools/types.js';

const ODD_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', '', 'é', '名前', 'first name', 'IF', '__proto__\u0000', 'a"b\\c'];
const names = fc.oneof(fc.constantFrom(...ODD_NAMES), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 4 })).filter((name) => name !== 'other');

/** `{ [name]: value }` with `name` an own key whatever it is (a literal `__proto__:` would set the prototype). */
function keyed(name: string, value: unknown, rest: Record<string, unknown> = {}): Record<string, never> {
  return JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}${Object.keys(rest).length > 0 ? `,${JSON.stringify(rest).slice(1, -1)}` : ''}}`) as Record<string, never>;
}

/** The tools under test, their parameter called `name` (and `other`, a plain name, beside it where that helps). */
function registryFor(name: string): ToolRegistry {
  const registry = new ToolRegistry();
  const echo = (args: JsonObject) => args;
  const returns = 'any' as const;
  const number = { type: 'number' };
  registry.register({ name: 'req', description: 'required', parameters: { type: 'object', properties: keyed(name, number), required: [name] }, returns, execute: echo });
  registry.register({ name: 'opt', description: 'optional with a default', parameters: { type: 'object', properties: keyed(name, { ...number, default: 7 }, { other: number }) }, returns, execute: echo });
  registry.register({
    name: 'nested',
    description: 'the name one level down',
    parameters: { type: 'object', properties: { o: { type: 'object', properties: keyed(name, { ...number, default: 3 }), additionalProperties: false } }, required: ['o'] },
    returns,
    execute: echo,
  });
  // The Nuwa list form names its parameters by hand: an empty name there is a mistake, refused.
  const listName = name === '' ? 'empty' : name;
  registry.register({ name: 'list', description: 'the Nuwa list form', parameters: [{ name: listName, description: 'it', type: 'number', required: false }], returns, execute: echo });
  registry.register({
    name: 'gives',
    description: 'its result must have the key',
    parameters: [{ name: 'with', description: 'whether to include it', type: 'boolean' }],
    returns: { type: 'object', properties: keyed(name, number), required: [name] } as JsonSchema,
    execute: ({ with: include }) => (include ? keyed(name, 1) : {}),
  });
  return registry;
}

async function call(registry: ToolRegistry, tool: string, args: JsonObject) {
  return registry.execute({ name: tool, arguments: args });
}

const keysOf = (value: unknown) => Object.keys(value as object);

describe('any name JSON allows behaves like any other', () => {
  it('validation, coercion and defaults (registry.execute)', async () => {
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const registry = registryFor(name);
        // required: missing is refused, given is passed on as an own key; a numeric string is coerced
        expect(await call(registry, 'req', {})).toMatchObject({ success: false, code: 'ToolArgumentError' });
        expect((await call(registry, 'req', {})).error).toContain(`missing required argument \`${name}\``);
        const given = await call(registry, 'req', keyed(name, 1));
        expect(given).toMatchObject({ success: true });
        expect(keysOf(given.data)).toEqual([name]);
        expect((given.data as JsonObject)[name]).toBe(1);
        expect(Object.getPrototypeOf(given.data)).toBe(Object.prototype);
        const coerced = await call(registry, 'req', keyed(name, '2'));
        expect((coerced.data as JsonObject)[name]).toBe(2);
        expect((await call(registry, 'req', keyed(name, 'two'))).code).toBe('ToolArgumentError');
        expect((await call(registry, 'req', keyed(name, 1, { other: 1 }))).error).toContain('unknown argument `other`');
        // optional: left out, its default is filled in, as an own key
        const defaulted = await call(registry, 'opt', {});
        expect(defaulted).toMatchObject({ success: true });
        expect(keysOf(defaulted.data)).toEqual([name]);
        expect((defaulted.data as JsonObject)[name]).toBe(7);
        expect(((await call(registry, 'opt', keyed(name, '5'))).data as JsonObject)[name]).toBe(5);
        expect((await call(registry, 'opt', { other: 1 })).success).toBe(true);
        // nested: the default one level down, and an unknown key there is refused
        const nested = await call(registry, 'nested', { o: {} });
        expect(nested).toMatchObject({ success: true });
        expect(((nested.data as { o: JsonObject }).o as JsonObject)[name]).toBe(3);
        expect(keysOf((nested.data as { o: JsonObject }).o)).toEqual([name]);
        if (name !== 'zz') expect((await call(registry, 'nested', { o: { zz: 1 } })).success).toBe(false);
        // the Nuwa list form
        expect(await call(registry, 'list', {})).toMatchObject({ success: true, data: {} });
        const listName = name === '' ? 'empty' : name;
        expect(((await call(registry, 'list', keyed(listName, '4'))).data as JsonObject)[listName]).toBe(4);
        // results: a missing key is a ToolResultError, a present one passes
        expect((await call(registry, 'gives', { with: false })).code).toBe('ToolResultError');
        expect(keysOf((await call(registry, 'gives', { with: true })).data)).toEqual([name]);
      }),
      { numRuns: 60 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('scripts, check and the prompt', async () => {
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const registry = registryFor(name);
        const key = JSON.stringify(name);
        expect(check('CALL req {}', registry).map((problem) => problem.kind)).toEqual(['ToolArgumentError']);
        expect(check(`CALL req { ${key}: 1 }`, registry)).toEqual([]);
        expect(check('CALL opt {}', registry)).toEqual([]);
        expect(check('CALL list {}', registry)).toEqual([]);
        const printed: string[] = [];
        await new Interpreter(registry, { print: (line) => printed.push(line) }).run(`LET r = CALL opt {}\nPRINT(r[${key}])\nPRINT(LEN(KEYS(r)))\nLET s = CALL req { ${key}: "8" }\nPRINT(s[${key}])`);
        expect(printed).toEqual(['7', '1', '8']);
        const prompt = buildPrompt(registry);
        expect(prompt).toContain(`- req { ${argumentKey(name)}: number }`);
        expect(prompt).toContain(`- opt { ${argumentKey(name)}?: number = 7, other?: number }`);
        expect(prompt).toContain(`- list { ${argumentKey(name === '' ? 'empty' : name)}?: number "it" }`);
      }),
      { numRuns: 40 },
    );
  });

  it('a name that is not an identifier is shown quoted, as a CALL writes it', () => {
    expect(argumentKey('city')).toBe('city');
    expect(argumentKey('__proto__')).toBe('__proto__');
    expect(argumentKey('first name')).toBe('"first name"');
    expect(argumentKey('')).toBe('""');
    expect(argumentKey('IF')).toBe('"IF"');
  });
});
