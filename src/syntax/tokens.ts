// Every token of Nuwa Script, in the order the lexer tries them. Chevrotain picks the first
// pattern that matches (not the longest), so keywords carry `longer_alt: Identifier` and
// two-character operators come before their one-character prefixes.
import { createToken, Lexer, type TokenType } from './chevrotain.js';

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'a name' });

function keyword(word: string, categories: TokenType[] = []): TokenType {
  return createToken({
    name: word,
    pattern: word,
    longer_alt: Identifier,
    label: `\`${word}\``,
    categories,
  });
}

// Categories let the expression rule consume "any binary operator" or "any prefix operator" as one
// token, and leave precedence to the table in precedence.ts.
export const BinaryOperator = createToken({ name: 'BinaryOperator', pattern: Lexer.NA, label: 'an operator' });
export const PrefixOperator = createToken({ name: 'PrefixOperator', pattern: Lexer.NA, label: 'a prefix operator' });

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/, group: Lexer.SKIPPED, line_breaks: true });
export const Comment = createToken({ name: 'Comment', pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED });

export const StringLiteral = createToken({
  name: 'StringLiteral',
  pattern: /"(?:[^"\\\n\r]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/,
  label: 'a string',
});
// Text that starts like a string but is not one: an unknown escape, or no closing quote before the
// end of the line. The lexer reports it with a precise message and hands the parser a StringLiteral
// in its place, so that one mistake does not cascade into a dozen parse errors.
export const BadString = createToken({ name: 'BadString', pattern: /"(?:[^"\\\n\r]|\\[^\n\r]?)*"?/ });
export const SingleQuotedString = createToken({ name: 'SingleQuotedString', pattern: /'(?:[^'\\\n\r]|\\[^\n\r]?)*'?/ });

export const NumberLiteral = createToken({ name: 'NumberLiteral', pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, label: 'a number' });

export const Let = keyword('LET');
export const Call = keyword('CALL');
export const If = keyword('IF');
export const Then = keyword('THEN');
export const Else = keyword('ELSE');
export const End = keyword('END');
export const For = keyword('FOR');
export const In = keyword('IN');
export const Do = keyword('DO');
export const And = keyword('AND', [BinaryOperator]);
export const Or = keyword('OR', [BinaryOperator]);
export const Not = keyword('NOT', [PrefixOperator]);
export const Calc = keyword('CALC');
export const True = keyword('true');
export const False = keyword('false');
export const Null = keyword('null');

function punctuation(name: string, text: string, categories: TokenType[] = []): TokenType {
  return createToken({ name, pattern: text, label: `\`${text}\``, categories });
}

export const EqualEqual = punctuation('EqualEqual', '==', [BinaryOperator]);
export const NotEqual = punctuation('NotEqual', '!=', [BinaryOperator]);
export const LessEqual = punctuation('LessEqual', '<=', [BinaryOperator]);
export const GreaterEqual = punctuation('GreaterEqual', '>=', [BinaryOperator]);
export const Less = punctuation('Less', '<', [BinaryOperator]);
export const Greater = punctuation('Greater', '>', [BinaryOperator]);
// `=` belongs to the operator category only so that `IF a = 1` parses on and yields one precise
// error ("use ==") instead of a cascade; the expression builder reports it.
export const Assign = punctuation('Assign', '=', [BinaryOperator]);
export const Plus = punctuation('Plus', '+', [BinaryOperator, PrefixOperator]);
export const Minus = punctuation('Minus', '-', [BinaryOperator, PrefixOperator]);
export const Star = punctuation('Star', '*', [BinaryOperator]);
export const Slash = punctuation('Slash', '/', [BinaryOperator]);
export const Percent = punctuation('Percent', '%', [BinaryOperator]);
export const Dot = punctuation('Dot', '.');
export const Comma = punctuation('Comma', ',');
export const Colon = punctuation('Colon', ':');
export const LParen = punctuation('LParen', '(');
export const RParen = punctuation('RParen', ')');
export const LBracket = punctuation('LBracket', '[');
export const RBracket = punctuation('RBracket', ']');
export const LBrace = punctuation('LBrace', '{');
export const RBrace = punctuation('RBrace', '}');

export const KEYWORDS = ['LET', 'CALL', 'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'AND', 'OR', 'NOT', 'CALC'] as const;

export const allTokens: TokenType[] = [
  WhiteSpace,
  Comment,
  StringLiteral,
  BadString,
  SingleQuotedString,
  NumberLiteral,
  Let, Call, If, Then, Else, End, For, In, Do, And, Or, Not, Calc, True, False, Null,
  Identifier,
  EqualEqual, NotEqual, LessEqual, GreaterEqual, Less, Greater, Assign,
  Plus, Minus, Star, Slash, Percent,
  Dot, Comma, Colon, LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  BinaryOperator, PrefixOperator,
];

/** The tokens the parser sees: the lexer replaces the two malformed-string kinds before parsing. */
export const parserTokens: TokenType[] = allTokens.filter((t) => t !== BadString && t !== SingleQuotedString);
