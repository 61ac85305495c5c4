// Unit tests for src/std/files.ts: fs.read, fs.write, fs.delete and fs.list inside the root folder,
// and every way out of it refused (TOOLS.md §12, the escape checks of resolvePath, §4).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { createStdTools, registerStdTools, StdOptionError } from '../../../src/std/index.js';
import { thrownBy } from '../../support/thrown.js';
import { stdHost, type StdHost } from './support.js';

let base: string;
let root: string;
let outside: string;
let host: StdHost;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'nuwa-std-files-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'hello.txt'), 'héllo\n');
  writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n');
  writeFileSync(path.join(root, 'bytes.bin'), Buffer.from([0xff, 0x00, 0xfe]));
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  symlinkSync(outside, path.join(root, 'outside-dir'));
  symlinkSync(path.join(root, 'hello.txt'), path.join(root, 'hello-link'));
  host = stdHost({ root, maxBodyBytes: 1024 });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('fs.read', () => {
  it('reads a text file: its content and its size in bytes', async () => {
    expect(await host.call('fs.read', { path: 'hello.txt' })).toEqual({ content: 'héllo\n', size: 7 });
    expect(await host.call('fs.read', { path: 'docs/a.md' })).toEqual({ content: '# A\n', size: 4 });
  });

  it('reads any bytes as base64', async () => {
    expect(await host.call('fs.read', { path: 'bytes.bin', encoding: 'base64' })).toEqual({ content: '/wD+', size: 3 });
  });

  it('refuses bytes that are not UTF-8 as text, naming the way to read them', async () => {
    const error = await host.fails('fs.read', { path: 'bytes.bin' });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('"bytes.bin" is not UTF-8 text: read it with encoding "base64"');
  });

  it('follows a symlink that stays inside the root', async () => {
    expect(await host.call('fs.read', { path: 'hello-link' })).toEqual({ content: 'héllo\n', size: 7 });
  });

  it('says what is wrong with a missing file or a folder', async () => {
    expect((await host.fails('fs.read', { path: 'nope.txt' })).message).toContain('"nope.txt" does not exist in the root folder');
    expect((await host.fails('fs.read', { path: 'docs' })).message).toContain('"docs" is a folder: list it with fs.list');
  });

  it('refuses a file over the cap, naming the cap, instead of cutting it short', async () => {
    writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(1025));
    const error = await host.fails('fs.read', { path: 'big.txt' });
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('is over the 1 KB cap (maxBodyBytes)');
    expect(error.code).toBe('BODY_TOO_LARGE');
    writeFileSync(path.join(root, 'just.txt'), 'x'.repeat(1024));
    expect(await host.call('fs.read', { path: 'just.txt' })).toMatchObject({ size: 1024 });
  });

  it('does not wait for a writer on a named pipe', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    expect((await host.fails('fs.read', { path: 'pipe' })).message).toContain('"pipe" is not a regular file');
  });
});

describe('fs.write', () => {
  it('writes a file, creating its folders, and returns its path and size', async () => {
    expect(await host.call('fs.write', { path: 'out/deep/new.txt', content: 'ça' })).toEqual({ path: 'out/deep/new.txt', size: 3 });
    expect(readFileSync(path.join(root, 'out', 'deep', 'new.txt'), 'utf8')).toBe('ça');
  });

  it('replaces a file, or appends to it', async () => {
    await host.call('fs.write', { path: 'log.txt', content: 'one\n' });
    await host.call('fs.write', { path: 'log.txt', content: 'two\n', append: true });
    expect(readFileSync(path.join(root, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await host.call('fs.write', { path: 'log.txt', content: 'three\n' })).toEqual({ path: 'log.txt', size: 6 });
  });

  it('writes bytes given as base64, and refuses text that is not base64', async () => {
    await host.call('fs.write', { path: 'b.bin', content: '/wD+', encoding: 'base64' });
    expect([...readFileSync(path.join(root, 'b.bin'))]).toEqual([0xff, 0x00, 0xfe]);
    expect((await host.fails('fs.write', { path: 'b.bin', content: 'not base64!', encoding: 'base64' })).message).toContain('content is not base64 text');
  });

  it('refuses content over the cap', async () => {
    const error = await host.fails('fs.write', { path: 'huge.txt', content: 'x'.repeat(2000) });
    expect(error.message).toContain('over the 1 KB cap (maxBodyBytes)');
    expect(existsSync(path.join(root, 'huge.txt'))).toBe(false);
  });

  it('needs approval (write): denied without it', async () => {
    const strict = stdHost({ root }, { approve: undefined });
    const error = await strict.fails('fs.write', { path: 'denied.txt', content: 'x' });
    expect(error.kind).toBe('ToolDeniedError');
    expect(existsSync(path.join(root, 'denied.txt'))).toBe(false);
  });
});

describe('fs.delete', () => {
  it('removes a file and returns its path and the size it had', async () => {
    writeFileSync(path.join(root, 'gone.txt'), 'bye');
    expect(await host.call('fs.delete', { path: 'gone.txt' })).toEqual({ path: 'gone.txt', size: 3 });
    expect(existsSync(path.join(root, 'gone.txt'))).toBe(false);
  });

  it('refuses a folder, and says when there is nothing to remove', async () => {
    expect((await host.fails('fs.delete', { path: 'docs' })).message).toContain('"docs" is a folder: fs.delete removes files only');
    expect((await host.fails('fs.delete', { path: '.' })).message).toContain('is a folder');
    expect((await host.fails('fs.delete', { path: 'never.txt' })).message).toContain('"never.txt" does not exist');
    expect(existsSync(path.join(root, 'docs', 'a.md'))).toBe(true);
  });

  it('is destructive: the approve hook is asked with that level', async () => {
    const asked: string[] = [];
    const watched = stdHost({ root }, { approve: ({ confirm }) => (asked.push(confirm), false) });
    writeFileSync(path.join(root, 'kept.txt'), 'x');
    expect((await watched.fails('fs.delete', { path: 'kept.txt' })).kind).toBe('ToolDeniedError');
    expect(asked).toEqual(['destructive']);
    expect(existsSync(path.join(root, 'kept.txt'))).toBe(true);
  });
});

describe('fs.list', () => {
  it('lists a folder: name, kind and size, sorted by name', async () => {
    expect(await host.call('fs.list', { path: 'docs' })).toEqual([{ name: 'a.md', kind: 'file', size: 4 }]);
    const entries = (await host.call('fs.list')) as Array<{ name: string; kind: string; size: number | null }>;
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    expect(byName.get('hello.txt')).toEqual({ name: 'hello.txt', kind: 'file', size: 7 });
    expect(byName.get('docs')).toEqual({ name: 'docs', kind: 'folder', size: null });
    expect(byName.get('secret-link')).toEqual({ name: 'secret-link', kind: 'link', size: null });
    expect(entries.map((entry) => entry.name)).toEqual([...entries.map((entry) => entry.name)].sort());
  });

  it('says when the folder does not exist or is a file', async () => {
    expect((await host.fails('fs.list', { path: 'missing' })).message).toContain('"missing" does not exist');
    expect((await host.fails('fs.list', { path: 'hello.txt' })).message).toContain('not a folder');
  });
});

describe('confinement: every way out of the root is refused', () => {
  const refusals: Array<[string, string, Record<string, string>, RegExp]> = [
    ['.. out of the root', 'fs.read', { path: '../outside/secret.txt' }, /leads outside the root folder/],
    ['.. hidden in the middle', 'fs.read', { path: 'docs/../../outside/secret.txt' }, /leads outside the root folder/],
    ['an absolute path', 'fs.read', { path: '/etc/passwd' }, /is an absolute path: give a path relative to the root folder/],
    ['a symlink to a file outside', 'fs.read', { path: 'secret-link' }, /through a symbolic link/],
    ['a symlinked parent folder', 'fs.read', { path: 'outside-dir/secret.txt' }, /through a symbolic link/],
    ['a new file under a symlinked parent folder', 'fs.write', { path: 'outside-dir/planted.txt', content: 'x' }, /through a symbolic link/],
    ['a new folder under a symlinked parent folder', 'fs.write', { path: 'outside-dir/a/b/planted.txt', content: 'x' }, /through a symbolic link/],
    ['writing through a symlink to a file outside', 'fs.write', { path: 'secret-link', content: 'pwned' }, /through a symbolic link/],
    ['writing with .. out of the root', 'fs.write', { path: '../planted.txt', content: 'x' }, /leads outside the root folder/],
    ['writing to an absolute path', 'fs.write', { path: '/tmp/nuwa-std-planted.txt', content: 'x' }, /absolute path/],
    ['deleting through a symlink to a file outside', 'fs.delete', { path: 'secret-link' }, /through a symbolic link/],
    ['deleting through a symlinked parent folder', 'fs.delete', { path: 'outside-dir/secret.txt' }, /through a symbolic link/],
    ['listing a symlinked folder outside', 'fs.list', { path: 'outside-dir' }, /through a symbolic link/],
    ['listing the parent of the root', 'fs.list', { path: '..' }, /leads outside the root folder/],
    ['a NUL in the path', 'fs.read', { path: 'hello.txt\0.png' }, /NUL/],
  ];

  it.each(refusals)('refuses %s', async (_what, tool, args, message) => {
    const error = await host.fails(tool, args);
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(message);
    expect(error.code).toBe('PATH_OUTSIDE_ROOT');
  });

  it('leaves everything outside the root as it was', () => {
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'a'))).toBe(false);
    expect(existsSync(path.join(base, 'planted.txt'))).toBe(false);
  });

  it('refuses a dangling symlink rather than creating its target', async () => {
    symlinkSync(path.join(outside, 'made-by-link.txt'), path.join(root, 'dangling'));
    expect((await host.fails('fs.write', { path: 'dangling', content: 'x' })).message).toMatch(/symbolic link that points nowhere/);
    expect(existsSync(path.join(outside, 'made-by-link.txt'))).toBe(false);
  });

  it('treats a root reached through a symlink as that folder', async () => {
    const linkedRoot = path.join(base, 'root-link');
    symlinkSync(root, linkedRoot);
    const linked = stdHost({ root: linkedRoot });
    expect(await linked.call('fs.read', { path: 'docs/a.md' })).toEqual({ content: '# A\n', size: 4 });
    expect((await linked.fails('fs.read', { path: 'outside-dir/secret.txt' })).message).toMatch(/through a symbolic link/);
  });
});

describe('the root option', () => {
  it('defaults to the working directory', () => {
    const tools = createStdTools();
    expect(tools.map((tool) => tool.id)).toContain('file-read');
  });

  it('must be a folder that exists', () => {
    expect(thrownBy(() => createStdTools({ root: path.join(base, 'missing') }), StdOptionError).message).toMatch(/^createStdTools: root: the folder ".*missing" does not exist$/);
    expect(thrownBy(() => createStdTools({ root: path.join(root, 'hello.txt') }), StdOptionError).option).toBe('root');
  });

  it('registers every tool under its name and its sdkwork id', () => {
    const registry = new ToolRegistry();
    registerStdTools(registry, { root });
    expect(registry.get('file-read')?.name).toBe('fs.read');
    expect(registry.get('file-write')?.name).toBe('fs.write');
    expect(registry.get('file-delete')?.name).toBe('fs.delete');
    expect(registry.get('dir-list')?.name).toBe('fs.list');
    expect(registry.getByName('fs.read')?.confirm).toBe('read');
    expect(registry.get('fs.delete')?.confirm).toBe('destructive');
  });
});
