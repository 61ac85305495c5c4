// The lexer and the parser skip Chevrotain's validations of their definitions when they are built
// (they are fixed, and the validations cost most of `nuwa run`'s start-up): these tests run them.
// And the tokens give Chevrotain their first characters and line breaks instead of letting it analyse
// their regular expressions: a reference lexer built from the same patterns without those hints
// must lex every text the same way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToken, Lexer, type IToken, type TokenType } from '../../../src/syntax/chevrotain.js';
import { NuwaParser } from '../../../src/syntax/grammar.js';
import { LEXER_OPTIONS } from '../../../src/syntax/lexer.js';
import * as T from '../../../src/syntax/tokens.js';

/** Copies of the lexer's tokens without start_chars_hint and line_breaks (custom patterns keep theirs: they need them). */
function unhintedTokens(): TokenType[] {
  const copies = new Map<TokenType, TokenType>();
  const copy = (type: TokenType): TokenType => {
    let made = copies.get(type);
    if (made !== undefined) return made;
    const pattern = type.PATTERN;
    const custom = pattern !== undefined && typeof pattern === 'object' && !(pattern instanceof RegExp);
    made = createToken({
      name: type.name,
      pattern: pattern as RegExp,
      ...(type.GROUP !== undefined && { group: type.GROUP }),
      ...(type.LONGER_ALT !== undefined && { longer_alt: copy(type.LONGER_ALT as TokenType) }),
      ...(custom && { start_chars_hint: type.START_CHARS_HINT, line_breaks: type.LINE_BREAKS }),
    });
    copies.set(type, made);
    return made;
  };
  return T.allTokens.filter((type) => type.PATTERN !== Lexer.NA).map(copy);
}

const shape = (tokens: IToken[]) => tokens.map((t) => `${t.tokenType.name} ${JSON.stringify(t.image)} @${t.startOffset} ${t.startLine}:${t.startColumn}`);

describe('the lexer definition', () => {
  it("passes Chevrotain's validations", () => {
    const lexer = new Lexer(T.allTokens, { ...LEXER_OPTIONS, skipValidations: false });
    expect(lexer.lexerDefinitionErrors).toEqual([]);
  });

  it('lexes every text as a lexer that analyses the patterns itself does', () => {
    const ours = new Lexer(T.allTokens, { ...LEXER_OPTIONS, skipValidations: true });
    const reference = new Lexer(unhintedTokens(), { positionTracking: 'onlyStart', ensureOptimizations: false, skipValidations: false });
    const pieces = [
      'LET', 'let', 'x1', '_a', 'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'AND', 'OR', 'NOT', 'CALL', 'CALC', 'true', 'null', 'falsey',
      '0', '12.5', '1e3', '.5', '"s"', '"a\\nb"', '"\\q"', '"open', "'q'", '`t`', '`', '~~~', '```js', '//c', '/* b */', '/*', '#h', '#!',
      '==', '===', '!==', '!=', '<>', '<=', '>=', '<', '>', '=', '+=', '++', '+', '-', '*', '/', '%', '&&', '&', '||', '|', '!', '.', ',', ':',
      '(', ')', '[', ']', '{', '}', ' ', '\t', '\n', '\r\n', '\r', '\u00a0', '\ufeff', ';', '?', '@', '$', '^', 'é', '\u2028', '😀',
      // Tokens that span lines, which must move the line count on.
      '`a\nb`', '`\r\n`', '/* a\n b */', '/*\r*/', '"a\n', "'b\r\n",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const a = ours.tokenize(text);
        const b = reference.tokenize(text);
        expect(shape(a.tokens)).toEqual(shape(b.tokens));
        expect(shape(a.groups.mistakes ?? [])).toEqual(shape(b.groups.mistakes ?? []));
        expect(a.errors.map((e) => [e.offset, e.length, e.line, e.column])).toEqual(b.errors.map((e) => [e.offset, e.length, e.line, e.column]));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('the grammar', () => {
  it("passes Chevrotain's validations", () => {
    expect(() => new NuwaParser({ skipValidations: false })).not.toThrow();
  });
});
