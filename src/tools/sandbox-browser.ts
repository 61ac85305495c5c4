// sandbox.ts where there is no file system (a browser: package.json's `browser` field puts this module
// in its place). A context still has its sandbox, but a tool that asks for it learns, in a clear
// error, that it runs where there are no files.
import { NuwaError } from '../errors.js';

const noFiles = (what: string) => new NuwaError('TypeError', `${what}: there is no file system here (a browser): tools that need a folder run in Node`);

export class Sandbox {
  constructor(_directory?: string) {}

  get dir(): string {
    throw noFiles('context.sandboxDir');
  }

  resolvePath(_relative: string): string {
    throw noFiles('context.resolvePath');
  }

  dispose(): void {}
}

export function resolveInside(_root: string, _relative: string, _where: string): string {
  throw noFiles('a path inside a folder');
}
