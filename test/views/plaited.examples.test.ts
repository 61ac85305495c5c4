// Every code example of Plaited's tool API reference (shared/seeds/002), run with only its import
// line changed ('plaited/agent' → nuwa-script/plaited), asserting what the reference says it does.
// Each test keeps the example's code as written between the `--- example ---` marks; what comes
// before is host scaffolding for a fragment (the values it names but does not define), and what
// comes after checks the outcome.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCoreTools, createToolDiscovery, createToolRegistry, type FunctionCall, type IndexedTool, type SearchOptions, type ToolDiscovery, type ToolDiscoveryConfig, type ToolHandler, type ToolMatch, type ToolRegistry, type ToolResult, type ToolSchema, type ToolSource } from '../../src/plaited.js';
import { ToolRegistry as NuwaToolRegistry, Interpreter } from '../../src/index.js';

let dir: string;
let cwd: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nuwa-plaited-'));
  cwd = process.cwd();
  process.chdir(dir); // the examples use paths relative to the working directory ('./generated')
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
});

describe('Core Concepts: Tool Registry', () => {
  it('register, execute a function call, read the schemas', async () => {
    // scaffolding: the fragment's name, handler, schema and functionCall
    const name = 'echo';
    const handler: ToolHandler = async (args) => ({ success: true, data: args });
    const schema: ToolSchema = { name: 'echo', description: 'Echoes its input', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
    const functionCall: FunctionCall = { name: 'echo', arguments: '{"text": "hi"}' };
    // --- example ---
    const registry = createToolRegistry()

    // Register tools
    registry.register(name, handler, schema)

    // Execute function calls
    const result = await registry.execute(functionCall)

    // Get schemas for model context
    const schemas = registry.schemas
    // --- example ---
    expect(result).toEqual({ success: true, data: { text: 'hi' } });
    expect(schemas).toEqual([schema]);
  });

  it('the Function Call and Tool Result formats are the types execute takes and gives', async () => {
    // --- example ---
    type FunctionCallFormat = {
      name: string      // Tool name to execute
      arguments: string // JSON-encoded arguments
    }
    type ToolResultFormat = {
      success: boolean  // Whether execution succeeded
      data?: unknown    // Result data if successful
      error?: string    // Error message if failed
    }
    // --- example ---
    const call: FunctionCallFormat = { name: 'nothing', arguments: '{}' };
    const asOurs: FunctionCall = call;
    const result: ToolResultFormat = await createToolRegistry().execute(asOurs);
    expect(result).toEqual({ success: false, error: 'Unknown tool: nothing' });
  });
});

describe('Built-in Tools', () => {
  it('writeTemplate, writeStory and runStory have the documented schemas', () => {
    const tools = createCoreTools({ outputDir: './generated', runStory: async () => ({ passed: true, totalAssertions: 0, passedAssertions: 0, a11yPassed: true, errors: [] }) });
    const shape = (schema: ToolSchema) => ({ name: schema.name, parameters: { ...schema.parameters, properties: Object.fromEntries(Object.entries(schema.parameters.properties).map(([key, value]) => [key, { type: value.type }])) } });
    expect(tools.schemas.map(shape)).toEqual([
      { name: 'writeTemplate', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
      { name: 'writeStory', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
      { name: 'runStory', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
    ]);
    for (const schema of tools.schemas) {
      expect(schema.description).not.toBe('');
      for (const property of Object.values(schema.parameters.properties)) expect(property.description).toBeTypeOf('string');
    }
  });

  it('the writeTemplate example call writes button.tsx', async () => {
    const registry = createCoreTools({ outputDir: './generated' });
    const call = JSON.parse(
      // --- example ---
      `{
  "name": "writeTemplate",
  "arguments": "{\\"path\\": \\"button.tsx\\", \\"content\\": \\"export const Button = () => <button>Click</button>\\"}"
}`,
      // --- example ---
    ) as FunctionCall;
    expect(await registry.execute(call)).toEqual({ success: true, data: { path: 'button.tsx' } });
    expect(readFileSync(path.join(dir, 'generated', 'button.tsx'), 'utf8')).toBe('export const Button = () => <button>Click</button>');
  });

  it('runStory returns the test results of the story runner', async () => {
    const runs: string[] = [];
    const registry = createCoreTools({
      outputDir: './generated',
      runStory: async (file) => {
        runs.push(file);
        // --- example --- (the documented result's data)
        return {
          passed: true,
          totalAssertions: 5,
          passedAssertions: 5,
          a11yPassed: true,
          errors: []
        }
        // --- example ---
      },
    });
    await registry.execute({ name: 'writeStory', arguments: JSON.stringify({ path: 'button.stories.tsx', content: 'export const Basic = {}' }) });
    expect(await registry.execute({ name: 'runStory', arguments: '{"path": "button.stories.tsx"}' })).toEqual({
      success: true,
      data: { passed: true, totalAssertions: 5, passedAssertions: 5, a11yPassed: true, errors: [] },
    });
    expect(runs).toEqual([path.join(realDir(), 'generated', 'button.stories.tsx')]);
  });
});

describe('Creating Custom Tools', () => {
  it('Basic Registration', async () => {
    // scaffolding: what the example's handler calls
    const doSomething = async (input: string) => {
      if (input === 'boom') throw new Error('cannot do boom');
      return input.toUpperCase();
    };
    // --- example ---
    const registry = createToolRegistry()

    const handler: ToolHandler = async (args) => {
      const { input } = args as { input: string }

      try {
        const result = await doSomething(input)
        return { success: true, data: result }
      } catch (error) {
        return { success: false, error: String(error) }
      }
    }

    const schema: ToolSchema = {
      name: 'myTool',
      description: 'Description of what this tool does',
      parameters: {
        type: 'object',
        properties: {
          input: { type: 'string', description: 'The input to process' }
        },
        required: ['input']
      }
    }

    registry.register('myTool', handler, schema)
    // --- example ---
    expect(await registry.execute({ name: 'myTool', arguments: '{"input": "hello"}' })).toEqual({ success: true, data: 'HELLO' });
    // The handler's own failure envelope, unchanged.
    expect(await registry.execute({ name: 'myTool', arguments: '{"input": "boom"}' })).toEqual({ success: false, error: 'Error: cannot do boom' });
    expect(registry.schemas).toEqual([schema]);
  });

  it('Tool with Multiple Parameters', async () => {
    const registry = createToolRegistry();
    // --- example ---
    registry.register('createStyle', async (args) => {
      const { selector, properties } = args as {
        selector: string
        properties: Record<string, string>
      }

      const css = `${selector} { ${
        Object.entries(properties)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')
      } }`

      return { success: true, data: { css } }
    }, {
      name: 'createStyle',
      description: 'Generate CSS for a selector',
      parameters: {
        type: 'object',
        properties: {
          selector: { type: 'string', description: 'CSS selector' },
          properties: {
            type: 'object',
            description: 'CSS property-value pairs'
          }
        },
        required: ['selector', 'properties']
      }
    })
    // --- example ---
    const result = await registry.execute({ name: 'createStyle', arguments: '{"selector": ".btn", "properties": {"color": "red", "padding": "4px"}}' });
    expect(result).toEqual({ success: true, data: { css: '.btn { color: red; padding: 4px }' } });
  });

  describe('Async Tool with External API (its URL pointed at a loopback server: there is no network here)', () => {
    let server: Server;
    let base: string;
    beforeEach(async () => {
      server = createServer((request, response) => {
        if (request.url === '/brand') {
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ color: { primary: '#0af' }, space: [4, 8, 16] }));
        } else {
          response.statusCode = 404;
          response.end('no such token set');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    function register(registry: ReturnType<typeof createToolRegistry>, api: string): void {
      // --- example --- (only the URL's host changed: `https://api.tokens.dev` → `${api}`)
      registry.register('fetchDesignTokens', async (args) => {
        const { tokenSet } = args as { tokenSet: string }

        try {
          const response = await fetch(`${api}/${tokenSet}`)
          if (!response.ok) {
            return { success: false, error: `HTTP ${response.status}` }
          }

          const tokens = await response.json()
          return { success: true, data: tokens }
        } catch (error) {
          return { success: false, error: String(error) }
        }
      }, {
        name: 'fetchDesignTokens',
        description: 'Fetch design tokens from token API',
        parameters: {
          type: 'object',
          properties: {
            tokenSet: { type: 'string', description: 'Name of the token set to fetch' }
          },
          required: ['tokenSet']
        }
      })
      // --- example ---
    }

    it('answers the tokens, and an HTTP failure exactly as the handler words it', async () => {
      const registry = createToolRegistry();
      register(registry, base);
      expect(await registry.execute({ name: 'fetchDesignTokens', arguments: '{"tokenSet": "brand"}' })).toEqual({ success: true, data: { color: { primary: '#0af' }, space: [4, 8, 16] } });
      expect(await registry.execute({ name: 'fetchDesignTokens', arguments: '{"tokenSet": "dark"}' })).toEqual({ success: false, error: 'HTTP 404' });
    });

    it('a server that cannot be reached: the caught error as String(error)', async () => {
      const registry = createToolRegistry();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      register(registry, base);
      expect(await registry.execute({ name: 'fetchDesignTokens', arguments: '{"tokenSet": "brand"}' })).toEqual({ success: false, error: 'TypeError: fetch failed' });
      server = createServer(); // for afterEach
      server.listen(0, '127.0.0.1');
    });
  });
});

describe('Using createCoreTools', () => {
  it('a pre-configured registry whose runStory is the host runner', async () => {
    // scaffolding: the host's story runner the example calls
    const ran: string[] = [];
    const myStoryRunner = {
      run: async (file: string) => {
        ran.push(file);
        const text = readFileSync(file, 'utf8');
        const failed = text.includes('fail');
        return { success: !failed, total: 3, passed: failed ? 2 : 3, a11y: true, errors: failed ? ['expected 1, got 2'] : [] };
      },
    };
    // --- example ---
    const tools = createCoreTools({
      outputDir: './generated',
      runStory: async (path) => {
        // Your story runner implementation
        const result = await myStoryRunner.run(path)
        return {
          passed: result.success,
          totalAssertions: result.total,
          passedAssertions: result.passed,
          a11yPassed: result.a11y,
          errors: result.errors
        }
      }
    })

    // Tools included: writeTemplate, writeStory, runStory
    // --- example ---
    expect(tools.schemas.map((schema) => schema.name)).toEqual(['writeTemplate', 'writeStory', 'runStory']);
    expect(await tools.execute({ name: 'writeStory', arguments: JSON.stringify({ path: 'stories/button.stories.tsx', content: 'it should fail' }) })).toEqual({ success: true, data: { path: 'stories/button.stories.tsx' } });
    expect(await tools.execute({ name: 'runStory', arguments: '{"path": "stories/button.stories.tsx"}' })).toEqual({
      success: true,
      data: { passed: false, totalAssertions: 3, passedAssertions: 2, a11yPassed: true, errors: ['expected 1, got 2'] },
    });
    expect(ran).toEqual([path.join(realDir(), 'generated', 'stories', 'button.stories.tsx')]);
    // A story outside the output folder is not run.
    expect(await tools.execute({ name: 'runStory', arguments: '{"path": "../elsewhere.stories.tsx"}' })).toMatchObject({ success: false, error: expect.stringMatching(/outside/) });
    expect(ran).toHaveLength(1);
  });

  it('Extending Core Tools', async () => {
    // scaffolding: a custom tool's handler and schema
    const handler: ToolHandler = async (args) => ({ success: true, data: `custom ${String(args.n)}` });
    const schema: ToolSchema = { name: 'customTool', description: 'A custom tool', parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
    // --- example ---
    const tools = createCoreTools({ outputDir: './generated' })

    // Add custom tools to the registry
    tools.register('customTool', handler, schema)
    // --- example ---
    expect(tools.schemas.map((s) => s.name)).toEqual(['writeTemplate', 'writeStory', 'customTool']);
    expect(await tools.execute({ name: 'customTool', arguments: '{"n": 7}' })).toEqual({ success: true, data: 'custom 7' });
    expect(await tools.execute({ name: 'writeTemplate', arguments: '{"path": "a.tsx", "content": "x"}' })).toEqual({ success: true, data: { path: 'a.tsx' } });
    expect(existsSync(path.join(dir, 'generated', 'a.tsx'))).toBe(true);
  });
});

describe('Error Handling', () => {
  it('Unknown Tool', async () => {
    const registry = createCoreTools({ outputDir: './generated' });
    // --- example ---
    const result = await registry.execute({
      name: 'unknownTool',
      arguments: '{}'
    })
    // { success: false, error: 'Unknown tool: unknownTool' }
    // --- example ---
    expect(result).toEqual({ success: false, error: 'Unknown tool: unknownTool' });
  });

  it('Invalid JSON Arguments', async () => {
    const registry = createCoreTools({ outputDir: './generated' });
    // --- example ---
    const result = await registry.execute({
      name: 'writeTemplate',
      arguments: 'not valid json'
    })
    // { success: false, error: 'Unexpected token...' }
    // --- example ---
    expect(result).toEqual({ success: false, error: expect.stringMatching(/^Unexpected token/) });
    expect(Object.keys(result)).toEqual(['success', 'error']);
  });

  it('Handler Throws', async () => {
    const registry = createToolRegistry();
    // scaffolding: the fragment's `schema`. (With the myTool schema of Basic Registration, which
    // requires `input`, Nuwa's argument check would answer first, as for every call: TOOLS.md §2.)
    const schema: ToolSchema = { name: 'failingTool', description: 'Always fails', parameters: { type: 'object', properties: {} } };
    // --- example ---
    registry.register('failingTool', async () => {
      throw new Error('Something went wrong')
    }, schema)

    const result = await registry.execute({
      name: 'failingTool',
      arguments: '{}'
    })
    // { success: false, error: 'Something went wrong' }
    // --- example ---
    expect(result).toEqual({ success: false, error: 'Something went wrong' });
  });
});

describe('Type Definitions', () => {
  it('the registry, its results and the discovery have the documented types', async () => {
    // --- example --- (the types, as values that must type-check against them)
    const call: FunctionCall = { name: 'x', arguments: '{}' };
    const result: ToolResult = { success: false, error: 'e' };
    const handler: ToolHandler = () => result;
    const schema: ToolSchema = { name: 'x', description: 'd', parameters: { type: 'object', properties: { a: { type: 'string', description: 'A' } }, required: ['a'] } };
    const registry: ToolRegistry = createToolRegistry();
    const sources: ToolSource[] = ['local', 'mcp', 'a2a'];
    const indexed: IndexedTool = { name: 'x', description: 'd', keywords: ['k'], source: 'a2a', sourceUrl: 'https://agent.example/a2a', schema };
    const options: SearchOptions = { limit: 5, minScore: 0.001, source: 'local', ftsWeight: 0.5, vectorWeight: 0.5 };
    const config: ToolDiscoveryConfig = { dbPath: ':memory:', enableVectorSearch: false, vectorDimensions: 384 };
    const discovery: ToolDiscovery = createToolDiscovery(config);
    // --- example ---
    registry.register('x', handler, schema);
    expect(registry.schemas).toEqual([schema]);
    expect(await registry.execute(call)).toEqual({ success: false, error: 'invalid arguments for tool `x`: missing required argument `a` (string: A)' });
    expect(await registry.execute({ name: 'x', arguments: '{"a": "A"}' })).toEqual(result);
    await discovery.index(indexed);
    const matches: ToolMatch[] = await discovery.search('d', options);
    expect(matches).toEqual([]);
    expect((await discovery.search('x', { ...options, source: 'a2a' })).map((match) => match.tool)).toEqual([indexed]);
    expect(sources.map((source) => discovery.bySource(source).length)).toEqual([0, 0, 1]);
    expect(discovery.stats()).toEqual({ total: 1, bySource: { a2a: 1 } });
    discovery.close();
  });

  it('the registry is also a Nuwa ToolRegistry: scripts call the same tools', async () => {
    const registry = createToolRegistry();
    registry.register('double', async (args) => ({ success: true, data: (args.n as number) * 2 }), { name: 'double', description: 'Doubles', parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } });
    expect(registry).toBeInstanceOf(NuwaToolRegistry);
    const { variables } = await new Interpreter(registry).run('LET d = CALL double { n: 21 }');
    expect(variables.d).toBe(42);
  });
});

/** The temporary folder as the story runner sees it (symbolic links such as /tmp resolved). */
function realDir(): string {
  return process.cwd();
}
