// Plaited's core tools (TOOLS.md §11): `createCoreTools({ outputDir, runStory })` makes a Plaited
// registry holding writeTemplate and writeStory, which write files inside `outputDir` and nowhere
// else, and runStory, which hands a story file inside it to the host's story runner. They are
// Plaited handlers (they answer with an envelope), so a path that would leave `outputDir` is a
// `{ success: false, error }` the model can read, not an exception. They need no approval: writing
// inside the directory the host chose for them is what they are for, as in Plaited.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Sandbox } from '../../tools/sandbox.js';
import type { ToolRegistryOptions } from '../../tools/registry.js';
import { describeThrown } from '../../util/foreign.js';
import { createToolRegistry, type PlaitedToolRegistry } from './registry.js';
import type { CoreToolsConfig, ToolResult, ToolSchema } from './types.js';

const fileParameters = (what: string): ToolSchema['parameters'] => ({
  type: 'object',
  properties: {
    path: { type: 'string', description: `Where to write the ${what}, relative to the output folder (e.g. "button.tsx")` },
    content: { type: 'string', description: `The ${what}'s full text` },
  },
  required: ['path', 'content'],
});

export const CORE_TOOL_SCHEMAS = {
  writeTemplate: {
    name: 'writeTemplate',
    description: 'Writes a JSX template (a UI element) to a file in the output folder',
    parameters: fileParameters('template'),
  },
  writeStory: {
    name: 'writeStory',
    description: 'Writes a story, the test file of a template, to a file in the output folder',
    parameters: fileParameters('story'),
  },
  runStory: {
    name: 'runStory',
    description: 'Runs a story file of the output folder and reports its assertions and accessibility checks',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'The story file, relative to the output folder' } },
      required: ['path'],
    },
  },
} satisfies Record<string, ToolSchema>;

/**
 * A Plaited registry with writeTemplate, writeStory and (given a story runner) runStory. More tools
 * can be registered on it like on any registry; `options` are the registry's (`new ToolRegistry(options)`).
 */
export function createCoreTools(config: CoreToolsConfig, options?: ToolRegistryOptions): PlaitedToolRegistry {
  if (config === null || typeof config !== 'object') throw new TypeError('createCoreTools(config): config must be an object { outputDir, runStory? }');
  const { outputDir, runStory } = config;
  if (typeof outputDir !== 'string' || outputDir === '') throw new TypeError('createCoreTools: outputDir must be the path of a folder');
  if (runStory !== undefined && typeof runStory !== 'function') throw new TypeError('createCoreTools: runStory must be a function (path) => StoryResult');
  // The sandbox check of ToolContext.resolvePath: no absolute path, no `..` out, no symbolic link out.
  const folder = new Sandbox(outputDir);
  const registry = createToolRegistry(options);

  const writer = async (args: Record<string, unknown>): Promise<ToolResult> => {
    const relative = args.path as string;
    try {
      const target = folder.resolvePath(relative);
      await mkdir(path.dirname(target), { recursive: true });
      // Resolved again now that the folders exist: one made meanwhile could be a link out.
      await writeFile(folder.resolvePath(relative), args.content as string);
      return { success: true, data: { path: path.relative(folder.dir, target).split(path.sep).join('/') } };
    } catch (error) {
      return { success: false, error: describeThrown(error) };
    }
  };
  registry.register('writeTemplate', writer, { ...CORE_TOOL_SCHEMAS.writeTemplate, category: 'file' });
  registry.register('writeStory', writer, { ...CORE_TOOL_SCHEMAS.writeStory, category: 'file' });

  if (runStory !== undefined) {
    registry.register(
      'runStory',
      async (args) => {
        let file: string;
        try {
          file = folder.resolvePath(args.path as string);
        } catch (error) {
          return { success: false, error: describeThrown(error) };
        }
        try {
          return { success: true, data: await runStory(file) };
        } catch (error) {
          return { success: false, error: describeThrown(error) };
        }
      },
      { ...CORE_TOOL_SCHEMAS.runStory, category: 'custom' },
    );
  }
  return registry;
}
