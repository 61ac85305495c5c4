// The identity of a parsed program, for binding an approved plan to the script it was made for.
// Positions are left out: a plan approves what a program does, so the same program laid out
// differently (other line breaks, spacing, comments) keeps its plan, while any change to a name, a
// literal or the structure makes another program.
import { sha256Stream } from '../util/digest.js';
import type { Program } from '../syntax/ast.js';

const LAYOUT_KEYS = new Set(['line', 'column', 'hasCall']);
const cache = new WeakMap<Program, string>();

/** Text to emit as is (brackets and keys), as opposed to a value still to be walked. */
class Token {
  constructor(readonly text: string) {}
}

/** A SHA-256 of the program's structure (hex). Iterative: an AST can be thousands of nodes deep. */
export function programHash(program: Program): string {
  const cached = cache.get(program);
  if (cached !== undefined) return cached;
  const hash = sha256Stream();
  let buffer = '';
  const emit = (text: string) => {
    buffer += text;
    if (buffer.length > 65_536) {
      hash.update(buffer);
      buffer = '';
    }
  };
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Token) {
      emit(item.text);
    } else if (Array.isArray(item)) {
      emit('[');
      stack.push(new Token(']'));
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else if (item !== null && typeof item === 'object') {
      emit('{');
      stack.push(new Token('}'));
      const keys = Object.keys(item)
        .filter((key) => !LAYOUT_KEYS.has(key))
        .sort()
        .reverse();
      for (const key of keys) {
        stack.push((item as Record<string, unknown>)[key]);
        stack.push(new Token(`${JSON.stringify(key)}:`));
      }
    } else {
      emit(`${JSON.stringify(item) ?? 'undefined'},`);
    }
  }
  hash.update(buffer);
  const digest = hash.hex();
  cache.set(program, digest);
  return digest;
}
