// Unit tests for src/syntax/mistakes.ts: other languages' habits recognised where they stand, one
// problem each, and the stream rewritten to the structure the author meant — while the same words
// used as names stay names.
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/syntax/lexer.js';

const kinds = (source: string) => tokenize(source).tokens.map((t) => `${t.tokenType.name}:${t.image}`);
const messages = (source: string) => tokenize(source).problems.map((p) => `${p.line}:${p.column} ${p.message}`);

describe('lowercase keywords', () => {
  it('are keywords where a keyword stands, one problem each', () => {
    expect(kinds('if a then b end').map((k) => k.split(':')[0])).toEqual(['IF', 'Identifier', 'THEN', 'Identifier', 'END']);
    expect(messages('if a then b end')).toEqual([
      '1:1 keywords are uppercase: write `IF`',
      '1:6 keywords are uppercase: write `THEN`',
      '1:13 keywords are uppercase: write `END`',
    ]);
    expect(kinds('for x in xs do let y = call t {} end').filter((k) => !k.startsWith('Identifier') && !k.startsWith('L') && !k.startsWith('R'))).toEqual([
      'FOR:for', 'IN:in', 'DO:do', 'Assign:=', 'CALL:call', 'END:end',
    ]);
    expect(messages('IF a and not b or c THEN END')).toEqual([
      '1:6 keywords are uppercase: write `AND`',
      '1:10 keywords are uppercase: write `NOT`',
      '1:16 keywords are uppercase: write `OR`',
    ]);
    expect(messages('LET r = calc { formula: "1" }')).toEqual(['1:9 keywords are uppercase: write `CALC`']);
  });

  it('stay names after LET and FOR, after a dot, as object keys and inside expressions', () => {
    const source = 'LET end = 1 LET o = { if: 2, then: 3 } PRINT(o.if + end) FOR do IN [1] DO PRINT(do) END LET x = [and, or, not]';
    expect(tokenize(source).problems).toEqual([]);
    expect(kinds('LET end = 1').map((k) => k.split(':')[0])).toEqual(['LET', 'Identifier', 'Assign', 'NumberLiteral']);
  });

  it('need the rest of their construct: a lone `end` with no block open, or `let` without `=`, stays a name', () => {
    expect(tokenize('PRINT(1) end').problems).toEqual([]);
    expect(tokenize('let').problems).toEqual([]);
    expect(tokenize('LET a = let').problems).toEqual([]);
  });

  it('leave `x in list` outside a FOR header to the expression builder, without a case problem', () => {
    expect(kinds('IF x in xs THEN END')[2]).toBe('IN:in');
    expect(tokenize('IF x in xs THEN END').problems).toEqual([]);
  });
});

describe('constructs of other languages', () => {
  it('ELSEIF, ELIF and WHILE become tokens the grammar parses, with their problem', () => {
    expect(kinds('IF a THEN ELIF b THEN END')[3]).toBe('ElseIf:ELIF');
    expect(kinds('WHILE a DO END')[0]).toBe('While:WHILE');
    expect(messages('IF a THEN\nelseif b THEN\nEND')).toEqual(['2:1 there is no ELSEIF: write ELSE IF ... END, each IF with its own END']);
  });

  it('recognises ELSEIF only inside an IF and WHILE only at the start of a statement', () => {
    expect(kinds('ELIF')[0]).toBe('Identifier:ELIF');
    expect(tokenize('LET while = 1 PRINT(while)').problems).toEqual([]);
  });

  it('BREAK, CONTINUE and RETURN at the start of a statement', () => {
    expect(messages('FOR x IN xs DO BREAK END\nreturn x').map((m) => m.slice(0, 25))).toEqual(['1:16 there is no BREAK: a', '2:1 there is no RETURN: a']);
    expect(tokenize('LET n = [RETURN]').problems).toEqual([]);
  });

  it('ENDIF, ENDFOR, and END IF on one line are END', () => {
    expect(kinds('IF a THEN ENDIF')[3]).toBe('END:ENDIF');
    expect(kinds('IF a THEN\nEND IF\nPRINT(1)').map((k) => k.split(':')[0])).toEqual(['IF', 'Identifier', 'THEN', 'END', 'Identifier', 'LParen', 'NumberLiteral', 'RParen']);
    expect(messages('IF a THEN\nEND IF')).toEqual(['2:5 write END alone: END closes any block (there is no END IF)']);
    // IF after END on the same line, with a condition: a new IF, not END IF.
    expect(tokenize('IF a THEN END IF b THEN END').problems).toEqual([]);
  });
});

describe('names in the wrong place', () => {
  it('reports `x = 1` at the start of a statement as a missing LET, and reads it as LET x = 1', () => {
    expect(messages('x = 1')).toEqual(['1:1 to set a variable, write LET x = ...']);
    expect(kinds('x = 1')).toEqual(['LET:LET', 'Identifier:x', 'Assign:=', 'NumberLiteral:1']);
    expect(kinds('total += 2').slice(0, 3)).toEqual(['LET:LET', 'Identifier:total', 'CompoundAssign:+=']);
    expect(tokenize('IF x = 1 THEN END').problems).toEqual([]); // in a condition: the builder says "use =="
  });

  it('reads assigning into a list or object as a LET, which the grammar reports (with SET)', () => {
    expect(messages('o.a.b = 1\nxs[0] = 2')).toEqual([]);
    expect(kinds('o.a = 1').slice(0, 2)).toEqual(['LET:LET', 'Identifier:o']);
  });

  it('reports a tool named with braces but no CALL, and reads it as a CALL', () => {
    expect(messages('LET w = get_weather { city: "Oslo" }')).toEqual(['1:9 tools are called with CALL: write CALL get_weather { ... }']);
    expect(kinds('LET w = get_weather {}').slice(3, 5)).toEqual(['CALL:CALL', 'Identifier:get_weather']);
    expect(tokenize('LET w = CALL get_weather { city: "Oslo" } LET v = CALL math.add {}').problems).toEqual([]);
  });

  it('reports PRINT without parentheses, quoting what follows it, and reads the line as its argument', () => {
    expect(messages('PRINT total * 2')).toEqual(['1:1 PRINT is a function: write PRINT(total * 2) with parentheses']);
    expect(kinds('PRINT total * 2')).toEqual(['Identifier:PRINT', 'LParen:(', 'Identifier:total', 'Star:*', 'NumberLiteral:2', 'RParen:)']);
    expect(messages('print "hi"')).toEqual(['1:1 PRINT is a function: write PRINT("hi") with parentheses, in capitals']);
    expect(kinds('print "hi"\nPRINT(1)')).toEqual(['Identifier:PRINT', 'LParen:(', 'StringLiteral:"hi"', 'RParen:)', 'Identifier:PRINT', 'LParen:(', 'NumberLiteral:1', 'RParen:)']);
    expect(tokenize('PRINT\n(1)').problems).toEqual([]);
  });

  it('reports True, None and nil read as values, unless the script sets that name', () => {
    expect(messages('LET a = True\nIF b == None THEN END\nLET c = nil')).toEqual([
      '1:9 literals are lowercase: write `true`',
      '2:9 literals are lowercase: write `null`',
      '3:9 literals are lowercase: write `null`',
    ]);
    expect(tokenize('LET None = 1 PRINT(None)').problems).toEqual([]);
    expect(tokenize('LET o = { True: 1 } PRINT(o.True)').problems).toEqual([]);
  });
});
