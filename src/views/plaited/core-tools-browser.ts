// core-tools.ts in a browser (package.json's `browser` field): Plaited's core tools write files.
import { NuwaError } from '../../errors.js';

export const CORE_TOOL_SCHEMAS = {};

export function createCoreTools(): never {
  throw new NuwaError('TypeError', 'createCoreTools writes files, and there is no file system here (a browser): create them in Node');
}
