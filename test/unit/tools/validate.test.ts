// Unit tests for src/tools/validate.ts: the argument checks of TOOLS.md §2 and the result checks of §3.
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/values/json.js';
import { parametersToSchema, returnsToSchema } from '../../../src/tools/schema.js';
import type { JsonSchema, JsonSchemaObject, NuwaType, ToolParameter } from '../../../src/tools/types.js';
import { compileArgumentValidator, compileResultCheck, describeJson, type ArgumentProblem } from '../../../src/tools/validate.js';

function p(name: string, type: NuwaType, required?: boolean): ToolParameter {
  return required === undefined ? { name, description: `the ${name}`, type } : { name, description: `the ${name}`, type, required };
}

/** Validates a fresh copy of `args`; returns the problems and the (coerced, defaulted) arguments. */
function check(parameters: ToolParameter[] | JsonSchemaObject, args: JsonObject): { problems: ArgumentProblem[] | null; args: JsonObject } {
  const validate = compileArgumentValidator('t', parametersToSchema('t', parameters));
  const copy = structuredClone(args);
  return { problems: validate(copy), args: copy };
}

function paths(problems: ArgumentProblem[] | null): string[] {
  return (problems ?? []).map((problem) => problem.path);
}

describe('rule 2: required parameters', () => {
  it('accepts a complete call and returns null', () => {
    const result = check([p('a', 'string'), p('b', 'number')], { a: 'x', b: 1 });
    expect(result.problems).toBeNull();
    expect(result.args).toEqual({ a: 'x', b: 1 });
  });

  it('reports a missing required parameter with its path, type and description', () => {
    const { problems } = check([p('a', 'string'), p('b', 'number')], { a: 'x' });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('b');
    expect(problems![0]!.message).toBe('missing required argument `b` (number: the b)');
  });

  it('treats a required parameter given null as missing', () => {
    const { problems } = check([p('a', 'string')], { a: null });
    expect(problems).toEqual([{ path: 'a', message: 'missing required argument `a` (null was given)' }]);
  });

  it('accepts an absent optional parameter', () => {
    expect(check([p('a', 'string', false)], {}).problems).toBeNull();
  });

  it('treats an optional parameter given null as absent (it is not passed on)', () => {
    const { problems, args } = check([p('a', 'string', false)], { a: null });
    expect(problems).toBeNull();
    expect(Object.hasOwn(args, 'a')).toBe(false);
  });

  it('applies the JSON-Schema default to an optional parameter given null', () => {
    const { problems, args } = check({ type: 'object', properties: { limit: { type: 'integer', default: 10 } } }, { limit: null });
    expect(problems).toBeNull();
    expect(args).toEqual({ limit: 10 });
  });

  it('keeps null for a parameter whose schema accepts null', () => {
    const { problems, args } = check({ type: 'object', properties: { note: { type: ['string', 'null'] } }, required: ['note'] }, { note: null });
    expect(problems).toBeNull();
    expect(args).toEqual({ note: null });
  });

  it('a parameter of type null accepts null', () => {
    const { problems, args } = check([p('nothing', 'null')], { nothing: null });
    expect(problems).toBeNull();
    expect(args).toEqual({ nothing: null });
  });

  it('a required any parameter accepts every JSON value but not null-as-missing', () => {
    for (const value of ['s', 1, true, [1], { a: 1 }] as JsonValue[]) expect(check([p('v', 'any')], { v: value }).problems).toBeNull();
    expect(check([p('v', 'any')], {}).problems).toEqual([{ path: 'v', message: 'missing required argument `v` (any value: the v)' }]);
  });
});

describe('rule 3: unknown arguments', () => {
  it('refuses an unknown argument, listing the accepted parameters and the closest name', () => {
    const { problems } = check([p('qty', 'number'), p('sku', 'string')], { qty: 1, sku: 'A', qtty: 2 });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('qtty');
    expect(problems![0]!.message).toMatch(/unknown argument `qtty`/);
    expect(problems![0]!.message).toMatch(/did you mean `qty`\?/);
    expect(problems![0]!.message).toMatch(/accepted arguments: qty, sku/);
  });

  it('says so when a tool takes no arguments', () => {
    const { problems } = check([], { x: 1 });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('x');
    expect(problems![0]!.message).toMatch(/unknown argument `x`.*this tool takes no arguments/);
  });

  it('reports every unknown argument', () => {
    const { problems } = check([p('a', 'number')], { a: 1, zzz: 1, yyy: 2 });
    expect(paths(problems).sort()).toEqual(['yyy', 'zzz']);
  });

  it('lets extra arguments through when the JSON Schema sets additionalProperties: true', () => {
    const { problems, args } = check({ type: 'object', properties: { a: { type: 'number' } }, additionalProperties: true }, { a: 1, extra: 'x' });
    expect(problems).toBeNull();
    expect(args).toEqual({ a: 1, extra: 'x' });
  });

  it('refuses unknown keys inside nested objects that close them', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { opts: { type: 'object', properties: { deep: { type: 'boolean' } }, additionalProperties: false } },
    };
    const { problems } = check(schema, { opts: { deep: true, wide: 1 } });
    expect(problems).toEqual([{ path: 'opts.wide', message: '`opts` has an unknown key `wide`' }]);
  });
});

describe('rule 4: defaults', () => {
  it('fills in defaults declared in a JSON Schema', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'integer', default: 20 }, sort: { type: 'string', default: 'asc' } },
      required: ['q'],
    };
    const { problems, args } = check(schema, { q: 'x' });
    expect(problems).toBeNull();
    expect(args).toEqual({ q: 'x', limit: 20, sort: 'asc' });
  });

  it('does not override a value that was given', () => {
    const { args } = check({ type: 'object', properties: { limit: { type: 'integer', default: 20 } } }, { limit: 3 });
    expect(args).toEqual({ limit: 3 });
  });
});

describe('rule 5: types, checked deeply', () => {
  it.each([
    ['string', { a: 1 }, 'object'],
    ['number', true, 'boolean'],
    ['boolean', 'x', 'string'],
    ['array', { a: 1 }, 'object'],
    ['object', [1], 'array'],
    ['null', 0, 'number'],
  ] as Array<[NuwaType, JsonValue, string]>)('a %s parameter refuses %j', (type, value) => {
    const { problems } = check([p('v', type)], { v: value });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('v');
    expect(problems![0]!.message).toMatch(new RegExp(`^\`v\`: expected ${type === 'array' ? 'list' : type}, received `));
  });

  it('states what was expected and what was received', () => {
    const { problems } = check([p('n', 'number')], { n: [1, 2] });
    expect(problems).toEqual([{ path: 'n', message: '`n`: expected number, received list of 2 items' }]);
  });

  it('checks enum', () => {
    const { problems } = check({ type: 'object', properties: { unit: { type: 'string', enum: ['kg', 'lb'] } } }, { unit: 'g' });
    expect(problems).toEqual([{ path: 'unit', message: '`unit`: expected one of "kg", "lb", received string "g"' }]);
  });

  it('checks array items and reports the index', () => {
    const { problems } = check({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }, { tags: ['a', ['b'], 'c'] });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('tags[1]');
    expect(problems![0]!.message).toMatch(/expected string, received list of 1 item/);
  });

  it('checks nested properties and required keys of nested objects', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] },
      },
    };
    const { problems } = check(schema, { address: { zip: 'x' } });
    expect(problems).toEqual([{ path: 'address.city', message: '`address` is missing the required key `city`' }]);
  });

  it('checks minimum', () => {
    const { problems } = check({ type: 'object', properties: { n: { type: 'number', minimum: 0 } } }, { n: -1 });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('n');
    expect(problems![0]!.message).toMatch(/^`n`: .*>= 0.*received number -1$/);
  });

  it('checks pattern', () => {
    const { problems } = check({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } } }, { code: 'abc' });
    expect(problems).toHaveLength(1);
    expect(problems![0]!.path).toBe('code');
    expect(problems![0]!.message).toMatch(/pattern.*received string "abc"/);
  });

  it('checks integer', () => {
    const { problems } = check({ type: 'object', properties: { n: { type: 'integer' } } }, { n: 2.5 });
    expect(problems).toEqual([{ path: 'n', message: '`n`: expected integer, received number 2.5' }]);
    expect(check({ type: 'object', properties: { n: { type: 'integer' } } }, { n: 3 }).problems).toBeNull();
  });

  it('checks formats (ajv-formats is loaded)', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { mail: { type: 'string', format: 'email' } } };
    expect(check(schema, { mail: 'a@b.org' }).problems).toBeNull();
    expect(paths(check(schema, { mail: 'not an address' }).problems)).toEqual(['mail']);
  });
});

describe('rule 5: only lossless coercions', () => {
  const numberSchema: JsonSchemaObject = { type: 'object', properties: { n: { type: 'number' } } };
  const integerSchema: JsonSchemaObject = { type: 'object', properties: { n: { type: 'integer' } } };

  it.each([
    ['42', 42],
    ['-3.5', -3.5],
    ['1e3', 1000],
    ['0', 0],
  ])('coerces the numeric string %j to the number %j', (text, value) => {
    const { problems, args } = check(numberSchema, { n: text });
    expect(problems).toBeNull();
    expect(args.n).toBe(value);
  });

  it('coerces "42" for an integer parameter', () => {
    const { problems, args } = check(integerSchema, { n: '42' });
    expect(problems).toBeNull();
    expect(args.n).toBe(42);
  });

  it('does not coerce "4.5" for an integer parameter', () => {
    const { problems } = check(integerSchema, { n: '4.5' });
    expect(problems).toEqual([{ path: 'n', message: '`n`: expected integer, received string "4.5"' }]);
  });

  it.each(['abc', '', '0x1A', 'Infinity', 'NaN', '1,5', '12abc'])('does not coerce the string %j to a number', (text) => {
    const { problems } = check(numberSchema, { n: text });
    expect(paths(problems)).toEqual(['n']);
    expect(problems![0]!.message).toMatch(/expected number, received string/);
  });

  it('coerces "true" and "false" for a boolean parameter', () => {
    const result = check([p('a', 'boolean'), p('b', 'boolean')], { a: 'true', b: 'false' });
    expect(result.problems).toBeNull();
    expect(result.args).toEqual({ a: true, b: false });
  });

  it.each([['yes'], ['1'], ['TRUE'], [1], [0]] as Array<[JsonValue]>)('does not coerce %j to a boolean', (value) => {
    const { problems } = check([p('a', 'boolean')], { a: value });
    expect(paths(problems)).toEqual(['a']);
    expect(problems![0]!.message).toMatch(/^`a`: expected boolean, received /);
  });

  it('coerces a number or a boolean for a string parameter', () => {
    const result = check([p('a', 'string'), p('b', 'string'), p('c', 'string')], { a: 42, b: 1.5, c: true });
    expect(result.problems).toBeNull();
    expect(result.args).toEqual({ a: '42', b: '1.5', c: 'true' });
  });

  it('does not turn null into a string for an optional parameter: it is absent', () => {
    const { problems, args } = check([p('s', 'string', false)], { s: null });
    expect(problems).toBeNull();
    expect(args).toEqual({});
  });

  it('does not coerce null inside a list', () => {
    const { problems } = check({ type: 'object', properties: { xs: { type: 'array', items: { type: 'number' } } } }, { xs: [1, null] });
    expect(paths(problems)).toEqual(['xs[1]']);
    expect(problems![0]!.message).toMatch(/expected number, received null/);
  });

  it('never coerces lists or objects', () => {
    const { problems } = check([p('a', 'string'), p('b', 'number'), p('c', 'string'), p('d', 'boolean')], {
      a: ['x'],
      b: ['1'],
      c: { v: 1 },
      d: ['true'],
    });
    expect(paths(problems).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('does not parse JSON text into a list or an object', () => {
    const { problems } = check([p('xs', 'array'), p('o', 'object')], { xs: '[1,2]', o: '{"a":1}' });
    expect(paths(problems).sort()).toEqual(['o', 'xs']);
  });

  it('does not coerce a number that is not an integer for an integer parameter', () => {
    expect(paths(check(integerSchema, { n: 4.5 }).problems)).toEqual(['n']);
  });

  it('coerces inside nested objects and lists', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { qty: { type: 'integer' }, gift: { type: 'boolean' }, note: { type: 'string' } } },
        },
        opts: { type: 'object', properties: { limit: { type: 'number' } } },
      },
    };
    const { problems, args } = check(schema, { items: [{ qty: '2', gift: 'true' }, { qty: 3, note: 7 }], opts: { limit: '1.5' } });
    expect(problems).toBeNull();
    expect(args).toEqual({ items: [{ qty: 2, gift: true }, { qty: 3, note: '7' }], opts: { limit: 1.5 } });
  });

  it('checks the other keywords against the coerced value', () => {
    const { problems } = check({ type: 'object', properties: { n: { type: 'number', minimum: 0 } } }, { n: '-5' });
    expect(paths(problems)).toEqual(['n']);
    expect(problems![0]!.message).toMatch(/>= 0.*received number -5$/);
  });
});

describe('rule 6: every problem of one call together', () => {
  it('reports missing, unknown and mistyped arguments in one list', () => {
    const { problems } = check([p('a', 'number'), p('b', 'number'), p('c', 'string')], { b: [1], d: 1, c: 'ok' });
    expect(paths(problems).sort()).toEqual(['a', 'b', 'd']);
  });

  it('includes a required-null problem alongside the others', () => {
    const { problems } = check([p('a', 'number'), p('b', 'boolean')], { a: null, b: 'maybe' });
    expect(problems).toEqual([
      { path: 'a', message: 'missing required argument `a` (null was given)' },
      { path: 'b', message: '`b`: expected boolean, received string "maybe"' },
    ]);
  });

  it('gives nested paths such as items[1].qty', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['sku', 'qty'] },
        },
      },
      required: ['items'],
    };
    const { problems } = check(schema, { items: [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 'many' }, { qty: 0 }] });
    expect(paths(problems).sort()).toEqual(['items[1].qty', 'items[2].qty', 'items[2].sku']);
    const many = problems!.find((problem) => problem.path === 'items[1].qty')!;
    expect(many.message).toBe('`items[1].qty`: expected integer, received string "many"');
  });

  it('quotes keys that are not identifiers in paths', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'number' } } } };
    const { problems } = check(schema, { m: { 'first-name': [] } });
    expect(paths(problems)).toEqual(['m["first-name"]']);
  });
});

describe('result checks', () => {
  function resultCheck(returns: NuwaType | JsonSchema) {
    return compileResultCheck('t', returns, returnsToSchema('t', returns));
  }

  const samples: Record<string, JsonValue> = { string: 's', number: 1.5, boolean: false, null: null, array: [1], object: { a: 1 } };

  it.each(['string', 'number', 'boolean', 'null', 'array', 'object'] as NuwaType[])('returns %s accepts only its own type', (type) => {
    const checkIt = resultCheck(type);
    for (const [kind, value] of Object.entries(samples)) {
      if (kind === type) expect(checkIt(value)).toBeNull();
      else expect(checkIt(value)).toBe(`expected ${type === 'array' ? 'list' : type}, received ${describeJson(value)}`);
    }
  });

  it('returns any accepts every JSON value', () => {
    const checkIt = resultCheck('any');
    for (const value of Object.values(samples)) expect(checkIt(value)).toBeNull();
  });

  it('does not coerce results: "1" is not a number', () => {
    expect(resultCheck('number')('1')).toBe('expected number, received string "1"');
  });

  it('checks a JSON Schema returns deeply', () => {
    const checkIt = resultCheck({ type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['id'] });
    expect(checkIt({ id: 1, tags: ['a'] })).toBeNull();
    const wrongId = checkIt({ id: 'x' });
    expect(wrongId).toMatch(/^expected object, received object with keys id \(/);
    expect(wrongId).toMatch(/id must be integer/);
    expect(checkIt({})).toMatch(/required property 'id'/);
    expect(checkIt({ id: 1, tags: [2] })).toMatch(/tags\[0\] must be string/);
    expect(checkIt([1])).toMatch(/^expected object, received list of 1 item/);
  });

  it('a boolean true schema accepts everything', () => {
    const checkIt = resultCheck(true);
    expect(checkIt({ anything: [1] })).toBeNull();
  });
});

describe('describeJson', () => {
  it('describes values briefly', () => {
    expect(describeJson(undefined)).toBe('nothing');
    expect(describeJson(null)).toBe('null');
    expect(describeJson([])).toBe('list of 0 items');
    expect(describeJson([1])).toBe('list of 1 item');
    expect(describeJson({})).toBe('empty object');
    expect(describeJson({ a: 1, b: 2 })).toBe('object with keys a, b');
    expect(describeJson('x'.repeat(50))).toBe(`string "${'x'.repeat(37)}..."`);
    expect(describeJson(true)).toBe('boolean true');
  });
});
