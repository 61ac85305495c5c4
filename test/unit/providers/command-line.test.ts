import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../../src/providers/command-line.js';

describe('splitCommandLine (--mcp quoting)', () => {
  it('splits on spaces and tabs', () => {
    expect(splitCommandLine('npx -y  @modelcontextprotocol/server-memory')).toEqual(['npx', '-y', '@modelcontextprotocol/server-memory']);
    expect(splitCommandLine('  node\tserver.js  ')).toEqual(['node', 'server.js']);
  });

  it('keeps single-quoted text as it is', () => {
    expect(splitCommandLine(`node server.js 'my dir' '$HOME' 'a\\b'`)).toEqual(['node', 'server.js', 'my dir', '$HOME', 'a\\b']);
  });

  it('keeps double-quoted text, with \\" and \\\\ as escapes', () => {
    expect(splitCommandLine('cmd "a \\"quoted\\" word" "back\\\\slash" "c:\\dir"')).toEqual(['cmd', 'a "quoted" word', 'back\\slash', 'c:\\dir']);
  });

  it('joins quoted and plain parts of one word, and keeps empty quoted words', () => {
    expect(splitCommandLine(`cmd --root="my dir" ''`)).toEqual(['cmd', '--root=my dir', '']);
  });

  it('escapes one character outside quotes', () => {
    expect(splitCommandLine('cmd my\\ dir \\"x')).toEqual(['cmd', 'my dir', '"x']);
  });

  it('expands nothing: shell syntax is plain text', () => {
    expect(splitCommandLine('cmd $(rm -rf /) ; ls | cat > out *')).toEqual(['cmd', '$(rm', '-rf', '/)', ';', 'ls', '|', 'cat', '>', 'out', '*']);
  });

  it('refuses unclosed quotes, a trailing backslash and an empty command', () => {
    expect(() => splitCommandLine(`cmd 'open`)).toThrow(/single quote at character 5 is never closed/);
    expect(() => splitCommandLine('cmd "open')).toThrow(/double quote at character 5 is never closed/);
    expect(() => splitCommandLine('cmd \\')).toThrow(/lone \\/);
    expect(() => splitCommandLine('   ')).toThrow(/empty/);
  });
});
