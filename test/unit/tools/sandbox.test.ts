// Unit tests for src/tools/sandbox.ts: ToolContext.sandboxDir and resolvePath (TOOLS.md §4).
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src/tools/sandbox.js';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'nuwa-sandbox-test-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  writeFileSync(path.join(root, 'sub', 'inside.txt'), 'inside');
  symlinkSync(outside, path.join(root, 'to-outside'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  symlinkSync(path.join(root, 'sub'), path.join(root, 'to-sub'));
  symlinkSync(path.join(outside, 'not-there.txt'), path.join(root, 'dangling'));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('Sandbox.resolvePath', () => {
  it('resolves a relative path inside the directory', () => {
    const sandbox = new Sandbox(root);
    expect(sandbox.resolvePath('a/b.txt')).toBe(path.join(root, 'a', 'b.txt'));
    expect(sandbox.resolvePath('sub/inside.txt')).toBe(path.join(root, 'sub', 'inside.txt'));
    expect(sandbox.resolvePath('.')).toBe(root);
  });

  it('allows .. that stays inside', () => {
    expect(new Sandbox(root).resolvePath('sub/../x.txt')).toBe(path.join(root, 'x.txt'));
  });

  it('refuses an absolute path', () => {
    const sandbox = new Sandbox(root);
    expect(() => sandbox.resolvePath('/etc/passwd')).toThrow(/"\/etc\/passwd" is an absolute path/);
    expect(() => sandbox.resolvePath(path.join(root, 'a.txt'))).toThrow(/absolute path/);
  });

  it.each(['..', '../outside/secret.txt', 'sub/../../outside', 'a/b/../../../x'])('refuses %j, which escapes with ..', (relative) => {
    expect(() => new Sandbox(root).resolvePath(relative)).toThrow(/leads outside the sandbox directory/);
  });

  it('refuses a path through a symlink to a directory outside', () => {
    const sandbox = new Sandbox(root);
    expect(() => sandbox.resolvePath('to-outside/secret.txt')).toThrow(/outside the sandbox directory \(through a symbolic link\)/);
    expect(() => sandbox.resolvePath('to-outside/new-file.txt')).toThrow(/symbolic link/);
    expect(() => sandbox.resolvePath('to-outside')).toThrow(/symbolic link/);
  });

  it('refuses a symlink to a file outside', () => {
    expect(() => new Sandbox(root).resolvePath('secret-link')).toThrow(/symbolic link/);
  });

  it('refuses a dangling symlink (writing through it would create a file outside)', () => {
    expect(() => new Sandbox(root).resolvePath('dangling')).toThrow(/symbolic link/);
  });

  it('allows a symlink that stays inside', () => {
    expect(new Sandbox(root).resolvePath('to-sub/inside.txt')).toBe(path.join(root, 'to-sub', 'inside.txt'));
  });

  it('refuses an empty path and a NUL character', () => {
    const sandbox = new Sandbox(root);
    expect(() => sandbox.resolvePath('')).toThrow(/needs a relative path/);
    expect(() => sandbox.resolvePath('a\0b')).toThrow(/NUL/);
  });

  it('works when the sandbox directory itself is reached through a symlink', () => {
    const linkToRoot = path.join(base, 'root-link');
    symlinkSync(root, linkToRoot);
    const sandbox = new Sandbox(linkToRoot);
    expect(sandbox.resolvePath('sub/inside.txt')).toBe(path.join(root, 'sub', 'inside.txt'));
    expect(() => sandbox.resolvePath('to-outside/x')).toThrow(/symbolic link/);
  });
});

describe('Sandbox.dir', () => {
  it('is the given directory, resolved to an absolute path', () => {
    const relative = path.relative(process.cwd(), root);
    expect(new Sandbox(relative).dir).toBe(root);
  });

  it('creates a given directory that does not exist yet, on first use', () => {
    const fresh = path.join(base, 'made', 'later');
    const sandbox = new Sandbox(fresh);
    expect(existsSync(fresh)).toBe(false);
    expect(sandbox.dir).toBe(fresh);
    expect(statSync(fresh).isDirectory()).toBe(true);
  });

  it('without a directory, lazily creates one private temporary directory', () => {
    const sandbox = new Sandbox();
    const dir = sandbox.dir;
    try {
      expect(statSync(dir).isDirectory()).toBe(true);
      expect(path.dirname(dir)).toBe(path.resolve(tmpdir()));
      expect(path.basename(dir)).toMatch(/^nuwa-sandbox-/);
      expect(sandbox.dir).toBe(dir);
      const other = new Sandbox().dir;
      rmSync(other, { recursive: true, force: true });
      expect(other).not.toBe(dir);
      expect(sandbox.resolvePath('out.txt')).toBe(path.join(realpathSync(dir), 'out.txt'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the default temporary directory is removed when no longer needed (issue 5.9)', () => {
  it('is made only when a tool asks, and dispose() removes it', async () => {
    const { Interpreter } = await import('../../../src/api/interpreter.js');
    const { setup, tool } = await import('../../support/harness.js');
    let dir = '';
    const { interpreter } = setup([tool('where', (_args, context) => (dir = context.sandboxDir))]);
    await interpreter.run('LET x = 1');
    expect(dir).toBe(''); // no tool asked: nothing was made
    await interpreter.run('CALL where {}');
    expect(existsSync(dir)).toBe(true);
    writeFileSync(path.join(dir, 'file.txt'), 'x');
    interpreter.dispose();
    expect(existsSync(dir)).toBe(false);
    const first = dir;
    await interpreter.run('CALL where {}'); // still usable: a new directory
    expect(dir).not.toBe(first);
    expect(existsSync(dir)).toBe(true);
    interpreter.dispose();
    expect(existsSync(dir)).toBe(false);

    const given = mkdtempSync(path.join(tmpdir(), 'nuwa-sandbox-test-'));
    const withDir = new Interpreter(undefined, { sandboxDir: given });
    withDir.dispose();
    expect(existsSync(given)).toBe(true); // the host's directory is never removed
    rmSync(given, { recursive: true });
  });

  it('is removed when its Interpreter is garbage-collected, and the rest when the process exits', async () => {
    const { runChild, lastJson, src } = await import('../../support/child.js');
    const code = `
      import { existsSync } from 'node:fs';
      import { Interpreter, ToolRegistry } from ${JSON.stringify(src('index.ts'))};
      const registry = new ToolRegistry();
      registry.register({ name: 'where', description: 'd', parameters: [], returns: 'string', execute: (a, c) => c.sandboxDir });
      const dirOf = async () => (await new Interpreter(registry, { print: () => {} }).run('LET d = CALL where {}')).variables.d;
      const dropped = await dirOf();
      const existedBefore = existsSync(dropped);
      for (let i = 0; i < 50 && existsSync(dropped); i++) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const kept = new Interpreter(registry, { print: () => {} });
      const atExit = (await kept.run('LET d = CALL where {}')).variables.d;
      globalThis.keep = kept;
      console.log(JSON.stringify({ dropped, existedBefore, removedByGc: !existsSync(dropped), atExit, existsAtExit: existsSync(atExit) }));
    `;
    const result = await runChild(code, { nodeArgs: ['--expose-gc'] });
    expect(result.stderr).toBe('');
    const report = lastJson(result) as { dropped: string; existedBefore: boolean; removedByGc: boolean; atExit: string; existsAtExit: boolean };
    expect(report).toMatchObject({ existedBefore: true, removedByGc: true, existsAtExit: true });
    expect(existsSync(report.atExit)).toBe(false); // removed as the child exited
  });
});
