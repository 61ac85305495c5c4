// Unit tests for src/syntax/tokens.ts: the keyword list and the token sets.
import { describe, expect, it } from 'vitest';
import * as T from '../../../src/syntax/tokens.js';

describe('tokens', () => {
  it('lists the keywords of LANGUAGE.md §1', () => {
    expect([...T.KEYWORDS].sort()).toEqual(['AND', 'CALC', 'CALL', 'DO', 'ELSE', 'END', 'FOR', 'IF', 'IN', 'LET', 'NOT', 'OR', 'THEN'].sort());
  });

  it('hides the malformed-string tokens from the parser', () => {
    expect(T.allTokens).toContain(T.BadString);
    expect(T.allTokens).toContain(T.SingleQuotedString);
    expect(T.parserTokens).not.toContain(T.BadString);
    expect(T.parserTokens).not.toContain(T.SingleQuotedString);
    expect(T.parserTokens).toHaveLength(T.allTokens.length - 2);
  });

  it('tries keywords before identifiers', () => {
    expect(T.allTokens.indexOf(T.Let)).toBeLessThan(T.allTokens.indexOf(T.Identifier));
    expect(T.allTokens.indexOf(T.Null)).toBeLessThan(T.allTokens.indexOf(T.Identifier));
  });
});
