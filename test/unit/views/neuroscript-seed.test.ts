// The examples of NeuroScript's tool ↔ runtime contract (the seed document of TOOLS.md §11), ported
// from Go to the NeuroScript view: each test is one example, written as a NeuroScript tool author
// writes it against `nuwa-script` (the import line points at the source instead), and asserts what
// the document promises of it.
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addToolsetRegistration,
  createRegistrationFunc,
  defineNeuroTool,
  Interpreter,
  registerExtendedTools,
  ToolRegistry,
  type InterpreterOptions,
  type NeuroRuntime,
} from '../../../src/index.js';
import { failure } from '../../support/harness.js';
import { tempDir } from '../../support/processes.js';

function host(registry: ToolRegistry, options: InterpreterOptions = {}) {
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), ...options });
  return { interpreter, printed };
}

describe('§1 defining a tool: spec, func, and the runtime’s guarantees', () => {
  // The new way: precise argument types, and a function that trusts them.
  const calls: unknown[][] = [];
  function myToolFunc(_rt: NeuroRuntime, args: unknown[]) {
    calls.push(args);
    const path = args[0] as string; // safe: guaranteed to be a string

    let tags: string[];
    if (args[1] !== null) {
      tags = args[1] as string[]; // safe: guaranteed to be a list of strings when present
    } else {
      tags = []; // the optional argument was left out
    }
    void path;
    void tags;
    return true;
  }

  const myTool = defineNeuroTool({
    spec: {
      name: 'my_tool',
      group: 'example',
      args: [
        { name: 'path', type: 'string', required: true },
        { name: 'tags', type: 'slice_string', required: false },
      ],
      returnType: 'bool',
    },
    func: myToolFunc,
  });

  const registry = new ToolRegistry();
  registry.register(myTool);
  const { interpreter } = host(registry);
  afterEach(() => void calls.splice(0));

  it('is called group.name, and gets its arguments in order, coerced to their declared types', async () => {
    const result = await interpreter.run('LET ok = CALL example.my_tool { path: 42, tags: ["a", 2, true] }');
    expect(result.variables.ok).toBe(true);
    expect(calls).toEqual([['42', ['a', '2', 'true']]]);
  });

  it('hands a missing optional argument over as null', async () => {
    await interpreter.run('CALL example.my_tool { path: "notes.txt" }');
    expect(calls).toEqual([['notes.txt', null]]);
  });

  it('refuses a missing or null required argument before the function runs', async () => {
    for (const call of ['CALL example.my_tool { tags: ["a"] }', 'CALL example.my_tool { path: null }']) {
      const error = await failure(interpreter.run(call));
      expect(error.kind).toBe('ToolArgumentError');
      expect(error.message).toMatch(/path/);
    }
    expect(calls).toEqual([]);
  });

  it('refuses arguments the spec does not have (the argument count), naming the ones it takes', async () => {
    const error = await failure(interpreter.run('CALL example.my_tool { path: "a", tags: [], extra: 1 }'));
    expect(error.kind).toBe('ToolArgumentError');
    expect(error.message).toMatch(/extra/);
    expect(error.message).toMatch(/path.*tags|tags.*path/);
    expect(calls).toEqual([]);
  });

  it('refuses a value that cannot become the declared type', async () => {
    const error = await failure(interpreter.run('CALL example.my_tool { path: "a", tags: "not a list" }'));
    expect(error.kind).toBe('ToolArgumentError');
    expect(calls).toEqual([]);
  });

  it('the old way (type any and a check of its own) gets the value as it was passed, and its check is its own error', async () => {
    // Deprecated in the document, and still working: nothing is coerced for `any`.
    const oldWay = defineNeuroTool({
      spec: {
        name: 'my_old_tool',
        group: 'example',
        args: [
          { name: 'path', type: 'string', required: true },
          { name: 'tags', type: 'any', required: false },
        ],
        returnType: 'bool',
      },
      func: (_rt, args) => {
        const tags = args[1];
        if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string')) throw new Error('tags must be a slice of strings');
        return true;
      },
    });
    const registry = new ToolRegistry();
    registry.register(oldWay);
    const error = await failure(host(registry).interpreter.run('CALL example.my_old_tool { path: "a", tags: ["a", 2] }'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('tags must be a slice of strings');
  });
});

describe('§2 the runtime interface, in use', () => {
  it('logging: key/value pairs reach the host logger as one meta object', async () => {
    const debug = vi.fn();
    const hashFile = defineNeuroTool({
      spec: { name: 'hash', group: 'fs', args: [{ name: 'p', type: 'string', required: true }] },
      func: (rt, [p]) => {
        const logger = rt.getLogger();
        logger.debug('hashing file', 'path', p);
        return 'done';
      },
    });
    const registry = new ToolRegistry();
    registry.register(hashFile);
    await host(registry, { logger: { debug } }).interpreter.run('CALL fs.hash { p: "a.txt" }');
    expect(debug).toHaveBeenCalledWith('[fs.hash] hashing file', { path: 'a.txt' });
  });

  it('secure file access: the sandbox directory is the one the host gave, and it is writable', async () => {
    const sandboxDir = tempDir('nuwa-neuro-sandbox-');
    const writeNote = defineNeuroTool({
      spec: { name: 'write_note', args: [{ name: 'rel', type: 'string', required: true }], returnType: 'string' },
      func: (rt, [rel]) => {
        const sandbox = rt.sandboxDir();
        const abs = path.join(sandbox, rel as string);
        writeFileSync(abs, 'noted');
        return abs;
      },
    });
    const registry = new ToolRegistry();
    registry.register(writeNote);
    const result = await host(registry, { sandboxDir }).interpreter.run('LET at = CALL write_note { rel: "note.txt" }');
    expect(result.variables.at).toBe(path.join(sandboxDir, 'note.txt'));
    expect(readFileSync(path.join(sandboxDir, 'note.txt'), 'utf8')).toBe('noted');
  });

  it('sharing mutable state: getVar and setVar read and write the script’s variable', async () => {
    const spend = defineNeuroTool({
      spec: { name: 'spend_token' },
      func: (rt) => {
        const tok = rt.getVar('remaining');
        if (tok !== undefined && (tok as number) > 0) {
          rt.setVar('remaining', (tok as number) - 1);
        }
        return null;
      },
    });
    const registry = new ToolRegistry();
    registry.register(spend);
    const { interpreter } = host(registry);
    expect((await interpreter.run('LET remaining = 2\nCALL spend_token {}\nCALL spend_token {}\nCALL spend_token {}')).variables.remaining).toBe(0);
    // Without the variable, getVar gives undefined and nothing is set.
    expect((await interpreter.run('CALL spend_token {}')).variables).toEqual({});
  });

  it('chat and console I/O: promptUser asks the host, println prints one line joined by spaces', async () => {
    const greet = defineNeuroTool({
      spec: { name: 'greet' },
      func: async (rt) => {
        const ans = await rt.promptUser('Your name?');
        rt.println('Hello,', ans);
        return null;
      },
    });
    const registry = new ToolRegistry();
    registry.register(greet);
    const asked: string[] = [];
    const { interpreter, printed } = host(registry, { ask: ({ question }) => (asked.push(question), 'Ada') });
    await interpreter.run('CALL greet {}');
    expect(asked).toEqual(['Your name?']);
    expect(printed).toEqual(['Hello, Ada']);
  });

  it('invoking another tool: callTool with positional arguments', async () => {
    const add = defineNeuroTool({
      spec: {
        name: 'add',
        group: 'math',
        args: [
          { name: 'a', type: 'int', required: true },
          { name: 'b', type: 'int', required: true },
        ],
        returnType: 'int',
      },
      func: (_rt, [a, b]) => (a as number) + (b as number),
    });
    const sumTool = defineNeuroTool({
      spec: { name: 'two_plus_three', returnType: 'int' },
      func: async (rt) => {
        const sum = await rt.callTool('math.add', [2, 3]);
        return sum;
      },
    });
    const registry = new ToolRegistry();
    registry.register(add);
    registry.register(sumTool);
    expect((await host(registry).interpreter.run('LET s = CALL two_plus_three {}')).variables.s).toBe(5);
  });
});

describe('§3 registering tool-sets', () => {
  it('a toolset adds its registration function; registerExtendedTools builds the live registry at start-up', async () => {
    const mathToolsToRegister = [
      defineNeuroTool({
        spec: { name: 'mul', group: 'math', args: [{ name: 'a', type: 'float', required: true }, { name: 'b', type: 'float', required: true }], returnType: 'float' },
        func: (_rt, [a, b]) => (a as number) * (b as number),
      }),
    ];
    // What the toolset's module does when it loads (Go: its init()).
    addToolsetRegistration('math', createRegistrationFunc('math', mathToolsToRegister));

    // What the host does at start-up.
    const reg = new ToolRegistry();
    const registered = registerExtendedTools(reg);
    expect(registered.map((tool) => tool.name)).toContain('math.mul');
    expect((await host(reg).interpreter.run('LET p = CALL math.mul { a: "1.5", b: 4 }')).variables.p).toBe(6);
  });
});

describe('§4 plugins', () => {
  it('loadPlugin loads a module whose register(registrar) registers its toolset', async () => {
    const registry = new ToolRegistry();
    const names = await registry.loadPlugin(fileURLToPath(new URL('./fixtures/acme-plugin.ts', import.meta.url)));
    expect(names).toEqual(['acme.greet']);
    expect(registry.lookup('acme.greet')?.source).toBe('module');
    expect((await host(registry).interpreter.run('LET g = CALL acme.greet { who: "Ada" }')).variables.g).toBe('Hello from acme, Ada');
  });
});

describe('§5 what tool authors may assume', () => {
  it('the sandbox directory is always writable, even when the host named none', async () => {
    const probe = defineNeuroTool({
      spec: { name: 'probe', returnType: 'string' },
      func: (rt) => {
        const dir = path.join(rt.sandboxDir(), 'nested');
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'x'), 'x');
        return readFileSync(path.join(dir, 'x'), 'utf8');
      },
    });
    const registry = new ToolRegistry();
    registry.register(probe);
    const { interpreter } = host(registry);
    try {
      expect((await interpreter.run('LET r = CALL probe {}')).variables.r).toBe('x');
    } finally {
      interpreter.dispose();
    }
  });

  it('println is line-buffered: each line reaches the host as it is printed, before the tool returns', async () => {
    const seen: string[] = [];
    const chatty = defineNeuroTool({
      spec: { name: 'chatty' },
      func: (rt) => {
        rt.println('one');
        seen.push(`after one: ${printed.join('|')}`);
        rt.println('two', 2);
        return null;
      },
    });
    const registry = new ToolRegistry();
    registry.register(chatty);
    const { interpreter, printed } = host(registry);
    await interpreter.run('CALL chatty {}');
    expect(seen).toEqual(['after one: one']);
    expect(printed).toEqual(['one', 'two 2']);
  });
});
