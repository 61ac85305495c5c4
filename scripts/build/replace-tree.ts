// The last step of `npm run build` (scripts/build.ts): the freshly built files replace those of
// dist/ without dist/ ever being missing or holding a half-written file.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under `dir` (not the folders), as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
  });
}

/**
 * Makes `target` hold exactly the files of `source`: each file is renamed over its old version (on
 * one file system a rename replaces a file atomically), then files and folders `source` did not
 * have are removed. `source` is left empty. Files for which `first` is true are moved before the
 * others (files the others import, so that a new file never points at one not there yet).
 */
export function replaceTree(source: string, target: string, first: (file: string) => boolean = () => false): void {
  const all = filesUnder(source);
  const fresh = [...all.filter(first), ...all.filter((file) => !first(file))];
  mkdirSync(target, { recursive: true });
  for (const file of fresh) {
    const to = path.join(target, file);
    // A file where a folder now goes, or a folder where a file now goes, cannot be renamed over.
    for (const folder of ancestors(file).reverse()) {
      if (!isDirectory(path.join(target, folder))) rmSync(path.join(target, folder), { force: true });
    }
    mkdirSync(path.dirname(to), { recursive: true });
    if (isDirectory(to)) rmSync(to, { recursive: true, force: true });
    renameSync(path.join(source, file), to);
  }
  const kept = new Set(fresh);
  const keptFolders = new Set(fresh.flatMap((file) => ancestors(file)));
  const removeStale = (prefix: string) => {
    for (const entry of readdirSync(path.join(target, prefix), { withFileTypes: true })) {
      const relative = path.join(prefix, entry.name);
      if (entry.isDirectory() && keptFolders.has(relative)) removeStale(relative);
      else if (!kept.has(relative)) rmSync(path.join(target, relative), { recursive: true, force: true });
    }
  };
  removeStale('');
}

function ancestors(file: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(file); dir !== '.'; dir = path.dirname(dir)) out.push(dir);
  return out;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
