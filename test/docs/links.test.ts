// Every relative link in the repository's Markdown points at a file that exists, and every #anchor
// at a heading of the file it names (as GitHub makes anchors). Links to the web are not followed.
// Also: every page of docs/ has a test file in test/docs/ that runs its code.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, links } from '../support/markdown.js';
import { root } from '../support/snippets.js';

const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

function markdownFiles(dir = ''): string[] {
  const found: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    if (name.startsWith('.') || SKIPPED.has(name)) continue;
    const relative = path.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) found.push(...markdownFiles(relative));
    else if (name.endsWith('.md')) found.push(relative);
  }
  return found.sort();
}

const files = markdownFiles();

describe('links in the Markdown files', () => {
  it('finds the documents', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/language.md', 'docs/tools.md', 'docs/embedding.md', 'docs/cli.md', 'examples/README.md']));
  });

  it('every page of docs/ has its test file here, which runs its code', () => {
    const untested = files.filter((file) => file.startsWith('docs/') && !existsSync(path.join(root, 'test', 'docs', `${path.basename(file, '.md')}.test.ts`)));
    expect(untested).toEqual([]);
  });

  it.each(files)('%s: every relative link resolves', (file) => {
    const broken: string[] = [];
    for (const { target, line } of links(readFileSync(path.join(root, file), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
      const [pathPart = '', anchor] = target.split('#');
      const resolved = pathPart === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), decodeURIComponent(pathPart));
      if (!resolved.startsWith(root + path.sep)) broken.push(`${file}:${line}: ${target} is outside the repository`);
      else if (!existsSync(resolved)) broken.push(`${file}:${line}: ${target}: no such file`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${file}:${line}: ${target}: no heading with that anchor`);
      }
    }
    expect(broken).toEqual([]);
  });
});
