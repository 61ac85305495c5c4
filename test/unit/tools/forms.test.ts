// Unit tests for the registration forms of the other tool systems (TOOLS.md §1): Plaited's
// register(name, handler, schema) and sdkwork's defineTool, their result envelopes, the names and
// lookups they bring (ids, human names, categories, meta). The examples of both systems' own
// documentation are ported here (a createStyle / writeTemplate Plaited tool, an sdkwork file-read
// tool) and run both through execute, as those systems run them, and through a script.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Interpreter } from '../../../src/api/interpreter.js';
import { defineTool, type DefinedToolContext } from '../../../src/tools/forms.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolEnvelope } from '../../../src/tools/types.js';
import { loadToolModule } from '../../../src/providers/module.js';
import { failure } from '../../support/harness.js';

const workspace = mkdtempSync(path.join(tmpdir(), 'nuwa-forms-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

// --- Plaited's documented tools, written for this test --------------------------------------------

function plaitedRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ sandboxDir: workspace });
  registry.register(
    'createStyle',
    async (args) => {
      const { selector, properties } = args as { selector: string; properties: Record<string, string> };
      const declarations = Object.entries(properties).map(([property, value]) => `${property}: ${value}`);
      return { success: true, data: { css: `${selector} { ${declarations.join('; ')} }` } };
    },
    {
      name: 'createStyle',
      description: 'Generate CSS for a selector',
      parameters: {
        type: 'object',
        properties: {
          selector: { type: 'string', description: 'CSS selector' },
          properties: { type: 'object', description: 'CSS property-value pairs' },
        },
        required: ['selector', 'properties'],
      },
    },
  );
  registry.register(
    'writeTemplate',
    async (args, context) => {
      const { path: file, content } = args as { path: string; content: string };
      if (!file.endsWith('.tsx')) return { success: false, error: `a template file ends in .tsx, not ${path.extname(file) || 'nothing'}` };
      writeFileSync(context.resolvePath(file), content);
      return { success: true, data: { path: file, bytes: Buffer.byteLength(content) } };
    },
    {
      name: 'writeTemplate',
      description: 'Write a JSX template file for a UI element',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Relative file path (e.g., "button.tsx")' },
          content: { type: 'string', description: 'JSX template content' },
        },
        required: ['path', 'content'],
      },
    },
  );
  return registry;
}

describe('the Plaited form: register(name, handler, schema)', () => {
  it('runs createStyle through execute with JSON-string arguments, as Plaited does', async () => {
    const result = await plaitedRegistry().execute({ name: 'createStyle', arguments: '{"selector": ".btn", "properties": {"color": "red", "padding": "4px"}}' });
    expect(result).toMatchObject({ success: true, data: { css: '.btn { color: red; padding: 4px }' } });
  });

  it('runs writeTemplate through execute: the file is written in the sandbox', async () => {
    const content = 'export const Button = () => <button>Click</button>';
    const result = await plaitedRegistry().execute({ name: 'writeTemplate', arguments: JSON.stringify({ path: 'button.tsx', content }) });
    expect(result).toMatchObject({ success: true, data: { path: 'button.tsx', bytes: content.length } });
    expect(readFileSync(path.join(workspace, 'button.tsx'), 'utf8')).toBe(content);
  });

  it('runs both from a script, the envelope opened to its data', async () => {
    const printed: string[] = [];
    const registry = plaitedRegistry();
    await new Interpreter(registry, { print: (line) => printed.push(line), sandboxDir: workspace }).run(`
      LET style = CALL createStyle { selector: "h1", properties: { color: "navy" } }
      LET written = CALL writeTemplate { path: "title.tsx", content: FORMAT("<h1 style={{{css}}}/>", style) }
      PRINT(written.bytes)
    `);
    expect(readFileSync(path.join(workspace, 'title.tsx'), 'utf8')).toBe('<h1 style={h1 { color: navy }}/>');
    expect(printed).toEqual(['32']);
  });

  it('the error cases of Plaited’s documentation: unknown tool, invalid JSON, a throwing handler', async () => {
    const registry = plaitedRegistry();
    registry.register(
      'failingTool',
      async () => {
        throw new Error('Something went wrong');
      },
      { name: 'failingTool', description: 'fails', parameters: { type: 'object', properties: {} } },
    );
    expect(await registry.execute({ name: 'unknownTool', arguments: '{}' })).toMatchObject({ success: false, error: 'Unknown tool: unknownTool' });
    expect((await registry.execute({ name: 'writeTemplate', arguments: 'not valid json' })).error).toMatch(/^Unexpected token/);
    // As a script sees it: the thrown message, with the tool named.
    expect(await registry.execute({ name: 'failingTool', arguments: '{}' })).toMatchObject({
      success: false,
      code: 'ToolExecutionError',
      error: 'tool `failingTool` failed: Something went wrong',
    });
  });

  it('a { success: false, error } envelope is a ToolExecutionError with that message, in execute and in a script', async () => {
    const registry = plaitedRegistry();
    const result = await registry.execute('writeTemplate', { path: 'notes.md', content: 'x' });
    expect(result).toMatchObject({ success: false, code: 'ToolExecutionError', error: 'tool `writeTemplate` failed: a template file ends in .tsx, not .md' });
    const error = await failure(new Interpreter(registry, { print: () => {} }).run('CALL writeTemplate { path: "notes.md", content: "x" }'));
    expect([error.kind, error.message, error.line]).toEqual(['ToolExecutionError', result.error, 1]);
  });

  it('arguments are checked against the schema before the handler runs', async () => {
    let ran = false;
    const registry = new ToolRegistry();
    registry.register('myTool', async () => ((ran = true), { success: true, data: 1 }), {
      name: 'myTool',
      description: 'Description of what this tool does',
      parameters: { type: 'object', properties: { input: { type: 'string', description: 'The input to process' } }, required: ['input'] },
    });
    const result = await registry.execute('myTool', { input: 'x', extra: true });
    expect(result).toMatchObject({ success: false, code: 'ToolArgumentError' });
    expect(ran).toBe(false);
    expect((await registry.execute('myTool', { input: 42 })).success).toBe(true); // 42 → "42", the lossless coercion
  });

  it('refuses a schema named differently, or a missing schema', () => {
    const registry = new ToolRegistry();
    const handler = async (): Promise<ToolEnvelope> => ({ success: true });
    expect(() => registry.register('a', handler, { name: 'b', description: 'd' })).toThrow(/the schema is named "b"/);
    expect(() => registry.register('a', handler, undefined as never)).toThrow(/the schema is missing/);
  });
});

describe('result envelopes', () => {
  async function envelopeResult(envelope: unknown) {
    const registry = new ToolRegistry();
    registry.register('t', async () => envelope as ToolEnvelope, { description: 'returns an envelope' });
    const result = await registry.execute('t');
    const script = await new Interpreter(registry, { print: () => {} }).run('LET r = CALL t {}').then(
      (run) => ({ value: run.variables.r }),
      (error: import('../../../src/errors.js').NuwaError) => ({ error }),
    );
    return { result, script };
  }

  it('{ success: true, data } yields data; data: null is null', async () => {
    expect((await envelopeResult({ success: true, data: [1, 2] })).result.data).toEqual([1, 2]);
    expect((await envelopeResult({ success: true, data: null })).script).toEqual({ value: null });
  });

  it('{ success: true } without data yields the envelope’s other fields', async () => {
    const { result, script } = await envelopeResult({ success: true, content: 'hello', size: 5 });
    expect(result.data).toEqual({ content: 'hello', size: 5 });
    expect(script).toEqual({ value: { content: 'hello', size: 5 } });
  });

  it('an error object gives its message, and keeps code and details on the error', async () => {
    const { result, script } = await envelopeResult({ success: false, error: { message: 'quota exceeded', code: 'QUOTA', details: { limit: 10 }, recoverable: true } });
    expect(result).toMatchObject({ success: false, code: 'ToolExecutionError', error: 'tool `t` failed: quota exceeded' });
    const error = (script as { error: import('../../../src/errors.js').NuwaError }).error;
    expect([error.kind, error.message, error.code, error.details]).toEqual(['ToolExecutionError', 'tool `t` failed: quota exceeded', 'QUOTA', { limit: 10 }]);
    expect(error.toJSON()).toMatchObject({ code: 'QUOTA', details: { limit: 10 } });
  });

  it('an error without a message says so', async () => {
    expect((await envelopeResult({ success: false })).result.error).toBe('tool `t` failed: the tool reported a failure without saying why');
    expect((await envelopeResult({ success: false, error: { code: 'E42' } })).result.error).toBe('tool `t` failed: E42');
  });

  it.each([
    ['a bare value', 42, /returned number 42 where a Plaited-style tool returns \{ success: true, data \}/],
    ['nothing', undefined, /returned nothing where/],
    ['an object without success', { data: 1 }, /returned object with keys data where/],
    ['success that is not a boolean', { success: 'yes' }, /returned object with keys success where/],
  ])('a handler that returns %s instead of an envelope: ToolExecutionError', async (_label, value, message) => {
    const { result } = await envelopeResult(value);
    expect(result).toMatchObject({ success: false, code: 'ToolExecutionError' });
    expect(result.error).toMatch(message);
  });

  it('data is still checked against returns, and must be JSON', async () => {
    const registry = new ToolRegistry();
    registry.register('n', async () => ({ success: true, data: 'many' }), { description: 'd', returns: 'number' });
    registry.register('d', async () => ({ success: true, data: new Date() }), { description: 'd' });
    expect(await registry.execute('n')).toMatchObject({ code: 'ToolResultError' });
    expect(await registry.execute('d')).toMatchObject({ code: 'ToolResultError' });
  });

  it('the form decides, never the value: a Nuwa tool returning { success, data } returns that object', async () => {
    const registry = new ToolRegistry();
    registry.register('plain', { description: 'returns an object that looks like an envelope', parameters: [], returns: 'object' }, () => ({ success: true, data: 1 }));
    expect((await registry.execute('plain')).data).toEqual({ success: true, data: 1 });
  });
});

// --- sdkwork-agent's documented file-read tool, written for this test --------------------------------

const fileReadTool = defineTool({
  id: 'file-read',
  name: 'File Read',
  description: 'Read file content from disk',
  category: 'file',
  confirm: 'read',
  input: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path to read' },
      encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8', description: 'File encoding' },
    },
    required: ['path'],
  },
  output: { type: 'object', properties: { content: { type: 'string' }, size: { type: 'number' }, path: { type: 'string' } }, required: ['content', 'size', 'path'] },
  meta: { version: '1.0.0', author: 'tests' },
  execute: async (input, context: DefinedToolContext) => {
    const { path: file, encoding } = input as { path: string; encoding: BufferEncoding };
    try {
      const content = await readFile(path.resolve(workspace, file), encoding);
      return { success: true, data: { content, size: content.length, path: file }, output: { content: [{ type: 'text', text: content }] } };
    } catch (error) {
      return {
        success: false,
        error: { code: 'FILE_READ_ERROR', message: `Failed to read file: ${(error as NodeJS.ErrnoException).code}`, toolId: context.toolId, details: { path: file }, recoverable: true },
      };
    }
  },
});

describe('the sdkwork form: defineTool', () => {
  writeFileSync(path.join(workspace, 'data.txt'), 'hello, sdkwork');

  function registry(): ToolRegistry {
    const r = new ToolRegistry();
    r.register(fileReadTool);
    return r;
  }

  it('is called by its id with - turned into _ when its name is not an identifier', () => {
    const tool = registry().lookup('file_read');
    expect(tool).toMatchObject({ name: 'file_read', id: 'file-read', title: 'File Read', category: 'file', confirm: 'read', form: 'sdkwork' });
  });

  it('without a name, is called by its id (the types allow what the runtime does)', async () => {
    const r = new ToolRegistry();
    r.register(defineTool({ id: 'word-count', description: 'Counts words', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: async ({ text }) => ({ success: true, data: text.split(' ').length }) }));
    expect(r.lookup('word_count')).toMatchObject({ id: 'word-count', title: undefined });
    expect(await r.execute('word-count', { text: 'a b c' })).toMatchObject({ success: true, data: 3 });
  });

  it('runs through execute by id, as sdkwork’s executeTool does, and by name', async () => {
    const r = registry();
    for (const name of ['file-read', 'file_read']) {
      const result = await r.execute(name, JSON.stringify({ path: 'data.txt' }));
      expect(result).toMatchObject({ success: true, data: { content: 'hello, sdkwork', size: 14, path: 'data.txt' } });
    }
    const base64 = await r.execute('file-read', { path: 'data.txt', encoding: 'base64' });
    expect(base64.data).toMatchObject({ content: Buffer.from('hello, sdkwork').toString('base64') });
  });

  it('runs from a script', async () => {
    const printed: string[] = [];
    await new Interpreter(registry(), { print: (line) => printed.push(line) }).run('LET file = CALL file_read { path: "data.txt" }\nPRINT(FORMAT("{size}: {content}", file))');
    expect(printed).toEqual(['14: hello, sdkwork']);
  });

  it('its failure envelope: the message in execute; code and details on the script’s error', async () => {
    const r = registry();
    const result = await r.execute('file-read', { path: 'missing.txt' });
    expect(result).toMatchObject({ success: false, code: 'ToolExecutionError', error: 'tool `file_read` failed: Failed to read file: ENOENT' });
    const error = await failure(new Interpreter(r, { print: () => {} }).run('\nCALL file_read { path: "missing.txt" }'));
    expect(error).toMatchObject({ kind: 'ToolExecutionError', message: result.error, code: 'FILE_READ_ERROR', details: { path: 'missing.txt' }, line: 2 });
  });

  it('its input schema is checked, with defaults filled in', async () => {
    const r = registry();
    expect(await r.execute('file-read', { path: 'data.txt', encoding: 'latin9' })).toMatchObject({ success: false, code: 'ToolArgumentError' });
    expect(await r.execute('file-read', {})).toMatchObject({ success: false, code: 'ToolArgumentError' });
  });

  it('get(id), getByName(name), listByCategory and lookup’s meta', () => {
    const r = registry();
    r.register({ name: 'other', description: 'd', parameters: [], returns: 'any', execute: () => 1 });
    const tool = r.lookup('file_read')!;
    expect(r.get('file-read')).toBe(tool);
    expect(r.get('file_read')).toBe(tool);
    expect(r.getByName('File Read')).toBe(tool);
    expect(r.getByName('file_read')).toBe(tool);
    expect(r.get('nope')).toBeUndefined();
    expect(r.listByCategory('file')).toEqual([tool]);
    expect(tool.meta).toEqual({ version: '1.0.0', author: 'tests' });
  });

  it('keeps the name when it is an identifier (dots allowed)', () => {
    const r = new ToolRegistry();
    r.register(defineTool({ id: 'fs-read', name: 'fs.read', description: 'd', execute: async () => ({ success: true, data: 1 }) }));
    expect(r.names()).toEqual(['fs.read']);
    expect(r.get('fs-read')?.name).toBe('fs.read');
  });

  it('its execute gets the ToolContext with toolId added', async () => {
    const seen: unknown[] = [];
    const r = new ToolRegistry();
    r.register(
      defineTool({
        id: 'whoami',
        name: 'Who Am I',
        description: 'reports its context',
        execute: async (_input, context) => {
          context.setState('seen', true);
          seen.push(context.toolId, context.toolName, typeof context.sessionId, context.signal.aborted, context.hasState('seen'));
          return { success: true, data: null };
        },
      }),
    );
    expect((await r.execute('whoami')).success).toBe(true);
    expect(seen).toEqual(['whoami', 'whoami', 'string', false, true]);
  });

  it('its risk level asks for approval like any tool', async () => {
    const r = new ToolRegistry();
    r.register(defineTool({ id: 'file-delete', name: 'File Delete', description: 'Delete file', category: 'file', confirm: 'destructive', execute: async () => ({ success: true }) }));
    expect(await r.execute('file-delete', {})).toMatchObject({ success: false, code: 'ToolDeniedError' });
    expect(await r.execute('file-delete', {}, { approve: () => true })).toMatchObject({ success: true, data: {} });
  });

  it('registerToolset takes defined tools: group.name, and group.id', async () => {
    const r = new ToolRegistry();
    r.registerToolset('disk', [fileReadTool]);
    expect(r.names()).toEqual(['disk.file_read']);
    expect(r.get('disk.file-read')?.name).toBe('disk.file_read');
    expect((await r.execute('disk__file_read', { path: 'data.txt' })).success).toBe(true);
  });

  it('a module’s list of defined tools keeps their form and gets source "module"', async () => {
    const file = path.join(workspace, 'defined-tools.mjs');
    writeFileSync(
      file,
      `const DEFINED = Symbol.for('nuwa-script.definedTool');
export default [{ id: 'say-hi', name: 'Say Hi', description: 'greets', execute: async () => ({ success: true, data: 'hi' }), [DEFINED]: true }];`,
    );
    const r = new ToolRegistry();
    expect(await loadToolModule(r, file)).toEqual(['say_hi']);
    expect(r.lookup('say_hi')).toMatchObject({ form: 'sdkwork', source: 'module', id: 'say-hi' });
    expect((await r.execute('say-hi')).data).toBe('hi');
  });

  it('refuses a taken id, a bad id and a missing execute', () => {
    const r = new ToolRegistry();
    r.register(fileReadTool);
    expect(() => r.register(defineTool({ id: 'file-read', name: 'read_file_again', description: 'd', execute: async () => ({ success: true }) }))).toThrow(
      /a tool with the id "file-read" is already registered \(as "file_read"\)/,
    );
    expect(() => r.register(defineTool({ id: '2fa code', name: 'Two Factor', description: 'd', execute: async () => ({ success: true }) }))).toThrow(/"2fa code" is not a valid tool name/);
    expect(() => defineTool({ id: 'x', name: 'X', description: 'd' } as never)).toThrow(/execute must be a function/);
    expect(() => defineTool({ name: 'X', description: 'd', execute: async () => ({ success: true }) } as never)).toThrow(/needs an id/);
  });

  it('says to use defineTool when an sdkwork tool object is registered without it', () => {
    const { id, name, description, input, execute } = fileReadTool;
    expect(() => new ToolRegistry().register({ id, name, description, input, execute } as never)).toThrow(/register it as registry\.register\(defineTool\(\{ \.\.\. \}\)\)/);
  });

  it("says where the arguments' schema goes when a definition names it as MCP or Anthropic do", () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    for (const key of ['inputSchema', 'input_schema']) {
      expect(() => new ToolRegistry().register({ name: 'js', description: 'd', [key]: schema, returns: 'any', execute: () => 1 } as never)).toThrow(
        new RegExp(`tool "js": the arguments' schema goes in \`parameters\`, not \`${key}\``),
      );
    }
  });

  it('unregister by id frees the id', () => {
    const r = registry();
    expect(r.unregister('file-read')).toBe(true);
    expect(r.has('file_read')).toBe(false);
    expect(r.get('file-read')).toBeUndefined();
    r.register(fileReadTool);
    expect(r.get('file-read')).toBeDefined();
  });
});
