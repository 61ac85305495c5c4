// Tools for examples/todo.nuwa: a to-do list kept in the session's state, registered as a toolset
// so that scripts call them as todo.add, todo.list, todo.complete and todo.clear_done. A tools
// module's default export may be a function that receives the registry, as here, instead of a list.
//   nuwa run examples/todo.nuwa --tools examples/todo-tools.mjs --state examples/todo-state.json --yes

const ITEM = {
  type: 'object',
  properties: { id: { type: 'integer' }, title: { type: 'string' }, due: { type: ['string', 'null'] }, done: { type: 'boolean' } },
  required: ['id', 'title', 'due', 'done'],
};

/** The session's to-do items: every tool of the session sees the same list. */
function itemsOf(context) {
  return context.getStateValue('todos') ?? [];
}

function save(context, items) {
  context.setState('todos', items, { description: 'the to-do list: { id, title, due, done } items' });
}

export default (registry) => {
  registry.registerToolset('todo', [
    {
      name: 'list',
      description: 'The to-do items, optionally only the open (done: false) or finished (done: true) ones.',
      parameters: { type: 'object', properties: { done: { type: 'boolean', description: 'Only items with this state' } } },
      returns: { type: 'array', items: ITEM },
      category: 'data',
      confirm: 'read',
      execute: ({ done }, context) => itemsOf(context).filter((item) => done === undefined || item.done === done),
    },
    {
      name: 'add',
      description: 'Adds an item to the list and returns it.',
      parameters: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          due: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A date, YYYY-MM-DD' },
        },
        required: ['title'],
      },
      returns: ITEM,
      category: 'data',
      confirm: 'write',
      execute: ({ title, due }, context) => {
        const items = itemsOf(context);
        const item = { id: Math.max(0, ...items.map((i) => i.id)) + 1, title, due: due ?? null, done: false };
        save(context, [...items, item]);
        return item;
      },
    },
    {
      name: 'complete',
      description: 'Marks an item as done.',
      parameters: [{ name: 'id', description: 'The id of the item', type: 'number' }],
      returns: ITEM,
      category: 'data',
      confirm: 'write',
      execute: ({ id }, context) => {
        const items = itemsOf(context);
        const item = items.find((i) => i.id === id);
        if (item === undefined) throw new Error(`there is no item ${id} (ids: ${items.map((i) => i.id).join(', ')})`);
        item.done = true;
        save(context, items);
        return item;
      },
    },
    {
      name: 'clear_done',
      description: 'Deletes every finished item; returns how many it deleted.',
      parameters: [],
      returns: 'number',
      category: 'data',
      confirm: 'destructive',
      execute: (_args, context) => {
        const items = itemsOf(context);
        const open = items.filter((i) => !i.done);
        save(context, open);
        context.print(`(deleted: ${items.filter((i) => i.done).map((i) => i.title).join(', ') || 'nothing'})`);
        return items.length - open.length;
      },
    },
  ]);
};
