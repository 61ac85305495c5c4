// Unit tests for src/syntax/lexer.ts: token kinds (LANGUAGE.md §1), the syntax problems the lexer
// reports with their positions, and the nesting measure that keeps hostile text a SyntaxError.
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, byPosition, tokenize } from '../../../src/syntax/lexer.js';

/** `Kind:image` for every token. */
function kinds(source: string): string[] {
  return tokenize(source).tokens.map((t) => `${t.tokenType.name}:${t.image}`);
}

function positions(source: string): Array<[string, number, number]> {
  return tokenize(source).tokens.map((t) => [t.image, t.startLine!, t.startColumn!]);
}

describe('tokenize: token kinds', () => {
  it('tells keywords from identifiers that start like them', () => {
    expect(kinds('LETTER let LET_x LET Let ENDING END_ IFx IF')).toEqual([
      'Identifier:LETTER',
      'Identifier:let',
      'Identifier:LET_x',
      'LET:LET',
      'Identifier:Let',
      'Identifier:ENDING',
      'Identifier:END_',
      'Identifier:IFx',
      'IF:IF',
    ]);
  });

  it('recognises every keyword', () => {
    const words = ['LET', 'CALL', 'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'AND', 'OR', 'NOT', 'CALC'];
    expect(kinds(words.join(' '))).toEqual(words.map((w) => `${w}:${w}`));
  });

  it('lexes lowercase and/or/not and other casings as identifiers (the mistakes pass decides by position)', () => {
    expect(kinds('LET x = [and, or, not, calc, Calc]').slice(3).filter((k) => !k.startsWith('Comma'))).toEqual([
      'LBracket:[', 'Identifier:and', 'Identifier:or', 'Identifier:not', 'Identifier:calc', 'Identifier:Calc', 'RBracket:]',
    ]);
  });

  it('accepts identifiers with underscores and digits after the first character', () => {
    expect(kinds('_ _x x1 a_b_2 Price price')).toEqual(['Identifier:_', 'Identifier:_x', 'Identifier:x1', 'Identifier:a_b_2', 'Identifier:Price', 'Identifier:price']);
  });

  it('reads numbers in every allowed form', () => {
    expect(kinds('0 42 3.14 1e6 2.5E-3 7e+2')).toEqual([
      'NumberLiteral:0',
      'NumberLiteral:42',
      'NumberLiteral:3.14',
      'NumberLiteral:1e6',
      'NumberLiteral:2.5E-3',
      'NumberLiteral:7e+2',
    ]);
  });

  it('does not read a leading dot, a trailing dot, hex or a sign as part of a number', () => {
    expect(tokenize('.5').problems).toEqual([{ line: 1, column: 1, message: 'write 0.5: a number starts with a digit' }]);
    expect(kinds('.5')).toEqual(['NumberLiteral:0.5']);
    expect(tokenize('xs.0').problems).toEqual([{ line: 1, column: 3, message: 'to index a list write [0], not .0' }]);
    expect(kinds('1.')).toEqual(['NumberLiteral:1', 'Dot:.']);
    expect(kinds('0x10')).toEqual(['NumberLiteral:0', 'Identifier:x10']);
    expect(kinds('-1 +2')).toEqual(['Minus:-', 'NumberLiteral:1', 'Plus:+', 'NumberLiteral:2']);
  });

  it('reads strings with every JSON escape as one token', () => {
    const source = String.raw`"q\" b\\ s\/ \b\f\n\r\t \u00e9\u00E9"`;
    const { tokens, problems } = tokenize(source);
    expect(problems).toEqual([]);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.tokenType.name).toBe('StringLiteral');
    expect(tokens[0]!.image).toBe(source);
    expect(JSON.parse(tokens[0]!.image)).toBe('q" b\\ s/ \b\f\n\r\t éé');
  });

  it('reads the empty string', () => {
    expect(kinds('""')).toEqual(['StringLiteral:""']);
  });

  it('skips comments to the end of the line and keeps // inside strings', () => {
    expect(kinds('x // a comment LET y\ny//z\n"//not a comment"')).toEqual(['Identifier:x', 'Identifier:y', 'StringLiteral:"//not a comment"']);
  });

  it('reads true/false/null only in lowercase', () => {
    expect(kinds('[true, false, null]').filter((k) => !/^(Comma|LBracket|RBracket)/.test(k))).toEqual(['true:true', 'false:false', 'null:null']);
    // Other spellings are names; bound by the script they stay names, read unbound they are a mistake.
    expect(kinds('LET TRUE = 1 LET False = 2 LET NULL = 3 LET None = 4 PRINT(None)').filter((k) => /TRUE|False|NULL|None/.test(k))).toEqual([
      'Identifier:TRUE',
      'Identifier:False',
      'Identifier:NULL',
      'Identifier:None',
      'Identifier:None',
    ]);
    expect(kinds('trueish nullable')).toEqual(['Identifier:trueish', 'Identifier:nullable']);
  });

  it('reads every operator and punctuation mark, two-character operators first', () => {
    expect(kinds('== != <= >= < > = + - * / % . , : ( ) [ ] { }')).toEqual([
      'EqualEqual:==',
      'NotEqual:!=',
      'LessEqual:<=',
      'GreaterEqual:>=',
      'Less:<',
      'Greater:>',
      'Assign:=',
      'Plus:+',
      'Minus:-',
      'Star:*',
      'Slash:/',
      'Percent:%',
      'Dot:.',
      'Comma:,',
      'Colon::',
      'LParen:(',
      'RParen:)',
      'LBracket:[',
      'RBracket:]',
      'LBrace:{',
      'RBrace:}',
    ]);
    expect(kinds('a<=b')).toEqual(['Identifier:a', 'LessEqual:<=', 'Identifier:b']);
  });

  it('needs no separator between statements and gives 1-based line and column', () => {
    expect(positions('LET a = 1 LET b = 2')).toEqual([
      ['LET', 1, 1], ['a', 1, 5], ['=', 1, 7], ['1', 1, 9], ['LET', 1, 11], ['b', 1, 15], ['=', 1, 17], ['2', 1, 19],
    ]);
    expect(positions('x\n  y\r\n\tz')).toEqual([['x', 1, 1], ['y', 2, 3], ['z', 3, 2]]);
  });

  it('yields no tokens and no problems for empty or comment-only text', () => {
    expect(tokenize('')).toEqual({ tokens: [], problems: [], problemCount: 0, maxNesting: 0, tooDeep: false });
    expect(tokenize('  // only a comment\n').tokens).toEqual([]);
  });
});

describe('tokenize: problems', () => {
  it('points an invalid escape at its backslash', () => {
    const { tokens, problems } = tokenize(String.raw`LET s = "ab\qc"`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, column: 12 });
    expect(problems[0]!.message).toMatch(/^invalid escape `\\q` in string: the escapes are/);
    // The parser is handed a string in its place, so one mistake does not cascade.
    expect(tokens.map((t) => t.tokenType.name)).toEqual(['LET', 'Identifier', 'Assign', 'StringLiteral']);
  });

  it('points at the first bad escape after valid ones, on a later line', () => {
    const { problems } = tokenize('LET a = 1\n  "ok\\n then \\x41"');
    expect(problems).toEqual([expect.objectContaining({ line: 2, column: 14, message: expect.stringMatching(/^invalid escape `\\x`/) })]);
  });

  it('refuses a \\u escape without four hex digits', () => {
    const { problems } = tokenize(String.raw`"\u12G4"`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, column: 2 });
    expect(problems[0]!.message).toMatch(/^invalid escape `\\u12G4`/);
  });

  it('reports an unterminated string at its opening quote and goes on with the next line', () => {
    const { tokens, problems } = tokenize('LET s = "abc\nLET t = 1');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, column: 9 });
    expect(problems[0]!.message).toMatch(/^unterminated string: close it with `"` on the same line/);
    expect(tokens.slice(4).map((t) => [t.image, t.startLine, t.startColumn])).toEqual([['LET', 2, 1], ['t', 2, 5], ['=', 2, 7], ['1', 2, 9]]);
  });

  it('treats a raw line break inside a string as unterminated', () => {
    const { problems } = tokenize('"line one\nline two"');
    expect(problems[0]).toMatchObject({ line: 1, column: 1, message: expect.stringMatching(/^unterminated string/) });
  });

  it('refuses single-quoted strings and says to use double quotes', () => {
    const { tokens, problems } = tokenize("LET s = 'abc'");
    expect(problems).toEqual([{ line: 1, column: 9, message: 'strings use double quotes: write "abc"' }]);
    expect(tokens[3]!.tokenType.name).toBe('StringLiteral');
  });

  it('reports a number too large for a double', () => {
    const { problems } = tokenize('LET n = 1e400');
    expect(problems).toEqual([{ line: 1, column: 9, message: 'the number 1e400 is too large' }]);
    expect(tokenize('1e308').problems).toEqual([]);
    expect(tokenize('2E+308').problems).toEqual([{ line: 1, column: 1, message: 'the number 2E+308 is too large' }]);
    expect(tokenize(`1${'0'.repeat(308)}`).problems).toEqual([]);
    expect(tokenize(`2${'0'.repeat(308)}`).problems.map((p) => p.message)).toEqual([`the number 2${'0'.repeat(308)} is too large`]);
    expect(tokenize(`${'9'.repeat(400)}.5`).problems).toHaveLength(1);
  });

  it.each([
    [';', /^unexpected character `;`: statements need no separator/],
    ['@', /^unexpected character `@`: names use letters, digits and `_` only/],
  ])('reports the unexpected character %s with its hint and position', (char, message) => {
    const { tokens, problems } = tokenize(`LET a = 1\nIF a ${char} b THEN END`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2, column: 6 });
    expect(problems[0]!.message).toMatch(message);
    expect(tokens.map((t) => t.image)).toEqual(['LET', 'a', '=', '1', 'IF', 'a', 'b', 'THEN', 'END']);
  });

  it.each([
    ['&&', 'AmpAmp', 'use AND instead of `&&`'],
    ['&', 'AmpAmp', 'use AND instead of `&`'],
    ['||', 'BarBar', 'use OR instead of `||`'],
    ['|', 'BarBar', 'use OR instead of `|`'],
    ['<>', 'LessGreater', 'use `!=` for "not equal"'],
  ])('reads %s as an operator with one problem, so the parser goes on', (text, kind, message) => {
    const { tokens, problems } = tokenize(`LET a = 1\nIF a ${text} b THEN END`);
    expect(problems).toEqual([{ line: 2, column: 6, message }]);
    expect(tokens.map((t) => t.tokenType.name)[6]).toBe(kind);
  });

  it('reads ! as a prefix operator with one problem', () => {
    const { tokens, problems } = tokenize('IF !(a) THEN END');
    expect(problems).toEqual([{ line: 1, column: 4, message: 'use NOT instead of `!` (`!=` means "not equal")' }]);
    expect(tokens[1]!.tokenType.name).toBe('Bang');
  });

  it('writes the whole LET for +=, -=, *=, /=, %=, with the right side as written', () => {
    for (const op of ['+', '-', '*', '/', '%']) {
      expect(tokenize(`LET total ${op}= 2`).problems).toEqual([{ line: 1, column: 11, message: `there is no \`${op}=\`: write LET total = total ${op} 2` }]);
    }
    expect(tokenize('count += d.amount').problems).toEqual([{ line: 1, column: 7, message: 'there is no `+=`: write LET count = count + d.amount' }]);
    // Parentheses where the operator binds tighter than the right side's.
    expect(tokenize('n *= a + 1').problems[0]!.message).toBe('there is no `*=`: write LET n = n * (a + 1)');
    expect(tokenize('n += LEN(xs) * 2').problems[0]!.message).toBe('there is no `+=`: write LET n = n + LEN(xs) * 2');
    // A right side with another mistake in it is not repeated.
    expect(tokenize('n += len(xs)').problems[0]!.message).toBe('there is no `+=`: write LET n = n + ...');
    expect(tokenize('n += a && b').problems[0]!.message).toBe('there is no `+=`: write LET n = n + ...');
  });

  it('keeps # comments, /* */ comments and markdown fences out of the token stream, one problem each', () => {
    const { tokens, problems } = tokenize('# note\nLET a = 1 /* a\nb */ LET b = 2 # more');
    expect(tokens.map((t) => t.image)).toEqual(['LET', 'a', '=', '1', 'LET', 'b', '=', '2']);
    expect(problems).toEqual([
      { line: 1, column: 1, message: 'comments start with `//`, not `#`' },
      { line: 2, column: 11, message: 'comments start with `//` (there are no /* */ comments): put // at the start of each comment line' },
      { line: 3, column: 16, message: 'comments start with `//`, not `#`' },
    ]);
  });

  it('says to remove a #! line and a markdown fence (one problem for all the fences)', () => {
    expect(tokenize('#!/usr/bin/env nuwa\nPRINT(1)').problems).toEqual([{ line: 1, column: 1, message: 'remove the `#!` line: a script cannot start with one' }]);
    const fenced = tokenize('```nuwa\nPRINT(1)\n```\n');
    expect(fenced.tokens.map((t) => t.image)).toEqual(['PRINT', '(', '1', ')']);
    expect(fenced.problems).toEqual([{ line: 1, column: 1, message: expect.stringMatching(/^the script is wrapped in a markdown fence: remove the ``` lines/) }]);
  });

  it('says "not a text file" for binary data, once, instead of a problem per byte', () => {
    const nul = tokenize('LET a = 1\nLET b\u0000\u0001 = 2');
    expect(nul.tokens).toEqual([]);
    expect(nul.problems).toEqual([{ line: 2, column: 6, message: 'this is not a text file (it contains NUL bytes): a script is UTF-8 text' }]);
    const garbage = tokenize('\ufffd\u0001\u0002\ufffdPK\u0003\u0004\ufffd\ufffd');
    expect(garbage.problems).toEqual([{ line: 1, column: 1, message: 'this is not a text file (it is mostly control characters or bytes that are not UTF-8): a script is UTF-8 text' }]);
    // A stray control character in real text is an ordinary problem.
    expect(tokenize('LET a = 1 \u0007').problems).toEqual([{ line: 1, column: 11, message: 'unexpected character `\\x07`' }]);
  });

  it('reads a /* comment over megabytes of stars without overflowing, and a lone backquote plainly', () => {
    const stars = tokenize(`/*${'*'.repeat(3_000_000)}\nLET a = 1`);
    expect(stars.problems).toHaveLength(1);
    expect(stars.problems[0]!.message).toMatch(/^comments start with `\/\/` \(there are no \/\* \*\/ comments\)/);
    expect(tokenize('/* a\nb */ LET a = 1').tokens.map((t) => [t.image, t.startLine])).toEqual([['LET', 2], ['a', 2], ['=', 2], ['1', 2]]);
    expect(tokenize('LET s = `oops').problems).toEqual([{ line: 1, column: 9, message: 'unexpected backquote: strings use double quotes: "like this"' }]);
  });

  it('keeps the first 50 problems of hopeless text and counts the rest', () => {
    const { problems, problemCount } = tokenize('~ '.repeat(10_000));
    expect(problems).toHaveLength(50);
    expect(problemCount).toBe(10_000);
  });

  it('lexes a string of megabytes, and an unterminated one, without a stack overflow', () => {
    const long = tokenize(`LET s = "${'a'.repeat(5_000_000)}"`);
    expect(long.problems).toEqual([]);
    expect(long.tokens[3]!.image).toHaveLength(5_000_002);
    const open = tokenize(`LET s = "${'a\\n'.repeat(1_000_000)}`);
    expect(open.problems).toEqual([{ line: 1, column: 9, message: 'unterminated string: close it with `"` on the same line (write \\n for a line break)' }]);
    expect(tokenize(`LET s = '${'a'.repeat(3_000_000)}`).problems[0]!.message).toMatch(/^strings use double quotes: write "a{57}\.\.\."$/);
    // Millions of escapes: a regular expression would overflow its stack here.
    expect(tokenize(`"${'\\n'.repeat(2_000_000)}"`).problems).toEqual([]);
    expect(tokenize(`"${'\\n'.repeat(2_000_000)}\\q"`).problems[0]!.message).toMatch(/^invalid escape `\\q`/);
    expect(tokenize(`'${"\\'".repeat(2_000_000)}`).problems[0]!.message).toMatch(/^strings use double quotes/);
  });

  it('reports an unexpected character without a hint plainly', () => {
    expect(tokenize('a ~ b').problems).toEqual([{ line: 1, column: 3, message: 'unexpected character `~`' }]);
  });

  it('shows a character outside the BMP whole in the message, not half a surrogate pair', () => {
    const { problems } = tokenize('LET a = 1 😀');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, column: 11 });
    expect(problems[0]!.message).toBe('unexpected character `😀`');
  });

  it('lists problems in source order', () => {
    const { problems } = tokenize("LET b = 'x' & 1e999\n~");
    expect(problems.map((p) => [p.line, p.column])).toEqual([[1, 9], [1, 13], [1, 15], [2, 1]]);
  });
});

describe('tokenize: nesting', () => {
  it('exports the limit of LANGUAGE.md §1', () => {
    expect(MAX_NESTING).toBe(1000);
  });

  it('counts brackets, parentheses and braces', () => {
    expect(tokenize('x').maxNesting).toBe(0);
    expect(tokenize('[([{a: 1}])]').maxNesting).toBe(4);
    expect(tokenize('(1) (2) (3)').maxNesting).toBe(1);
  });

  it('counts IF and FOR blocks', () => {
    expect(tokenize('IF a THEN FOR x IN y DO PRINT(x) END END').maxNesting).toBe(3);
    expect(tokenize('IF a THEN END IF b THEN END').maxNesting).toBe(1);
  });

  it('counts a run of prefix operators but not a binary minus', () => {
    expect(tokenize('- - x').maxNesting).toBe(2);
    expect(tokenize('NOT NOT x').maxNesting).toBe(2);
    expect(tokenize('NOT - x').maxNesting).toBe(2);
    expect(tokenize('a - -b').maxNesting).toBe(1);
    expect(tokenize('a - b - c - d').maxNesting).toBe(0);
    expect(tokenize('(a) - b').maxNesting).toBe(1);
    expect(tokenize('[1] - -b').maxNesting).toBe(1);
  });

  it('adds a prefix run to the bracket depth', () => {
    expect(tokenize('((- - x))').maxNesting).toBe(4);
  });

  it('allows exactly 1,000 levels of brackets', () => {
    const result = tokenize(`${'('.repeat(1000)}1${')'.repeat(1000)}`);
    expect(result.maxNesting).toBe(1000);
    expect(result.tooDeep).toBe(false);
    expect(result.problems).toEqual([]);
  });

  it('refuses 1,001 levels of brackets at the offending token', () => {
    const result = tokenize(`LET x = ${'['.repeat(1001)}${']'.repeat(1001)}`);
    expect(result.tooDeep).toBe(true);
    expect(result.maxNesting).toBe(1001);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ line: 1, column: 9 + 1000 });
    expect(result.problems[0]!.message).toMatch(/^nesting deeper than 1000 levels/);
  });

  it('allows 1,000 nested blocks and refuses 1,001 at the offending IF', () => {
    const ok = tokenize(`${'IF true THEN\n'.repeat(1000)}${'END\n'.repeat(1000)}`);
    expect([ok.maxNesting, ok.tooDeep, ok.problems]).toEqual([1000, false, []]);
    const deep = tokenize(`${'IF true THEN\n'.repeat(1001)}${'END\n'.repeat(1001)}`);
    expect(deep.tooDeep).toBe(true);
    expect(deep.problems[0]).toMatchObject({ line: 1001, column: 1 });
  });

  it('allows a run of 1,000 prefix operators and refuses 1,001', () => {
    const ok = tokenize(`LET x = ${'-'.repeat(1000)}1`);
    expect([ok.maxNesting, ok.tooDeep]).toEqual([1000, false]);
    const notOk = tokenize(`${'NOT '.repeat(1000)}true`);
    expect([notOk.maxNesting, notOk.tooDeep]).toEqual([1000, false]);
    const deep = tokenize(`LET x = ${'- '.repeat(1001)}1`);
    expect(deep.tooDeep).toBe(true);
    expect(deep.problems[0]).toMatchObject({ line: 1, column: 9 + 2 * 1000 });
  });

  it('refuses 1,000 brackets plus one prefix operator inside them', () => {
    const deep = tokenize(`${'('.repeat(1000)}-1${')'.repeat(1000)}`);
    expect(deep.tooDeep).toBe(true);
    expect(deep.problems[0]).toMatchObject({ line: 1, column: 1001 });
  });

  it('does not let a binary minus between operands count as nesting', () => {
    const chain = `LET x = 1${' - 1'.repeat(5000)}`;
    const result = tokenize(chain);
    expect(result.maxNesting).toBe(0);
    expect(result.tooDeep).toBe(false);
  });
});

describe('byPosition', () => {
  it('orders by line, then column', () => {
    const items = [{ line: 2, column: 1 }, { line: 1, column: 9 }, { line: 1, column: 2 }];
    expect(items.sort(byPosition)).toEqual([{ line: 1, column: 2 }, { line: 1, column: 9 }, { line: 2, column: 1 }]);
  });
});
