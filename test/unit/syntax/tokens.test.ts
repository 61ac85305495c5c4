// Unit tests for src/syntax/tokens.ts: the keyword list and the token sets.
import { describe, expect, it } from 'vitest';
import * as T from '../../../src/syntax/tokens.js';

describe('tokens', () => {
  it('lists the keywords of LANGUAGE.md §1', () => {
    expect([...T.KEYWORDS].sort()).toEqual(['AND', 'CALC', 'CALL', 'DO', 'ELSE', 'END', 'FOR', 'IF', 'IN', 'LET', 'NOT', 'OR', 'THEN'].sort());
  });

  it('hides the tokens the lexer replaces or sets aside from the parser', () => {
    const lexerOnly = [T.BadString, T.SingleQuotedString, T.TemplateString, T.BlockComment, T.HashComment, T.Fence, T.LeadingDotNumber, T.Increment];
    for (const token of lexerOnly) {
      expect(T.allTokens).toContain(token);
      expect(T.parserTokens).not.toContain(token);
    }
    expect(T.parserTokens).toHaveLength(T.allTokens.length - lexerOnly.length);
  });

  it('tries two-character operators before their one-character prefixes', () => {
    const order = (a: unknown, b: unknown) => expect(T.allTokens.indexOf(a as never)).toBeLessThan(T.allTokens.indexOf(b as never));
    order(T.LessGreater, T.Less);
    order(T.CompoundAssign, T.Assign);
    order(T.CompoundAssign, T.Plus);
    order(T.NotEqual, T.Bang);
    order(T.BlockComment, T.Slash);
    order(T.LeadingDotNumber, T.Dot);
  });

  it('tries keywords before identifiers', () => {
    expect(T.allTokens.indexOf(T.Let)).toBeLessThan(T.allTokens.indexOf(T.Identifier));
    expect(T.allTokens.indexOf(T.Null)).toBeLessThan(T.allTokens.indexOf(T.Identifier));
  });
});
