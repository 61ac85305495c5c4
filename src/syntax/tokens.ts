// Every token of Nuwa Script, in the order the lexer tries them. Chevrotain picks the first
// pattern that matches (not the longest), so keywords carry `longer_alt: Identifier` and
// two-character operators come before their one-character prefixes.
//
// Besides the language's own tokens there are tokens for the habits of other languages (`&&`, `!`,
// `<>`, `+=`, `/* */`, `#`, markdown fences, `.5`): recognising them as what they are lets the lexer
// report one precise problem each and hand the parser a stream it can go on with, instead of
// dropping characters and letting one mistake cascade into many errors.
//
// Every token that a regular expression matches says which characters it can start with
// (`start_chars_hint`) and whether it can span lines (`line_breaks`): Chevrotain then needs no
// analysis of the expressions when the lexer is built (part of every start of `nuwa run`), and the
// lexer tries only the tokens that can start with the character at hand. The lexer skips
// Chevrotain's validations (lexer.ts); test/unit/syntax/definitions.test.ts builds it with them, and
// checks that these hints lex every text as Chevrotain's own analysis would.
import { createToken, Lexer, type TokenType } from './chevrotain.js';

const chars = (from: string, to: string): string[] => Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) => String.fromCharCode(from.charCodeAt(0) + i));
const DIGITS = chars('0', '9');
const NAME_START = [...chars('A', 'Z'), ...chars('a', 'z'), '_'];

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, start_chars_hint: NAME_START, line_breaks: false, label: 'a name' });

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
/** `=` and the compound assignments other languages have: what LET accepts (the latter with a problem). */
export const AnyAssign = createToken({ name: 'AnyAssign', pattern: Lexer.NA, label: '`=`' });
// What the grammar accepts where THEN, DO or an object key's `:` belongs: the right token, or the one
// another language puts there (`if x:`, `FOR x IN xs THEN`, `{ k = v }`), which the grammar then
// reports. Categories keep these single tokens, so a missing THEN is still repaired by inserting one.
export const ThenWord = createToken({ name: 'ThenWord', pattern: Lexer.NA, label: '`THEN`' });
export const DoWord = createToken({ name: 'DoWord', pattern: Lexer.NA, label: '`DO`' });
export const KeySeparator = createToken({ name: 'KeySeparator', pattern: Lexer.NA, label: '`:`' });

export const WhiteSpace = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/,
  group: Lexer.SKIPPED,
  start_chars_hint: [' ', '\t', '\r', '\n', '\f', '\v', '\u00a0', '\ufeff'],
  line_breaks: true,
});
export const Comment = createToken({ name: 'Comment', pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED, start_chars_hint: ['/'], line_breaks: false });

// Text the lexer recognises as a mistake and keeps out of the parser's way: each is reported once
// by the lexer (lexer.ts) and never reaches the parser.
const MISTAKES = 'mistakes';
/** `/* ... *\/` up to its end (or the end of the text), found with indexOf: a regular expression overflows its stack on a megabyte of `*`. */
const blockComment = {
  exec(text: string, offset: number): RegExpExecArray | null {
    if (text.charCodeAt(offset) !== 47 || text.charCodeAt(offset + 1) !== 42) return null; // "/*"
    const close = text.indexOf('*/', offset + 2);
    return [text.slice(offset, close < 0 ? text.length : close + 2)] as unknown as RegExpExecArray;
  },
};
export const BlockComment = createToken({ name: 'BlockComment', pattern: blockComment, start_chars_hint: ['/'], group: MISTAKES, line_breaks: true });
export const HashComment = createToken({ name: 'HashComment', pattern: /#[^\n\r]*/, group: MISTAKES, start_chars_hint: ['#'], line_breaks: false });
export const Fence = createToken({ name: 'Fence', pattern: /(?:```|~~~)[^\n\r]*/, group: MISTAKES, start_chars_hint: ['`', '~'], line_breaks: false });

// Strings are scanned by hand, not matched by a regular expression: V8's regular expressions keep
// a backtracking entry per repetition and overflow their stack on a string of a few million
// escapes, which turned a long string into a stack-size message. The scan jumps from one `"`, `\`
// or line break to the next, so it stays linear and quick.
const ESCAPED = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'].map((c) => c.charCodeAt(0)));
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** What scanString found (one record, reused: the lexer calls it for every string). */
const scanned = { end: 0, closed: false, valid: true };

/** Where the string starting at `offset` ends, whether it closes, and whether its escapes are JSON's: in `scanned`. */
function scanString(text: string, offset: number, stops: RegExp): typeof scanned {
  const quote = text.charCodeAt(offset);
  let valid = true;
  let at = offset + 1;
  for (;;) {
    stops.lastIndex = at;
    if (!stops.test(text)) return found(text.length, false, valid);
    const i = stops.lastIndex - 1; // every stop is one character
    const code = text.charCodeAt(i);
    if (code === quote) return found(i + 1, true, valid);
    if (code === 10 || code === 13) return found(i, false, valid);
    const next = text.charCodeAt(i + 1); // after a backslash
    if (ESCAPED.has(next)) at = i + 2;
    else if (next === 117 && HEX4.test(text.slice(i + 2, i + 6))) at = i + 6; // \uXXXX
    else {
      valid = false;
      at = Number.isNaN(next) || next === 10 || next === 13 ? i + 1 : i + 2;
    }
  }
}

function found(end: number, closed: boolean, valid: boolean): typeof scanned {
  scanned.end = end;
  scanned.closed = closed;
  scanned.valid = valid;
  return scanned;
}

/** A Chevrotain custom pattern for strings quoted with `quote`: `wellFormed` ones only, or any. */
function stringPattern(quote: '"' | "'", wellFormed: boolean) {
  const stops = quote === '"' ? /["\\\n\r]/g : /['\\\n\r]/g;
  const code = quote.charCodeAt(0);
  return {
    exec(text: string, offset: number): RegExpExecArray | null {
      if (text.charCodeAt(offset) !== code) return null;
      const { end, closed, valid } = scanString(text, offset, stops);
      if (wellFormed && !(closed && valid)) return null;
      return [text.slice(offset, end)] as unknown as RegExpExecArray;
    },
  };
}

export const StringLiteral = createToken({ name: 'StringLiteral', pattern: stringPattern('"', true), start_chars_hint: ['"'], line_breaks: false, label: 'a string' });
// Text that starts like a string but is not one: an unknown escape, or no closing quote before the
// end of the line. The lexer reports it with a precise message and hands the parser a StringLiteral
// in its place, so that one mistake does not cascade into a dozen parse errors.
export const BadString = createToken({ name: 'BadString', pattern: stringPattern('"', false), start_chars_hint: ['"'], line_breaks: false });
export const SingleQuotedString = createToken({ name: 'SingleQuotedString', pattern: stringPattern("'", false), start_chars_hint: ["'"], line_breaks: false });
/** A JavaScript template literal: reported ("use FORMAT") and handed on as a string. */
export const TemplateString = createToken({ name: 'TemplateString', pattern: /`[^`]*`/, start_chars_hint: ['`'], line_breaks: true });

/** `...xs`, JavaScript's spread: read as the list itself, reported where it is used (methods.ts). */
export const Spread = createToken({ name: 'Spread', pattern: '...', label: '`...`', categories: [PrefixOperator] });
/** `x => x.ok`, an arrow function: read as one so that `xs.filter(x => x.ok)` can be repaired (methods.ts). */
export const Arrow = createToken({ name: 'Arrow', pattern: '=>', label: '`=>`', categories: [BinaryOperator] });
/** `.5`: reported ("write 0.5", or after a value "write x[5]") and handed on as a number. */
export const LeadingDotNumber = createToken({ name: 'LeadingDotNumber', pattern: /\.\d+(?:[eE][+-]?\d+)?/, start_chars_hint: ['.'], line_breaks: false });
export const NumberLiteral = createToken({ name: 'NumberLiteral', pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, start_chars_hint: DIGITS, line_breaks: false, label: 'a number' });

export const Let = keyword('LET');
export const Call = keyword('CALL');
export const If = keyword('IF');
export const Then = keyword('THEN', [ThenWord, DoWord]);
export const Else = keyword('ELSE');
export const End = keyword('END');
export const For = keyword('FOR');
// IN is also a binary operator so that `IF x IN list` parses on and gets one precise problem
// ("use CONTAINS") from the expression builder; in `FOR x IN` the grammar asks for IN itself.
export const In = keyword('IN', [BinaryOperator]);
export const Do = keyword('DO', [DoWord]);
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

/** `===` and `!==`: read as `==` and `!=`, with a problem. */
export const StrictEquality = createToken({ name: 'StrictEquality', pattern: /[=!]==/, start_chars_hint: ['=', '!'], line_breaks: false, label: '`==`', categories: [BinaryOperator] });
export const EqualEqual = punctuation('EqualEqual', '==', [BinaryOperator]);
export const NotEqual = punctuation('NotEqual', '!=', [BinaryOperator]);
export const LessGreater = punctuation('LessGreater', '<>', [BinaryOperator]);
export const LessEqual = punctuation('LessEqual', '<=', [BinaryOperator]);
export const GreaterEqual = punctuation('GreaterEqual', '>=', [BinaryOperator]);
export const Less = punctuation('Less', '<', [BinaryOperator]);
export const Greater = punctuation('Greater', '>', [BinaryOperator]);
/** `x++`: reported ("write LET x = x + 1") and dropped. */
export const Increment = createToken({ name: 'Increment', pattern: '++' });
/** `+=` `-=` `*=` `/=` `%=`: none exists in Nuwa; the lexer says to write LET x = x + ... */
export const CompoundAssign = createToken({
  name: 'CompoundAssign',
  pattern: /[+\-*/%]=/,
  start_chars_hint: ['+', '-', '*', '/', '%'],
  line_breaks: false,
  label: '`=`',
  categories: [BinaryOperator, AnyAssign],
});
// `=` belongs to the operator category only so that `IF a = 1` parses on and yields one precise
// error ("use ==") instead of a cascade; the expression builder reports it.
export const Assign = punctuation('Assign', '=', [BinaryOperator, AnyAssign, KeySeparator]);
export const Plus = punctuation('Plus', '+', [BinaryOperator, PrefixOperator]);
export const Minus = punctuation('Minus', '-', [BinaryOperator, PrefixOperator]);
export const Star = punctuation('Star', '*', [BinaryOperator]);
export const Slash = punctuation('Slash', '/', [BinaryOperator]);
export const Percent = punctuation('Percent', '%', [BinaryOperator]);
// Other languages' logical operators, read as AND / OR / NOT with one problem each (lexer.ts).
export const AmpAmp = createToken({ name: 'AmpAmp', pattern: /&&?/, start_chars_hint: ['&'], line_breaks: false, label: '`&&`', categories: [BinaryOperator] });
export const BarBar = createToken({ name: 'BarBar', pattern: /\|\|?/, start_chars_hint: ['|'], line_breaks: false, label: '`||`', categories: [BinaryOperator] });
export const Bang = punctuation('Bang', '!', [PrefixOperator]);
export const Dot = punctuation('Dot', '.');
export const Comma = punctuation('Comma', ',');
export const Colon = punctuation('Colon', ':', [ThenWord, DoWord, KeySeparator]);
export const LParen = punctuation('LParen', '(');
export const RParen = punctuation('RParen', ')');
export const LBracket = punctuation('LBracket', '[');
export const RBracket = punctuation('RBracket', ']');
export const LBrace = punctuation('LBrace', '{');
export const RBrace = punctuation('RBrace', '}');

// Tokens no text lexes to. The mistakes pass (mistakes.ts) gives names of other languages' constructs
// these types where they stand as such, so the grammar can parse the intended structure and report
// one problem; the staged parser (stage.ts) stands a parsed piece of a deep script in for its tokens.
export const ElseIf = createToken({ name: 'ElseIf', pattern: Lexer.NA, label: '`ELSEIF`' });
export const While = createToken({ name: 'While', pattern: Lexer.NA, label: '`WHILE`' });
export const Jump = createToken({ name: 'Jump', pattern: Lexer.NA, label: '`RETURN`' });
/** An `=` already reported by the mistakes pass (`x = 1` without LET): the expression builder keeps quiet. */
export const ReportedAssign = createToken({ name: 'ReportedAssign', pattern: Lexer.NA, label: '`=`', categories: [BinaryOperator] });
export const PrebuiltExpression = createToken({ name: 'PrebuiltExpression', pattern: Lexer.NA, label: 'an expression' });
// The FOR and IF of a list comprehension (`[x * 2 FOR x IN xs IF x > 0]`): written FOR and IF, given
// these types by comprehensions.ts, so that the passes that match blocks with their END (blocks.ts,
// the mistakes pass, the nesting count, the staged parser) never take them for a block.
export const ComprehensionFor = createToken({ name: 'ComprehensionFor', pattern: Lexer.NA, label: '`FOR`' });
export const ComprehensionIf = createToken({ name: 'ComprehensionIf', pattern: Lexer.NA, label: '`IF`' });
export const PrebuiltBlock = createToken({ name: 'PrebuiltBlock', pattern: Lexer.NA, label: 'a statement' });

export const KEYWORDS = ['LET', 'CALL', 'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'AND', 'OR', 'NOT', 'CALC'] as const;

export const allTokens: TokenType[] = [
  WhiteSpace,
  Comment,
  BlockComment,
  HashComment,
  Fence,
  StringLiteral,
  BadString,
  SingleQuotedString,
  TemplateString,
  Spread,
  LeadingDotNumber,
  NumberLiteral,
  Let, Call, If, Then, Else, End, For, In, Do, And, Or, Not, Calc, True, False, Null,
  Identifier,
  StrictEquality, Arrow, EqualEqual, NotEqual, LessGreater, LessEqual, GreaterEqual, Less, Greater, Increment, CompoundAssign, Assign,
  Plus, Minus, Star, Slash, Percent, AmpAmp, BarBar, Bang,
  Dot, Comma, Colon, LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  BinaryOperator, PrefixOperator, AnyAssign, ThenWord, DoWord, KeySeparator,
  ElseIf, While, Jump, ReportedAssign, PrebuiltExpression, PrebuiltBlock, ComprehensionFor, ComprehensionIf,
];

/** Tokens the lexer replaces (or keeps in a side group) before the parser sees the stream. */
const LEXER_ONLY = new Set([BlockComment, HashComment, Fence, BadString, SingleQuotedString, TemplateString, LeadingDotNumber, Increment]);

/** The tokens the parser sees. */
export const parserTokens: TokenType[] = allTokens.filter((t) => !LEXER_ONLY.has(t));
