// The directory a tool may write in (ToolContext.sandboxDir) and the one safe way to build a path
// inside it (resolvePath): no absolute paths, no `..` out of it, no symlink that leads outside.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class Sandbox {
  private directory: string | undefined;

  /** Without a directory, a private temporary one is created the first time a tool asks. */
  constructor(directory?: string) {
    this.directory = directory === undefined ? undefined : path.resolve(directory);
  }

  get dir(): string {
    if (this.directory === undefined) this.directory = mkdtempSync(path.join(tmpdir(), 'nuwa-sandbox-'));
    else if (!existsSync(this.directory)) mkdirSync(this.directory, { recursive: true });
    return this.directory;
  }

  resolvePath(relative: string): string {
    if (typeof relative !== 'string' || relative === '') throw new Error('resolvePath needs a relative path');
    if (relative.includes('\0')) throw new Error('a path cannot contain a NUL character');
    if (path.isAbsolute(relative)) throw new Error(`"${relative}" is an absolute path: give a path relative to the sandbox directory`);
    const root = realpathSync(this.dir);
    const target = path.resolve(root, relative);
    if (!isInside(root, target)) throw new Error(`"${relative}" leads outside the sandbox directory`);
    // A symlink inside the sandbox may point outside it: check where the deepest existing part
    // of the path really is.
    // lstat, not exists: a dangling link must be found, not skipped.
    let existing = target;
    while (!lexists(existing)) existing = path.dirname(existing);
    let real: string;
    try {
      real = realpathSync(existing);
    } catch {
      throw new Error(`"${relative}" goes through a symbolic link that points nowhere`);
    }
    if (!isInside(root, real)) throw new Error(`"${relative}" leads outside the sandbox directory (through a symbolic link)`);
    return target;
  }
}

function lexists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
