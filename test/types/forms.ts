// The registration forms and what the runtime accepts (TOOLS.md §1): everything build.ts takes
// type-checks (no `returns`, no `parameters`, a parameter without a description, readonly lists),
// a wrong call in one form is not taken for another form, and lists of tools typed from different
// schemas go where lists of tools go.
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { ToolRegistry, defineTool, type JsonObject, type ToolDefinition, type ToolContext } from '../../src/index.js';

const registry = new ToolRegistry();

// No `returns` (any JSON value), no `parameters` (no arguments), options as readonly lists.
registry.register({ name: 'ping', description: 'Answers pong', execute: () => 'pong', keywords: ['health'] as const });
registry.register('pong', { description: 'Answers ping' }, () => 'ping');
// The function in the schema object of the Nuwa form.
registry.register('echo', { description: 'Echoes s', parameters: [{ name: 's', type: 'string' }], execute: ({ s }) => s });
// The context is the second argument, in every form.
registry.register({
  name: 'remember',
  description: 'Keeps a value in the session',
  parameters: [{ name: 'value', type: 'any' }],
  execute: ({ value }, context) => {
    expectTypeOf(context).toEqualTypeOf<ToolContext>();
    context.setState('last', value);
    return value;
  },
});
// confirmFor gets the typed arguments too.
registry.register({
  name: 'send_mail',
  description: 'Sends a mail, or only drafts it',
  confirm: 'write',
  confirmFor: ({ draft }) => (draft ? 'read' : 'write'),
  parameters: { type: 'object', properties: { to: { type: 'string' }, draft: { type: 'boolean', default: true } }, required: ['to'] },
  returns: 'string',
  execute: ({ to, draft }) => `${draft ? 'drafted' : 'sent'} to ${to}`,
});

// A definition written apart, typed as the general ToolDefinition: the general JSON object.
const general: ToolDefinition = { name: 'general', description: 'Any arguments', execute: (args) => Object.keys(args).length };
registry.register(general);

// Toolsets: each tool typed from its own schema, in one list.
registry.registerToolset('math', [
  { name: 'add', description: 'a + b', parameters: [{ name: 'a', type: 'number' }, { name: 'b', type: 'number' }], returns: 'number', execute: ({ a, b }) => a + b },
  { name: 'upper', description: 'Upper case', parameters: z.object({ s: z.string() }), returns: 'string', execute: ({ s }) => s.toUpperCase() },
  defineTool({ id: 'neg', name: 'neg', description: '-n', input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, execute: ({ n }) => ({ success: true, data: -n }) }),
  general,
]);

// Plaited: register(name, handler, schema), the handler typed from the schema after it.
registry.register(
  'createStyle',
  async ({ selector, properties }) => ({ success: true, data: { css: `${selector.trim()} { ${Object.keys(properties).join('; ')} }` } }),
  {
    name: 'createStyle',
    description: 'Generate CSS for a selector',
    parameters: { type: 'object', properties: { selector: { type: 'string' }, properties: { type: 'object' } }, required: ['selector', 'properties'] },
  },
);

// A list of definitions of different schemas is a list of ToolDefinitions.
const listed: ToolDefinition[] = [
  { name: 'one', description: 'one', parameters: [{ name: 'n', type: 'number' }] as const, execute: ({ n }: { n: number }) => n },
  general,
];
expectTypeOf(listed).items.toHaveProperty('execute');

// What must not compile, each for its own reason.
// @ts-expect-error: a tool needs a description
registry.register({ name: 'nameless', execute: () => null });
// @ts-expect-error: execute is not a function
registry.register({ name: 'broken', description: 'x', execute: 42 });
// @ts-expect-error: confirm is one of none, read, write, destructive
registry.register({ name: 'risky', description: 'x', confirm: 'maybe', execute: () => null });
// @ts-expect-error: the Nuwa form needs a schema object, not a name alone
registry.register('lonely');
// @ts-expect-error: the Nuwa form's schema needs a description
registry.register('undescribed', { parameters: [{ name: 'n', type: 'number' }] }, ({ n }) => n);
// @ts-expect-error: returns says string
registry.register('wrong_result', { description: 'x', parameters: [{ name: 'n', type: 'number' }], returns: 'string' }, ({ n }) => n * 2);
registry.register(
  'plaited_bad',
  // @ts-expect-error: a Plaited handler answers with an envelope
  async () => ({ ok: true }),
  { description: 'x' },
);
registry.register(
  'plaited_undescribed',
  async ({ n }) => ({ success: true, data: n + 1 }),
  // @ts-expect-error: Plaited's schema needs a description too
  { parameters: [{ name: 'n', type: 'number' }] },
);
registry.register('typed', { description: 'x', parameters: [{ name: 'n', type: 'number' }] }, ({ n }) =>
  // @ts-expect-error: `n` is a number
  n.toUpperCase(),
);
registry.registerToolset('bad', [
  // @ts-expect-error: `s` is a string, in a toolset too
  { name: 'bad', description: 'x', parameters: [{ name: 's', type: 'string' }], execute: ({ s }) => s.toFixed() },
]);
const args: JsonObject = {};
// @ts-expect-error: a result must be JSON-like where returns names a type: not a function
registry.register({ name: 'fn_result', description: 'x', returns: 'object', execute: () => args.x ?? 1 });
