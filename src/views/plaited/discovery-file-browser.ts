// discovery-file.ts in a browser (package.json's `browser` field): an index kept in a file needs a
// file system. Without `dbPath` the index lives in memory, which works everywhere.
import { NuwaError } from '../../errors.js';

export type { StoredIndex, StoredTool } from './discovery-file.js';

export class DiscoveryFile {
  constructor(_file: string) {
    throw new NuwaError('TypeError', 'createToolDiscovery({ dbPath }) keeps its index in a file, and there is no file system here (a browser): leave dbPath out');
  }
}
