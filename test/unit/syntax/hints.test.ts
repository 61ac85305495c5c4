// Unit tests for src/syntax/hints.ts: "did you mean" for names that look like keywords, literals
// or constructs of other languages.
import { describe, expect, it } from 'vitest';
import { builtinForMethod, constructHint, methodCallHint, MISTAKE_WORDS, nameHint } from '../../../src/syntax/hints.js';

describe('nameHint', () => {
  it.each(['let', 'Let', 'call', 'if', 'then', 'else', 'end', 'for', 'in', 'do', 'and', 'or', 'not', 'calc', 'eLsE'])(
    'says keywords are uppercase for %s',
    (name) => {
      expect(nameHint(name)).toBe(`keywords are uppercase: write \`${name.toUpperCase()}\``);
    },
  );

  it.each([
    ['TRUE', 'true'],
    ['True', 'true'],
    ['FALSE', 'false'],
    ['False', 'false'],
    ['NULL', 'null'],
    ['Null', 'null'],
    ['None', 'null'],
    ['nil', 'null'],
    ['undefined', 'null'],
  ])('says literals are lowercase for %s', (name, literal) => {
    expect(nameHint(name)).toBe(`literals are lowercase: write \`${literal}\``);
  });

  it('points ELSEIF, ELIF and ELSIF (any case) to ELSE IF', () => {
    for (const name of ['ELSEIF', 'elseif', 'ElseIf', 'ELIF', 'elsif']) {
      expect(nameHint(name)).toMatch(/^there is no (ELSEIF|ELIF|ELSIF): write ELSE IF \.\.\. END, each IF with its own END$/);
    }
  });

  it('points WHILE to FOR, and to RANGE for counting', () => {
    for (const name of ['WHILE', 'while']) expect(nameHint(name)).toBe('there is no WHILE loop: loop over a list with FOR x IN list DO ... END (to count, FOR i IN RANGE(n) DO ... END)');
  });

  it('explains RETURN, BREAK, CONTINUE and function definitions', () => {
    expect(nameHint('return')).toMatch(/^there is no RETURN: a script ends after its last statement/);
    expect(nameHint('BREAK')).toMatch(/^there is no BREAK: a FOR loop always runs over its whole list/);
    expect(nameHint('Continue')).toMatch(/^there is no CONTINUE: guard the rest of the loop body with IF/);
    expect(nameHint('FUNCTION')).toMatch(/^scripts cannot define functions/);
    expect(nameHint('def')).toMatch(/^scripts cannot define functions/);
  });

  it('never finds anything on Object.prototype: such names are ordinary names', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype']) expect(nameHint(name)).toBeUndefined();
    for (const name of ['constructor', 'toString', '__proto__']) expect(constructHint(name)).toBeUndefined();
    expect(builtinForMethod('constructor')).toBeUndefined();
    expect(MISTAKE_WORDS.get('constructor')).toBeUndefined();
  });

  it('names the built-in for a method of another language', () => {
    expect(methodCallHint('name', 'upper')).toBe('there are no methods: write UPPER(name)');
    expect(methodCallHint('s', 'split')).toBe('there are no methods: write SPLIT(s, ...)');
    expect(methodCallHint('items', 'length')).toBe('there are no methods: write LEN(items)');
    expect(methodCallHint('items', 'push')).toBe('there are no methods: write LET items = APPEND(items, ...)');
    expect(methodCallHint('counts', 'get')).toBe('there are no methods: write GET(counts, ...)');
    expect(methodCallHint('counts', 'set')).toBe('there are no methods: write LET counts = SET(counts, key, value)');
    expect(methodCallHint('prices', 'sum')).toBe('there are no methods: write SUM(prices)');
    expect(methodCallHint('x', 'frobnicate')).toMatch(/^there are no methods: call a built-in function/);
  });

  it('knows the spellings the mistakes pass looks for', () => {
    expect(MISTAKE_WORDS.get('if')).toEqual({ kind: 'keyword', keyword: 'IF' });
    expect(MISTAKE_WORDS.get('Then')).toEqual({ kind: 'keyword', keyword: 'THEN' });
    expect(MISTAKE_WORDS.get('IF')).toBeUndefined();
    expect(MISTAKE_WORDS.get('None')).toEqual({ kind: 'literal', literal: 'null' });
    expect(MISTAKE_WORDS.get('elif')).toEqual({ kind: 'elseif' });
    expect(MISTAKE_WORDS.get('return')).toEqual({ kind: 'jump' });
    expect(MISTAKE_WORDS.get('print')).toEqual({ kind: 'print' });
    expect(MISTAKE_WORDS.get('price')).toBeUndefined();
  });

  it('has nothing to say about ordinary names or the keywords themselves', () => {
    for (const name of ['price', 'total', 'LETTER', 'x', 'LET', 'END', 'true', 'null', 'LEN']) expect(nameHint(name)).toBeUndefined();
  });
});
