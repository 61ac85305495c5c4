// file-store.ts in a browser (package.json's `browser` field): there are no files to keep runs in.
// A host there keeps checkpoints itself, or uses MemoryRunStore.
import { NuwaError } from '../errors.js';

export class FileRunStore {
  constructor(_dir: string) {
    throw new NuwaError('TypeError', 'FileRunStore needs a file system (Node): here, keep checkpoints yourself or use a MemoryRunStore');
  }
}
