// The tools the case corpus (test/cases/*.nuwa) calls. Each chunk of the corpus gets a fresh
// registry with these tools, so nothing a tool remembers leaks from one chunk to the next.
//
// The tools are deliberately small: each exists to make one guarantee of TOOLS.md observable from a
// script (a coercion, a bad result, a context member...). Group by group:
//
//   plain tools      echo, echo_string, echo_args, add, get_price, types, optional_arg
//   JSON Schema      make_order (enum, pattern, integer, minimum, nested properties, items, default),
//                    flexible (additionalProperties: true)
//   failures         fail_error, fail_string, async_fail, bad_result, nested, wrong_type, wrong_schema
//   async            slow_add, async_nothing, nothing
//   copies           mutate_args, shared_box
//   (state and context: test/support/corpus-context-tools.ts)
//   state            state_set, state_get, state_has, state_keys, state_clear, state_mutate,
//                    state_set_mutate, state_describe, state_meta, state_meta_keys
//   context          ctx_info, ctx_get_var, ctx_has_var, ctx_mutate_var, ctx_set_var, ctx_print,
//                    ctx_call, ctx_try_call, ctx_call_keep, ctx_log, ctx_sandbox, sandbox_write
//   approval         read_file (read), write_file (write), delete_file (destructive)
//   toolset          math.add, math.mul, math.name
//   time limits      never (timeoutMs 50, never settles), hang (no timeout, never settles)
//   value limits     doubled (an array holding the same array twice, `times` levels deep),
//                    long_string (a string of `length` characters)
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject, JsonValue, ToolContext, ToolDefinition, ToolRegistry } from '../../src/index.js';
import { registerStateAndContextTools, scribble } from './corpus-context-tools.js';

const PRICES: Record<string, number> = { AAPL: 190.5, MSFT: 410, GOOG: 150.25 };

/** What `bad_result { what }` returns: every kind of value a tool must not hand to a script. */
class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}
function badResult(what: string): unknown {
  switch (what) {
    case 'date':
      return new Date(0);
    case 'map':
      return new Map([['a', 1]]);
    case 'set':
      return new Set([1]);
    case 'class':
      return new Point(1, 2);
    case 'nan':
      return NaN;
    case 'infinity':
      return Infinity;
    case 'minus_infinity':
      return -Infinity;
    case 'bigint':
      return 10n;
    case 'function':
      return () => 1;
    case 'symbol':
      return Symbol('s');
    case 'cycle': {
      const list: unknown[] = [1];
      list.push(list);
      return list;
    }
    case 'object_cycle': {
      const object: Record<string, unknown> = { name: 'loop' };
      object.self = object;
      return object;
    }
    case 'nested_nan':
      return { a: [1, NaN] };
    case 'nested_date':
      return { when: { at: new Date(0) } };
    case 'undefined':
      return undefined;
    case 'undefined_property':
      return { a: 1, b: undefined, c: 'kept' };
    case 'undefined_item':
      return [1, undefined, 3];
    case 'proto_key':
      return JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as JsonValue;
    case 'shared':
      // The same object twice is not a cycle: it is plain JSON, written out twice.
      {
        const shared = { n: 1 };
        return { left: shared, right: shared };
      }
    default:
      throw new Error(`bad_result: unknown case ${what}`);
  }
}

const BAD_RESULTS = [
  'date', 'map', 'set', 'class', 'nan', 'infinity', 'minus_infinity', 'bigint', 'function', 'symbol', 'cycle',
  'object_cycle', 'nested_nan', 'nested_date', 'undefined', 'undefined_property', 'undefined_item', 'proto_key', 'shared',
];

function nestedLists(depth: number): JsonValue[] {
  let value: JsonValue[] = [];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
}

/** Registers the corpus tools on a fresh registry. */
export function registerCorpusTools(registry: ToolRegistry): void {
  // --- plain tools: the Nuwa form, register(name, schema, fn) -----------------------------------
  registry.register(
    'echo',
    { description: 'Returns its value unchanged.', parameters: [{ name: 'value', description: 'any JSON value', type: 'any' }], returns: 'any' },
    (args) => args.value ?? null,
  );
  registry.register(
    'echo_string',
    { description: 'Returns its string argument (shows string coercions).', parameters: [{ name: 'value', description: 'a string', type: 'string' }], returns: 'string' },
    (args) => args.value ?? null,
  );
  registry.register(
    'add',
    {
      description: 'Adds two numbers.',
      parameters: [
        { name: 'a', description: 'first number', type: 'number' },
        { name: 'b', description: 'second number', type: 'number' },
      ],
      returns: 'number',
    },
    (args) => (args.a as number) + (args.b as number),
  );
  registry.register(
    'get_price',
    { description: 'The price of a stock symbol (AAPL, MSFT, GOOG).', parameters: [{ name: 'symbol', description: 'ticker', type: 'string' }], returns: 'number' },
    (args) => {
      const price = PRICES[args.symbol as string];
      if (price === undefined) throw new Error(`unknown symbol ${String(args.symbol)}`);
      return price;
    },
  );
  registry.register(
    'types',
    {
      description: 'Takes one parameter of each Nuwa type and returns the arguments it received.',
      parameters: [
        { name: 's', description: 'a string', type: 'string' },
        { name: 'n', description: 'a number', type: 'number' },
        { name: 'b', description: 'a boolean', type: 'boolean' },
        { name: 'l', description: 'a list', type: 'array' },
        { name: 'o', description: 'an object', type: 'object' },
        { name: 'a', description: 'anything', type: 'any' },
      ],
      returns: 'object',
    },
    (args) => args,
  );
  registry.register(
    'optional_arg',
    {
      description: 'Greets name; greeting is optional. Returns the text and the argument keys it received.',
      parameters: [
        { name: 'name', description: 'who', type: 'string' },
        { name: 'greeting', description: 'how (default Hello)', type: 'string', required: false },
      ],
      returns: 'object',
    },
    (args) => ({ text: `${(args.greeting as string | undefined) ?? 'Hello'}, ${args.name as string}`, keys: Object.keys(args) }),
  );

  // --- JSON Schema tools (the one-object form) -------------------------------------------------
  registry.register({
    name: 'make_order',
    description: 'Validates an order and returns the arguments as the tool received them.',
    parameters: {
      type: 'object',
      properties: {
        symbol: { type: 'string', pattern: '^[A-Z]{1,5}$', description: 'ticker, 1 to 5 capitals' },
        side: { enum: ['buy', 'sell'] },
        qty: { type: 'integer', minimum: 1 },
        limit: { type: 'number', minimum: 0 },
        tif: { type: 'string', enum: ['day', 'gtc'], default: 'day' },
        options: {
          type: 'object',
          properties: { urgent: { type: 'boolean' }, note: { type: 'string' } },
          required: ['urgent'],
          additionalProperties: false,
        },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['symbol', 'side', 'qty'],
    },
    returns: { type: 'object', required: ['symbol', 'side', 'qty', 'tif'] },
    execute: (args) => args,
  });
  registry.register({
    name: 'flexible',
    description: 'Requires a numeric id and accepts any other argument (additionalProperties: true).',
    parameters: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'], additionalProperties: true },
    returns: 'object',
    execute: (args) => args,
  });
  registry.register({
    name: 'echo_args',
    description: 'Returns all its arguments as an object (accepts any).',
    parameters: { type: 'object', additionalProperties: true },
    returns: 'object',
    execute: (args) => args,
  });

  // --- failures ---------------------------------------------------------------------------------
  registry.register({
    name: 'fail_error',
    description: 'Throws an Error with the given message.',
    parameters: [{ name: 'message', description: 'the message', type: 'string' }],
    returns: 'any',
    execute: (args) => {
      throw new Error(args.message as string);
    },
  });
  registry.register({
    name: 'fail_string',
    description: 'Throws a plain string.',
    parameters: [{ name: 'message', description: 'the string thrown', type: 'string' }],
    returns: 'any',
    execute: (args) => {
      throw args.message as string;
    },
  });
  registry.register({
    name: 'async_fail',
    description: 'Returns a promise that rejects with an Error.',
    parameters: [{ name: 'message', description: 'the message', type: 'string' }],
    returns: 'any',
    execute: async (args) => {
      await sleep(1);
      throw new Error(args.message as string);
    },
  });
  registry.register({
    name: 'bad_result',
    description: 'Returns a value that is not JSON (or is an edge case of JSON), chosen by `what`.',
    parameters: { type: 'object', properties: { what: { enum: BAD_RESULTS } }, required: ['what'] },
    returns: 'any',
    execute: (args) => badResult(args.what as string),
  });
  registry.register({
    name: 'nested',
    description: 'Returns lists nested `depth` levels deep: depth 1 is [], depth 2 is [[]].',
    parameters: { type: 'object', properties: { depth: { type: 'integer', minimum: 1, maximum: 5000 } }, required: ['depth'] },
    returns: 'array',
    execute: (args) => nestedLists(args.depth as number),
  });
  registry.register({
    name: 'wrong_type',
    description: 'Declares returns: number but returns a string.',
    parameters: [],
    returns: 'number',
    // @ts-expect-error: the types refuse the wrong result too; the runtime's check is what this tool is for
    execute: () => 'forty-two',
  });
  registry.register({
    name: 'wrong_schema',
    description: 'Declares a JSON Schema result { id: integer } but returns { id: "x" }.',
    parameters: [],
    returns: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    // @ts-expect-error: the types refuse the wrong result too; the runtime's check is what this tool is for
    execute: () => ({ id: 'x' }),
  });

  // --- async ------------------------------------------------------------------------------------
  registry.register({
    name: 'slow_add',
    description: 'Adds two numbers after a short wait (returns a promise).',
    parameters: [
      { name: 'a', description: 'first number', type: 'number' },
      { name: 'b', description: 'second number', type: 'number' },
    ],
    returns: 'number',
    execute: async (args) => {
      await sleep(2);
      return (args.a as number) + (args.b as number);
    },
  });
  registry.register({
    name: 'async_nothing',
    description: 'A promise that resolves to undefined.',
    parameters: [],
    returns: 'null',
    execute: async () => {
      await sleep(1);
      return undefined;
    },
  });
  registry.register({
    name: 'nothing',
    description: 'Returns undefined.',
    parameters: [],
    returns: 'null',
    execute: () => undefined,
  });

  // --- copies in and out ----------------------------------------------------------------------
  registry.register({
    name: 'mutate_args',
    description: 'Scribbles over its arguments (lists get "scribbled" appended, objects scribbled: true) and returns them.',
    parameters: [
      { name: 'list', description: 'a list', type: 'array' },
      { name: 'obj', description: 'an object', type: 'object' },
    ],
    returns: 'object',
    execute: (args) => {
      scribble(args.list);
      scribble(args.obj);
      return { list: args.list ?? null, obj: args.obj ?? null };
    },
  });
  const box: { calls: number; history: number[] } = { calls: 0, history: [] };
  registry.register({
    name: 'shared_box',
    description: 'Returns the same JS object on every call, after counting the call in it.',
    parameters: [],
    returns: 'object',
    execute: () => {
      box.calls += 1;
      box.history.push(box.calls);
      return box;
    },
  });

  registerStateAndContextTools(registry);

  // --- risk levels (§6): each records in state that its function ran ---------------------------
  registry.register({
    name: 'read_file',
    description: 'Pretends to read a file (confirm: read).',
    parameters: [{ name: 'path', description: 'the file', type: 'string' }],
    returns: 'string',
    category: 'file',
    confirm: 'read',
    execute: (args, context) => {
      context.setState(`read:${args.path as string}`, true);
      return `contents of ${args.path as string}`;
    },
  });
  registry.register({
    name: 'write_file',
    description: 'Pretends to write a file (confirm: write).',
    parameters: [
      { name: 'path', description: 'the file', type: 'string' },
      { name: 'content', description: 'the text', type: 'string' },
    ],
    returns: 'boolean',
    category: 'file',
    confirm: 'write',
    execute: (args, context) => {
      context.setState(`wrote:${args.path as string}`, args.content as string);
      return true;
    },
  });
  registry.register({
    name: 'delete_file',
    description: 'Pretends to delete a file (confirm: destructive).',
    parameters: [{ name: 'path', description: 'the file', type: 'string' }],
    returns: 'boolean',
    category: 'file',
    confirm: 'destructive',
    execute: (args, context) => {
      context.setState(`deleted:${args.path as string}`, true);
      return true;
    },
  });

  // --- a toolset ----------------------------------------------------------------------------------
  const pair = [
    { name: 'a', description: 'first number', type: 'number' },
    { name: 'b', description: 'second number', type: 'number' },
  ] as const;
  const math: ToolDefinition[] = [
    { name: 'add', description: 'a + b', parameters: [...pair], returns: 'number', execute: (args) => (args.a as number) + (args.b as number) },
    { name: 'mul', description: 'a * b', parameters: [...pair], returns: 'number', execute: (args) => (args.a as number) * (args.b as number) },
    { name: 'name', description: 'context.toolName', parameters: [], returns: 'string', execute: (_args, context) => context.toolName },
  ];
  registry.registerToolset('math', math);

  // --- tools that never finish ----------------------------------------------------------------
  // Each records in state the kind of the error its signal was aborted with.
  const neverSettles = (stateKey: string) => (_args: JsonObject, context: ToolContext) => {
    context.signal.addEventListener('abort', () => {
      const reason = context.signal.reason as { kind?: string } | undefined;
      context.setState(stateKey, reason?.kind ?? 'aborted');
    });
    return new Promise<JsonValue>(() => {});
  };
  registry.register({
    name: 'never',
    description: 'Never settles; has timeoutMs 50.',
    parameters: [],
    returns: 'any',
    timeoutMs: 50,
    execute: neverSettles('never_signal'),
  });
  registry.register({
    name: 'hang',
    description: 'Never settles; has no timeout of its own.',
    parameters: [],
    returns: 'any',
    execute: neverSettles('hang_signal'),
  });

  // --- values over the limits (maxValueSize, maxStringLength) ----------------------------------
  registry.register({
    name: 'doubled',
    description: 'An array holding the same array twice, `times` levels deep: 2^times leaves in a few bytes.',
    parameters: [{ name: 'times', description: 'how many doublings', type: 'number' }],
    returns: 'any',
    execute: ({ times }) => {
      let value: JsonValue = ['leaf'];
      for (let i = 0; i < (times as number); i++) value = [value, value];
      return value;
    },
  });
  registry.register({
    name: 'long_string',
    description: 'A string of `length` x characters.',
    parameters: [{ name: 'length', description: 'how many characters', type: 'number' }],
    returns: 'string',
    execute: ({ length }) => 'x'.repeat(length as number),
  });
}
