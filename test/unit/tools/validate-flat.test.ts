// Unit tests for the flat-schema check of src/tools/validate.ts and src/tools/flat-schema.ts: for a
// schema of named arguments of plain types, a few typeof tests stand in for Ajv, and a call that
// fails them is checked by flat-schema.ts. The check must never change a verdict: every call gets
// the same errors, problems and (coerced) arguments as with Ajv alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/values/json.js';
import { parametersToSchema } from '../../../src/tools/schema.js';
import type { JsonSchemaObject } from '../../../src/tools/types.js';
import { compileArgumentValidator } from '../../../src/tools/validate.js';
import { flatValidate, isFlat } from '../../../src/tools/flat-schema.js';
import { Ajv } from '../../../src/tools/ajv-sync.js';
import { lastJson, runChild, src } from '../../support/child.js';

const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object', undefined] as const;
const NAMES = ['a', 'b', 'qty', 'constructor'];

interface Property {
  name: string;
  type: (typeof TYPES)[number];
}

/** A flat schema: a few named properties of one type each (or any), some required, closed or open. */
function flatSchema(properties: Property[], required: string[], closed: boolean | undefined, described: boolean): JsonSchemaObject {
  const schema: JsonSchemaObject = {
    type: 'object',
    properties: Object.fromEntries(properties.map((p) => [p.name, { ...(p.type && { type: p.type }), ...(described && { description: `the ${p.name}` }) }])),
    required,
  };
  if (closed !== undefined) schema.additionalProperties = !closed;
  return schema;
}

const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('1', '2.5', 'true', 'false', 'x'), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const anything = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('k', 'l'), scalar, { maxKeys: 2 }));
/** A value of `type`, mostly: the arguments a model writes are mostly right. */
const valueOf = (type: Property['type']): fc.Arbitrary<unknown> => {
  const right: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 4 }),
    number: fc.double({ noNaN: true, noDefaultInfinity: true }),
    integer: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(scalar, { maxLength: 2 }),
    object: fc.dictionary(fc.constantFrom('k', 'l'), scalar, { maxKeys: 2 }),
  };
  return type === undefined ? anything : fc.oneof({ arbitrary: right[type]!, weight: 4 }, { arbitrary: anything, weight: 1 });
};

/** A flat schema and arguments for it: each property given (mostly rightly) or left out, and sometimes more. */
const schemaAndArguments = fc
  .record({
    properties: fc.uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), type: fc.constantFrom(...TYPES) }), { selector: (p) => p.name, maxLength: 4 }),
    closed: fc.option(fc.boolean(), { nil: undefined }),
    described: fc.boolean(),
  })
  .chain(({ properties, closed, described }) =>
    fc.record({
      required: fc.subarray(properties.map((p) => p.name)),
      given: fc.tuple(...properties.map((p) => fc.option(valueOf(p.type), { nil: undefined, freq: 4 }))),
      extra: fc.option(fc.tuple(fc.constantFrom('extra', 'toString'), anything), { nil: undefined, freq: 3 }),
    }).map(({ required, given, extra }) => {
      const args: JsonObject = {};
      properties.forEach((p, i) => given[i] !== undefined && (args[p.name] = given[i] as JsonObject[string]));
      if (extra !== undefined) args[extra[0]] = extra[1] as JsonObject[string];
      return { schema: flatSchema(properties, required, closed, described), args };
    }),
  );

describe('the flat-schema check', () => {
  it('gives every call the problems and the arguments Ajv alone gives', () => {
    fc.assert(
      fc.property(schemaAndArguments, ({ schema, args }) => {
        const flat = compileArgumentValidator('t', schema);
        // `$comment` changes nothing for Ajv, but keeps the schema from counting as flat.
        const ajvOnly = compileArgumentValidator('t', { ...schema, $comment: 'checked by Ajv' });
        const viaFlat = structuredClone(args);
        const viaAjv = structuredClone(args);
        expect(flat(viaFlat)).toEqual(ajvOnly(viaAjv));
        expect(viaFlat).toEqual(viaAjv);
      }),
      { numRuns: 2000 },
    );
  });

  it('reports the errors Ajv reports, in its order', () => {
    // The options validate.ts compiles argument validators with.
    const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false, logger: false, ownProperties: true });
    const fields = (errors: unknown) => ((errors ?? []) as { keyword: string; instancePath: string; params: unknown; message?: string }[]).map(({ keyword, instancePath, params, message }) => ({ keyword, instancePath, params, message }));
    fc.assert(
      fc.property(schemaAndArguments, ({ schema, args }) => {
        if (!isFlat(schema)) return;
        const ours = flatValidate(schema);
        const theirs = ajv.compile(schema);
        expect(ours(args)).toBe(theirs(args));
        expect(fields(ours.errors)).toEqual(fields(theirs.errors));
      }),
      { numRuns: 1000 },
    );
  });

  it('covers every Nuwa parameter list', () => {
    const schema = parametersToSchema('t', [
      { name: 'n', description: 'a number', type: 'number' },
      { name: 's', description: 'a string', type: 'string', required: false },
      { name: 'v', description: 'anything', type: 'any', required: false },
    ]);
    const validate = compileArgumentValidator('t', schema);
    expect(validate({ n: 1, s: 'x', v: [1] })).toBeNull();
    const coerced: JsonObject = { n: '2' };
    expect(validate(coerced)).toBeNull();
    expect(coerced).toEqual({ n: 2 });
    expect(validate({ n: 'two' })).toEqual([{ path: 'n', message: '`n`: expected number, received string "two"' }]);
  });
});

describe('Ajv', () => {
  it('is not loaded by runs whose tools have flat schemas, even for a call that fails the check; a richer schema loads it', async () => {
    const code = `
      import { createRequire } from 'node:module';
      import { Interpreter, ToolRegistry } from ${JSON.stringify(src('index.ts'))};
      const cache = createRequire(import.meta.url).cache;
      const ajvLoaded = () => Object.keys(cache).some((file) => /[\\\\/]node_modules[\\\\/]ajv[\\\\/]/.test(file));
      const registry = new ToolRegistry();
      registry.register({ name: 'inc', description: 'n + 1', parameters: [{ name: 'n', description: 'a number', type: 'number' }], returns: 'number', execute: ({ n }) => n + 1 });
      registry.register({ name: 'echo', description: 'echo', parameters: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] }, execute: ({ s }) => s });
      const interpreter = new Interpreter(registry, { print: () => {} });
      await interpreter.run('LET a = CALL inc { n: 1 }\\nLET b = CALL echo { s: "x" }');
      const before = ajvLoaded();
      await interpreter.run('LET a = CALL inc { n: "2" }');
      const failed = await interpreter.run('LET a = CALL inc { m: 2 }').catch((error) => error.message);
      const after = ajvLoaded();
      registry.register({ name: 'tags', description: 'tags', parameters: { type: 'object', properties: { t: { type: 'array', items: { type: 'string' } } } }, execute: ({ t }) => t });
      console.log(JSON.stringify({ before, after, failed, rich: ajvLoaded() }));
    `;
    const result = await runChild(code);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toMatchObject({ before: false, after: false, rich: true });
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!).failed).toContain('missing required argument `n`');
  });

  it('is reported as unusable, not as a bad schema, in a host that forbids code from text, and prints nothing', async () => {
    const code = `
      import { ToolRegistry } from ${JSON.stringify(src('index.ts'))};
      let message;
      try {
        new ToolRegistry().register({ name: 'echo', description: 'echo', parameters: { type: 'object', properties: { s: { type: 'string', pattern: '^a' } } }, execute: ({ s }) => s });
      } catch (error) {
        message = error.message;
      }
      console.log(JSON.stringify({ message }));
    `;
    const result = await runChild(code, { nodeArgs: ['--disallow-code-generation-from-strings'] });
    expect(result.stderr).toBe('');
    expect(lastJson(result)).toEqual({ message: 'tool "echo": its parameters schema cannot be checked in this host: validating a JSON Schema needs code generated from text (Ajv), which the host forbids' });
  });
});
