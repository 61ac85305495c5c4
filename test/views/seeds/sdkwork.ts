// @ts-nocheck -- sdkwork-agent's examples (shared/seeds/003) as they are written: their input is
// `unknown` in sdkwork's own types and they read `error.message` off a catch variable, so they do
// not type-check under strict TypeScript even against sdkwork's declarations. The code between the
// `--- example ---` marks is theirs with only the import line changed; each example is wrapped in a
// function so that the tests (sdkwork.examples.test.ts, type-checked) can give it its scaffolding.
// --- example import --- (was: import { defineTool } from 'sdkwork-agent';)
import { defineTool } from '../../../src/index.js';

export function defineToolExamples() {
  // --- example ---
  // 文件读取 Tool
  const fileReadTool = defineTool({
    id: 'file-read',
    name: 'File Read',
    description: 'Read file content',
    category: 'file',
    confirm: 'read',
    input: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path' },
        encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' }
      },
      required: ['path']
    },
    output: {
      type: 'object',
      properties: {
        content: { type: 'string' },
        size: { type: 'number' }
      }
    },
    execute: async (input, context) => {
      try {
        const fs = await import('fs/promises');
        const content = await fs.readFile(input.path, input.encoding);
        return {
          success: true,
          data: {
            content: content.toString(),
            size: content.length
          }
        };
      } catch (error) {
        return {
          success: false,
          error: {
            message: `Failed to read file: ${error.message}`,
            code: 'FILE_READ_ERROR'
          }
        };
      }
    }
  });

  // HTTP 请求 Tool
  const httpTool = defineTool({
    id: 'http-request',
    name: 'HTTP Request',
    description: 'Make HTTP request',
    category: 'network',
    confirm: 'none',
    input: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'Request URL' },
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE'], default: 'GET' },
        headers: { type: 'object', description: 'Request headers' },
        body: { type: 'string', description: 'Request body' }
      },
      required: ['url']
    },
    execute: async (input, context) => {
      const response = await fetch(input.url, {
        method: input.method,
        headers: input.headers,
        body: input.body
      });
      return {
        success: response.ok,
        data: {
          status: response.status,
          statusText: response.statusText,
          headers: Object.fromEntries(response.headers),
          body: await response.text()
        }
      };
    }
  });
  // --- example ---
  return { fileReadTool, httpTool };
}

/** The registry example; `agent` and `fileWriteTool` are the host's scaffolding. */
export async function registryExample(agent, fileReadTool, fileWriteTool) {
  // --- example ---
  // 注册 Tool
  agent.tools.register(fileReadTool);
  agent.tools.register(fileWriteTool);

  // 按分类列出
  const fileTools = agent.tools.listByCategory('file');

  // 执行 Tool
  const result = await agent.tools.execute('file-read', {
    path: './data.txt'
  });

  if (result.success) {
    console.log('Content:', result.data.content);
  } else {
    console.error('Error:', result.error.message);
  }
  // --- example ---
  return { fileTools, result };
}

/**
 * The confirm-level fragments, with what `// ...` leaves out filled in by `rest` (name,
 * description, category, execute): the host's scaffolding.
 */
export function confirmLevelExamples(rest) {
  // --- example ---
  const calculatorTool = defineTool({
    id: 'calculator',
    confirm: 'none',
    ...rest('calculator'),
  });
  const fileReadTool = defineTool({
    id: 'file-read',
    confirm: 'read',
    ...rest('file-read'),
  });
  const fileWriteTool = defineTool({
    id: 'file-write',
    confirm: 'write',
    ...rest('file-write'),
  });
  const fileDeleteTool = defineTool({
    id: 'file-delete',
    confirm: 'destructive',
    ...rest('file-delete'),
  });
  // --- example ---
  return { calculatorTool, fileReadTool, fileWriteTool, fileDeleteTool };
}
