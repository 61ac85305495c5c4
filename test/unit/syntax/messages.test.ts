// Unit tests for src/syntax/messages.ts: how tokens are named in syntax errors, and the messages
// for tokens that cannot start or continue a statement.
import { describe, expect, it } from 'vitest';
import type { IToken } from 'chevrotain';
import { EOF } from '../../../src/syntax/chevrotain.js';
import { tokenize } from '../../../src/syntax/lexer.js';
import { describeToken, errorMessages, unexpectedTokenMessage } from '../../../src/syntax/messages.js';
import * as T from '../../../src/syntax/tokens.js';

const token = (source: string): IToken => tokenize(source).tokens[0]!;
const eofToken = { tokenType: EOF, image: '' } as unknown as IToken;

describe('describeToken', () => {
  it('names the end of the script', () => {
    expect(describeToken(eofToken)).toBe('the end of the script');
  });

  it('shows a string with its quotes, unbackticked', () => {
    expect(describeToken(token('"hello"'))).toBe('the string "hello"');
  });

  it('shows other tokens in backticks', () => {
    expect(describeToken(token('END'))).toBe('`END`');
    expect(describeToken(token('price'))).toBe('`price`');
    expect(describeToken(token('42'))).toBe('`42`');
    expect(describeToken(token(')'))).toBe('`)`');
  });
});

describe('unexpectedTokenMessage', () => {
  it.each([
    ['END', 'unexpected `END`: there is no open IF or FOR for this `END` to close'],
    ['THEN', 'unexpected `THEN`: `THEN` belongs after the condition of an IF'],
    ['ELSE', 'unexpected `ELSE`: `ELSE` belongs inside an IF ... END'],
    ['DO', 'unexpected `DO`: `DO` belongs after FOR x IN list'],
    [')', 'unexpected `)`: no `(` is open here'],
    [']', 'unexpected `]`: no `[` is open here'],
    ['}', 'unexpected `}`: no `{` is open here'],
    [',', 'unexpected `,`: expected a statement (LET, IF, FOR, CALL or an expression)'],
    ['"s"', 'unexpected the string "s": expected a statement (LET, IF, FOR, CALL or an expression)'],
  ])('%s', (source, message) => {
    expect(unexpectedTokenMessage(token(source))).toBe(message);
  });
});

describe('errorMessages', () => {
  it('words a mismatched token with the expected label', () => {
    const message = errorMessages.buildMismatchTokenMessage({ expected: T.RParen, actual: token('END'), previous: token('x'), ruleName: 'primary' });
    expect(message).toBe('expected `)` but found `END`');
  });

  it('asks for a variable name after LET and a loop variable after FOR', () => {
    expect(errorMessages.buildMismatchTokenMessage({ expected: T.Identifier, actual: token('5'), previous: token('LET'), ruleName: 'letStatement' })).toBe(
      'expected a variable name after LET but found `5`',
    );
    expect(errorMessages.buildMismatchTokenMessage({ expected: T.Identifier, actual: eofToken, previous: token('FOR'), ruleName: 'forStatement' })).toBe(
      'expected a loop variable name after FOR but found the end of the script',
    );
  });

  it('words a leftover token like a stray one', () => {
    expect(errorMessages.buildNotAllInputParsedMessage({ firstRedundant: token('END'), ruleName: 'script' })).toBe(
      'unexpected `END`: there is no open IF or FOR for this `END` to close',
    );
  });

  it('names what a rule expects instead of listing tokens', () => {
    const message = errorMessages.buildNoViableAltMessage({
      expectedPathsPerAlt: [[[T.NumberLiteral]], [[T.StringLiteral]]],
      actual: [token(')')],
      previous: token('('),
      customUserDescription: undefined,
      ruleName: 'primary',
    });
    expect(message).toBe('expected an expression (a value, a name, `(`, `[`, `{`, CALL or CALC) but found `)`');
  });

  it('lists the expected tokens for a rule it has no words for', () => {
    const message = errorMessages.buildNoViableAltMessage({
      expectedPathsPerAlt: [[[T.Identifier]], [[T.StringLiteral]], [[T.Identifier]]],
      actual: [eofToken],
      previous: token('{'),
      customUserDescription: undefined,
      ruleName: 'someRule',
    });
    expect(message).toBe('expected a name or a string but found the end of the script');
  });
});
