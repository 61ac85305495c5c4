// Tokens → AST, with Chevrotain. One parser instance, analysed once at module load and reused.
// Error recovery is on so that one parse reports every syntax error; the AST of a script with
// errors is thrown away, so recovery only has to keep the actions from crashing.
import { EmbeddedActionsParser, EOF, type IToken } from './chevrotain.js';
import type * as A from './ast.js';
import { buildExpression, type OperandParts } from './precedence.js';
import * as T from './tokens.js';
import { errorMessages, unexpectedTokenMessage } from './messages.js';
import { nameHint } from './hints.js';
import type { SyntaxProblem } from '../errors.js';

function pos(token: IToken): { line: number; column: number } {
  // Tokens inserted by error recovery have no position; the AST is discarded in that case anyway.
  return { line: token.startLine ?? 0, column: token.startColumn ?? 0 };
}

function stringValue(token: IToken): string {
  return token.isInsertedInRecovery || token.image.length < 2 ? '' : (JSON.parse(token.image) as string);
}

const placeholder = (): A.Literal => ({ type: 'Literal', value: null, line: 0, column: 0, hasCall: false });

class NuwaParser extends EmbeddedActionsParser {
  /** Problems the grammar cannot express, found by the actions (duplicate keys, `=` as an operator). */
  extraProblems: Array<{ problem: SyntaxProblem; token?: IToken }> = [];

  constructor() {
    super(T.parserTokens, { recoveryEnabled: true, maxLookahead: 2, errorMessageProvider: errorMessages });
    this.performSelfAnalysis();
  }

  script = this.RULE('script', (): A.Statement[] => {
    const body: A.Statement[] = [];
    this.MANY(() => {
      body.push(this.SUBRULE(this.statement));
    });
    return body;
  }, { recoveryValueFunc: () => [] });

  statement = this.RULE(
    'statement',
    (): A.Statement =>
      this.OR([
        { ALT: () => this.SUBRULE(this.letStatement) },
        { ALT: () => this.SUBRULE(this.ifStatement) },
        { ALT: () => this.SUBRULE(this.forStatement) },
        {
          ALT: () => {
            const expression = this.SUBRULE(this.expression);
            return this.ACTION(
              (): A.ExpressionStatement => ({
                type: 'ExpressionStatement',
                expression,
                line: expression.line,
                column: expression.column,
                hasCall: expression.hasCall,
              }),
            );
          },
        },
      ]),
    { recoveryValueFunc: (): A.Statement => ({ type: 'ExpressionStatement', expression: placeholder(), line: 0, column: 0, hasCall: false }) },
  );

  letStatement = this.RULE('letStatement', (): A.LetStatement => {
    const keyword = this.CONSUME(T.Let);
    const name = this.CONSUME(T.Identifier);
    this.CONSUME(T.Assign);
    const value = this.SUBRULE(this.expression);
    return this.ACTION(() => ({ type: 'Let', name: name.image, value, ...pos(keyword), hasCall: value.hasCall }));
  });

  ifStatement = this.RULE('ifStatement', (): A.IfStatement => {
    const keyword = this.CONSUME(T.If);
    const condition = this.SUBRULE(this.expression);
    this.CONSUME(T.Then);
    const consequent = this.SUBRULE(this.block);
    let alternate: A.Statement[] | null = null;
    this.OPTION(() => {
      this.CONSUME(T.Else);
      alternate = this.SUBRULE2(this.block);
    });
    this.CONSUME(T.End);
    return this.ACTION(() => ({
      type: 'If',
      condition,
      consequent,
      alternate,
      ...pos(keyword),
      hasCall: condition.hasCall || anyCall(consequent) || (alternate !== null && anyCall(alternate)),
    }));
  });

  forStatement = this.RULE('forStatement', (): A.ForStatement => {
    const keyword = this.CONSUME(T.For);
    const variable = this.CONSUME(T.Identifier);
    this.CONSUME(T.In);
    const iterable = this.SUBRULE(this.expression);
    this.CONSUME(T.Do);
    const body = this.SUBRULE(this.block);
    this.CONSUME(T.End);
    return this.ACTION(() => ({
      type: 'For',
      variable: variable.image,
      iterable,
      body,
      ...pos(keyword),
      hasCall: iterable.hasCall || anyCall(body),
    }));
  });

  block = this.RULE('block', (): A.Statement[] => {
    const body: A.Statement[] = [];
    this.MANY(() => {
      body.push(this.SUBRULE(this.statement));
    });
    return body;
  }, { recoveryValueFunc: () => [] });

  expression = this.RULE(
    'expression',
    (): A.Expression => {
      const parts: OperandParts[] = [this.SUBRULE(this.operand)];
      const operators: IToken[] = [];
      this.MANY(() => {
        operators.push(this.CONSUME(T.BinaryOperator));
        parts.push(this.SUBRULE2(this.operand));
      });
      return this.ACTION(() => (parts.length === 1 && parts[0]!.prefixes.length === 0 ? parts[0]!.operand : buildExpression(parts, operators, (problem, token) => this.extraProblems.push({ problem, token }))));
    },
    { recoveryValueFunc: placeholder },
  );

  operand = this.RULE(
    'operand',
    (): OperandParts => {
      const prefixes: IToken[] = [];
      this.MANY(() => {
        prefixes.push(this.CONSUME(T.PrefixOperator));
      });
      let operand = this.SUBRULE(this.primary);
      this.MANY2(() => {
        this.OR([
          {
            ALT: () => {
              this.CONSUME(T.Dot);
              const name = this.CONSUME(T.Identifier);
              const object = operand;
              operand = this.ACTION(() => ({ type: 'Member', object, property: name.image, ...pos(name), hasCall: object.hasCall }));
            },
          },
          {
            ALT: () => {
              const bracket = this.CONSUME(T.LBracket);
              const index = this.SUBRULE(this.expression);
              this.CONSUME(T.RBracket);
              const object = operand;
              operand = this.ACTION(() => ({ type: 'Index', object, index, ...pos(bracket), hasCall: object.hasCall || index.hasCall }));
            },
          },
        ]);
      });
      return { prefixes, operand };
    },
    { recoveryValueFunc: () => ({ prefixes: [], operand: placeholder() }) },
  );

  primary = this.RULE(
    'primary',
    (): A.Expression =>
      this.OR([
        { ALT: () => this.literal(this.CONSUME(T.NumberLiteral), (t) => Number(t.image)) },
        { ALT: () => this.literal(this.CONSUME(T.StringLiteral), stringValue) },
        { ALT: () => this.literal(this.CONSUME(T.True), () => true) },
        { ALT: () => this.literal(this.CONSUME(T.False), () => false) },
        { ALT: () => this.literal(this.CONSUME(T.Null), () => null) },
        { ALT: () => this.SUBRULE(this.nameOrFunctionCall) },
        {
          ALT: () => {
            this.CONSUME(T.LParen);
            const inner = this.SUBRULE(this.expression);
            this.CONSUME(T.RParen);
            return inner;
          },
        },
        { ALT: () => this.SUBRULE(this.listLiteral) },
        { ALT: () => this.SUBRULE(this.objectLiteral) },
        { ALT: () => this.SUBRULE(this.callExpression) },
        { ALT: () => this.SUBRULE(this.calcExpression) },
      ]),
    { recoveryValueFunc: placeholder },
  );

  private literal(token: IToken, value: (token: IToken) => A.Literal['value']): A.Literal {
    return this.ACTION(() => ({ type: 'Literal', value: value(token), ...pos(token), hasCall: false }));
  }

  nameOrFunctionCall = this.RULE('nameOrFunctionCall', (): A.Variable | A.FunctionCall => {
    const name = this.CONSUME(T.Identifier);
    let args: A.Expression[] | undefined;
    this.OPTION(() => {
      this.CONSUME(T.LParen);
      args = [];
      this.MANY_SEP({ SEP: T.Comma, DEF: () => args!.push(this.SUBRULE(this.expression)) });
      this.CONSUME(T.RParen);
    });
    return this.ACTION(() =>
      args === undefined
        ? { type: 'Variable', name: name.image, ...pos(name), hasCall: false }
        : { type: 'FunctionCall', name: name.image, arguments: args, ...pos(name), hasCall: anyCall(args) },
    );
  });

  listLiteral = this.RULE('listLiteral', (): A.ListExpression => {
    const bracket = this.CONSUME(T.LBracket);
    const elements: A.Expression[] = [];
    this.OPTION(() => {
      elements.push(this.SUBRULE(this.expression));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        elements.push(this.SUBRULE2(this.expression));
      });
      this.OPTION2(() => this.CONSUME2(T.Comma)); // trailing comma
    });
    this.CONSUME(T.RBracket);
    return this.ACTION(() => ({ type: 'List', elements, ...pos(bracket), hasCall: anyCall(elements) }));
  });

  objectLiteral = this.RULE('objectLiteral', (): A.ObjectExpression => {
    const brace = this.CONSUME(T.LBrace);
    const properties: A.Property[] = [];
    this.OPTION(() => {
      properties.push(this.SUBRULE(this.property));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        properties.push(this.SUBRULE2(this.property));
      });
      this.OPTION2(() => this.CONSUME2(T.Comma)); // trailing comma
    });
    this.CONSUME(T.RBrace);
    return this.ACTION(() => {
      this.checkDuplicateKeys(properties);
      return { type: 'Object', properties, ...pos(brace), hasCall: anyCall(properties) };
    });
  });

  property = this.RULE(
    'property',
    (): A.Property => {
      const key = this.OR([{ ALT: () => this.CONSUME(T.Identifier) }, { ALT: () => this.CONSUME(T.StringLiteral) }]);
      this.CONSUME(T.Colon);
      const value = this.SUBRULE(this.expression);
      return this.ACTION(() => ({
        type: 'Property',
        key: key.tokenType === T.StringLiteral ? stringValue(key) : key.image,
        value,
        ...pos(key),
        hasCall: value.hasCall,
      }));
    },
    { recoveryValueFunc: (): A.Property => ({ type: 'Property', key: '', value: placeholder(), line: 0, column: 0, hasCall: false }) },
  );

  callExpression = this.RULE('callExpression', (): A.CallExpression => {
    const keyword = this.CONSUME(T.Call);
    const names = [this.CONSUME(T.Identifier).image];
    this.MANY(() => {
      this.CONSUME(T.Dot);
      names.push(this.CONSUME2(T.Identifier).image);
    });
    const args = this.SUBRULE(this.objectLiteral);
    return this.ACTION(() => ({ type: 'Call', tool: names.join('.'), arguments: args, ...pos(keyword), hasCall: true }));
  });

  calcExpression = this.RULE('calcExpression', (): A.CalcExpression => {
    const keyword = this.CONSUME(T.Calc);
    const args = this.SUBRULE(this.objectLiteral);
    return this.ACTION(() => ({ type: 'Calc', arguments: args, ...pos(keyword), hasCall: args.hasCall }));
  });

  private checkDuplicateKeys(properties: A.Property[]): void {
    if (properties.length < 2) return;
    const seen = new Set<string>();
    for (const property of properties) {
      if (property.line === 0) continue; // a placeholder from error recovery
      if (seen.has(property.key)) {
        this.extraProblems.push({
          problem: { line: property.line, column: property.column, message: `duplicate key "${property.key}" in object literal: each key may appear once` },
        });
      }
      seen.add(property.key);
    }
  }
}

function anyCall(nodes: readonly A.NodeBase[]): boolean {
  for (const node of nodes) if (node.hasCall) return true;
  return false;
}

const parser = new NuwaParser();

export interface ParsedTokens {
  body: A.Statement[];
  problems: SyntaxProblem[];
}

/** A script this broken is not worth reporting further: the first errors are the useful ones. */
const MAX_PROBLEMS = 50;

/**
 * Parses a token stream into statements. When the grammar stops before the end (a stray `)` or
 * `END`), the leftover token is reported and parsing resumes after it, so later errors still show.
 */
export function parseTokens(tokens: IToken[]): ParsedTokens {
  const body: A.Statement[] = [];
  const problems: SyntaxProblem[] = [];
  let start = 0;
  while (start < tokens.length && problems.length < MAX_PROBLEMS) {
    parser.input = start === 0 ? tokens : tokens.slice(start);
    parser.extraProblems = [];
    body.push(...parser.script());
    for (const { problem, token } of parser.extraProblems) {
      const hint = token && hintNear(tokens, token);
      problems.push(hint ? { ...problem, message: `${problem.message}: ${hint}` } : problem);
    }
    let stoppedAt: IToken | undefined;
    for (const error of parser.errors) {
      if (error.name === 'NotAllInputParsedException') stoppedAt = error.token;
      else problems.push(problemOf(tokens, error.token, (error as { previousToken?: IToken }).previousToken, error.message));
    }
    if (!stoppedAt) break;
    problems.push(problemOf(tokens, stoppedAt, undefined, unexpectedTokenMessage(stoppedAt)));
    const index = indexOfToken(tokens, stoppedAt);
    start = index < 0 ? tokens.length : index + 1;
  }
  return { body, problems: problems.slice(0, MAX_PROBLEMS) };
}

function problemOf(tokens: IToken[], token: IToken, previous: IToken | undefined, message: string): SyntaxProblem {
  const hint = hintNear(tokens, token);
  const text = hint && !message.includes(hint) ? `${message}: ${hint}` : message;
  // At the end of the text Chevrotain reports the EOF token, which has no position: point just
  // after the last real token instead.
  if (token.tokenType === EOF || token.startLine === undefined || Number.isNaN(token.startLine)) {
    const last = previous && Number.isFinite(previous.startLine) ? previous : tokens[tokens.length - 1];
    return { line: last?.startLine ?? 1, column: last ? last.startColumn! + last.image.length : 1, message: text };
  }
  return { line: token.startLine, column: token.startColumn ?? 1, message: text };
}

function indexOfToken(tokens: IToken[], token: IToken): number {
  if (token.tokenType === EOF || Number.isNaN(token.startOffset)) return tokens.length;
  let low = 0;
  let high = tokens.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const offset = tokens[middle]!.startOffset;
    if (offset === token.startOffset) return middle;
    if (offset < token.startOffset) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Looks at the offending token and the two before it for a mistake we can name. */
function hintNear(tokens: IToken[], token: IToken): string | undefined {
  const index = indexOfToken(tokens, token);
  if (index < 0) return undefined;
  for (let i = index; i >= Math.max(0, index - 2); i--) {
    const candidate = tokens[i];
    if (candidate?.tokenType === T.Identifier) {
      const hint = nameHint(candidate.image);
      if (hint) return hint;
    }
  }
  return undefined;
}



/** Parses tokens as one expression (CALC formulas). Leftover tokens are a problem. */
export function parseExpressionTokens(tokens: IToken[]): { expression: A.Expression; problems: SyntaxProblem[] } {
  parser.input = tokens;
  parser.extraProblems = [];
  const expression = parser.expression();
  const problems = parser.extraProblems.map(({ problem }) => problem);
  for (const error of parser.errors) problems.push(problemOf(tokens, error.token, undefined, error.message));
  return { expression, problems };
}
