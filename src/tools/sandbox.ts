// The directory a tool may write in (ToolContext.sandboxDir) and the one safe way to build a path
// inside it (resolvePath): no absolute paths, no `..` out of it, no symlink that leads outside.
//
// Without a directory of the host's, a private temporary one is made the first time a tool asks for
// it, and removed when it is no longer needed: by dispose(), when the Sandbox (and so the Interpreter
// that owns it, and every context of its runs) is garbage-collected, or when the process exits —
// whichever comes first. A directory the host gave is never removed.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rm, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Temporary directories made and not yet removed, so that the process can remove them as it exits. */
const temporaryDirs = new Set<string>();
let removeAtExit = false;

// Removed in the background; listed until then, so that a process exiting meanwhile removes it too.
const collected = new FinalizationRegistry<string>((dir) => {
  rm(dir, { recursive: true, force: true }, () => temporaryDirs.delete(dir));
});

function makeTemporaryDir(owner: object): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-sandbox-'));
  temporaryDirs.add(dir);
  collected.register(owner, dir, owner);
  if (!removeAtExit) {
    removeAtExit = true;
    process.once('exit', () => {
      for (const left of temporaryDirs) rmSync(left, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Who has a sandbox, perhaps made only when asked for (an Interpreter's is): a Sandbox has itself. */
export interface SandboxSource {
  readonly sandbox: Sandbox;
}

export class Sandbox implements SandboxSource {
  private directory: string | undefined;
  private readonly temporary: boolean;

  /** Without a directory, a private temporary one is created the first time a tool asks. */
  constructor(directory?: string) {
    this.temporary = directory === undefined;
    this.directory = directory === undefined ? undefined : path.resolve(directory);
  }

  get sandbox(): Sandbox {
    return this;
  }

  get dir(): string {
    if (this.directory === undefined) this.directory = makeTemporaryDir(this);
    else if (!existsSync(this.directory)) mkdirSync(this.directory, { recursive: true });
    return this.directory;
  }

  /** Removes the temporary directory now, if one was made; a later use makes a new one. */
  dispose(): void {
    if (!this.temporary || this.directory === undefined) return;
    collected.unregister(this);
    temporaryDirs.delete(this.directory);
    rmSync(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }

  resolvePath(relative: string): string {
    return resolveInside(realpathSync(this.dir), relative, 'the sandbox directory');
  }
}

/**
 * `relative` as a path inside `root` (a real path: no symlink in it), or an Error saying how it
 * would escape: an absolute path, `..` out of it, a NUL, or a symbolic link (anywhere along the
 * path, the last part included) whose target is outside. A path that does not exist yet is judged
 * by the deepest part of it that does, so that a file about to be created cannot land outside
 * through a linked parent folder. `where` names the folder in messages ("the sandbox directory").
 * The standard tools' root (std/files.ts) is checked by the same function.
 */
export function resolveInside(root: string, relative: string, where: string): string {
  if (typeof relative !== 'string' || relative === '') throw new Error('resolvePath needs a relative path');
  if (relative.includes('\0')) throw new Error('a path cannot contain a NUL character');
  if (path.isAbsolute(relative)) throw new Error(`"${relative}" is an absolute path: give a path relative to ${where}`);
  const target = path.resolve(root, relative);
  if (!isInside(root, target)) throw new Error(`"${relative}" leads outside ${where}`);
  // A symlink inside the folder may point outside it: check where the deepest existing part
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
  if (!isInside(root, real)) throw new Error(`"${relative}" leads outside ${where} (through a symbolic link)`);
  return target;
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
