// Syntax error messages, written for the author of the script (often a model): what was found,
// what was expected, and where one exists the likely fix.
import { EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { escapeControls } from './source.js';

/** What each rule expects, when "one of these 14 tokens" would say less than a word. */
const RULE_EXPECTS: ReadonlyMap<string, string> = new Map([
  ['statement', 'a statement (LET, IF, FOR, CALL or an expression)'],
  ['expression', 'an expression'],
  ['operand', 'an expression'],
  ['primary', 'an expression (a value, a name, `(`, `[`, `{`, CALL or CALC)'],
  ['property', 'a key (a name or a "string")'],
]);

/** A token as a message names it: short (a string can be megabytes long) and with control characters escaped. */
export function describeToken(token: IToken): string {
  if (token.tokenType === EOF) return 'the end of the script';
  const image = escapeControls(token.image.length > 40 ? `${token.image.slice(0, 36)}...${token.image.endsWith('"') ? '"' : ''}` : token.image);
  if (token.tokenType === T.StringLiteral) return `the string ${image}`;
  return `\`${image}\``;
}

function label(type: TokenType): string {
  if (type === EOF) return 'the end of the script';
  return type.LABEL ?? type.name;
}

function oneOf(labels: string[]): string {
  const unique = [...new Set(labels)];
  if (unique.length <= 1) return unique[0] ?? 'something else';
  return `${unique.slice(0, -1).join(', ')} or ${unique[unique.length - 1]}`;
}

// A Map, not an object: a stray token's text (`constructor`...) must never find Object.prototype.
const CLOSERS: ReadonlyMap<string, string> = new Map([
  ['END', 'there is no open IF or FOR for this `END` to close'],
  ['THEN', '`THEN` belongs after the condition of an IF'],
  ['ELSE', '`ELSE` belongs inside an IF ... END'],
  ['DO', '`DO` belongs after FOR x IN list'],
  [')', 'no `(` is open here'],
  [']', 'no `[` is open here'],
  ['}', 'no `{` is open here'],
]);

export function unexpectedTokenMessage(token: IToken): string {
  const why = CLOSERS.get(token.image.toUpperCase());
  return `unexpected ${describeToken(token)}${why ? `: ${why}` : ': expected a statement (LET, IF, FOR, CALL or an expression)'}`;
}

export const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, ruleName }) {
    if (expected === EOF) return unexpectedTokenMessage(actual);
    if (expected === T.Identifier && ruleName === 'letStatement') return `expected a variable name after LET but found ${describeToken(actual)}`;
    if (expected === T.Identifier && ruleName === 'forStatement') return `expected a loop variable name after FOR but found ${describeToken(actual)}`;
    if (expected === T.Identifier && ruleName === 'comprehensionClause') return `expected a variable name after FOR ([expression FOR x IN list]) but found ${describeToken(actual)}`;
    if (expected === T.In && ruleName === 'comprehensionClause') return `expected IN after the variable ([expression FOR x IN list]) but found ${describeToken(actual)}`;
    if (expected === T.RBracket && actual.tokenType === T.ComprehensionFor) return 'a list comprehension starts with the value to make of each item: [x * 2 FOR x IN xs]';
    if (expected === T.ThenWord) return `expected THEN after the ${ruleName === 'ifStatement' ? 'IF ' : ''}condition but found ${describeToken(actual)}`;
    if (expected === T.DoWord) return `expected DO after FOR x IN list but found ${describeToken(actual)}`;
    if (expected === T.In) return `expected IN after the loop variable (FOR x IN list DO) but found ${describeToken(actual)}`;
    return `expected ${label(expected)} but found ${describeToken(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return unexpectedTokenMessage(firstRedundant);
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, ruleName }) {
    if (ruleName === 'callExpression') return `expected \`{\` and the tool's arguments (CALL name { key: value }, or {} for none) but found ${describeToken(actual[0]!)}`;
    const expected = RULE_EXPECTS.get(ruleName) ?? oneOf(expectedPathsPerAlt.flat().map((path) => label(path[0]!)));
    return `expected ${expected} but found ${describeToken(actual[0]!)}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, ruleName }) {
    const expected = RULE_EXPECTS.get(ruleName) ?? oneOf(expectedIterationPaths.map((path) => label(path[0]!)));
    return `expected at least one ${expected} but found ${describeToken(actual[0]!)}`;
  },
};
