// Unit tests for src/syntax/hints.ts: "did you mean" for names that look like keywords, literals
// or constructs of other languages.
import { describe, expect, it } from 'vitest';
import { nameHint } from '../../../src/syntax/hints.js';

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

  it('points WHILE to FOR', () => {
    expect(nameHint('WHILE')).toBe('there is no WHILE loop: use FOR x IN list DO ... END');
    expect(nameHint('while')).toBe('there is no WHILE loop: use FOR x IN list DO ... END');
  });

  it('explains RETURN and function definitions', () => {
    expect(nameHint('return')).toBe('there is no RETURN: a script ends after its last statement');
    expect(nameHint('FUNCTION')).toMatch(/^scripts cannot define functions/);
    expect(nameHint('def')).toMatch(/^scripts cannot define functions/);
  });

  it('has nothing to say about ordinary names or the keywords themselves', () => {
    for (const name of ['price', 'total', 'LETTER', 'x', 'LET', 'END', 'true', 'null', 'LEN']) expect(nameHint(name)).toBeUndefined();
  });
});
