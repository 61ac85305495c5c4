// Tokens → AST, with Chevrotain. One parser instance, analysed once at module load and reused.
// Error recovery is on so that one parse reports every syntax error; the AST of a script with
// errors is thrown away, so recovery only has to keep the actions from crashing.
import { EmbeddedActionsParser, EOF, type IOrAlt, type IToken } from './chevrotain.js';
import type * as A from './ast.js';
import { buildExpression, type OperandParts } from './precedence.js';
import * as T from './tokens.js';
import { errorMessages, unexpectedTokenMessage } from './messages.js';
import { nameHint } from './hints.js';
import type { SyntaxProblem } from '../errors.js';

// Tokens inserted by error recovery have no position; the AST is discarded in that case anyway.
const lineOf = (token: IToken): number => token.startLine ?? 0;
const columnOf = (token: IToken): number => token.startColumn ?? 0;

const numberValue = (token: IToken): number => Number(token.image);
const trueValue = (): boolean => true;
const falseValue = (): boolean => false;
const nullValue = (): null => null;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The value of a string literal. Not JSON.parse: a raw tab is legal in a Nuwa string. */
function stringValue(token: IToken): string {
  if (token.isInsertedInRecovery || token.image.length < 2) return '';
  return token.image
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => (escape.length === 5 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : (ESCAPES[escape] ?? escape)));
}

const placeholder = (): A.Literal => ({ type: 'Literal', value: null, line: 0, column: 0, hasCall: false });

class NuwaParser extends EmbeddedActionsParser {
  /** Problems the grammar cannot express, found by the actions (duplicate keys, `=` as an operator). */
  extraProblems: Array<{ problem: SyntaxProblem; token?: IToken }> = [];
  private readonly reportProblem = (problem: SyntaxProblem, token: IToken) => void this.extraProblems.push({ problem, token });

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

  // Chevrotain calls OR with an array of alternatives; building that array (and its closures) on
  // every call was a third of the parse time in garbage collection. The alternatives below capture
  // no per-call state, so each array is built once, with the parser.
  private readonly statementAlternatives: Array<IOrAlt<A.Statement>> = [
    { ALT: () => this.SUBRULE(this.letStatement) },
    { ALT: () => this.SUBRULE(this.ifStatement) },
    { ALT: () => this.SUBRULE(this.forStatement) },
    {
      ALT: () => {
        const expression = this.SUBRULE(this.expression);
        return this.ACTION(
          (): A.ExpressionStatement => ({ type: 'ExpressionStatement', expression, line: expression.line, column: expression.column, hasCall: expression.hasCall }),
        );
      },
    },
  ];

  statement = this.RULE('statement', (): A.Statement => this.OR(this.statementAlternatives), {
    recoveryValueFunc: (): A.Statement => ({ type: 'ExpressionStatement', expression: placeholder(), line: 0, column: 0, hasCall: false }),
  });

  letStatement = this.RULE('letStatement', (): A.LetStatement => {
    const keyword = this.CONSUME(T.Let);
    const name = this.CONSUME(T.Identifier);
    this.CONSUME(T.Assign);
    const value = this.SUBRULE(this.expression);
    return this.ACTION(() => ({ type: 'Let', name: name.image, value, line: lineOf(keyword), column: columnOf(keyword), hasCall: value.hasCall }));
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
      line: lineOf(keyword), column: columnOf(keyword),
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
      line: lineOf(keyword), column: columnOf(keyword),
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
      return this.ACTION(() => (parts.length === 1 && parts[0]!.prefixes.length === 0 ? parts[0]!.operand : buildExpression(parts, operators, this.reportProblem)));
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
        const suffix = this.OR(this.postfixAlternatives);
        const object = operand;
        operand = this.ACTION(
          (): A.Expression =>
            suffix.index === undefined
              ? { type: 'Member', object, property: suffix.token.image, line: lineOf(suffix.token), column: columnOf(suffix.token), hasCall: object.hasCall }
              : { type: 'Index', object, index: suffix.index, line: lineOf(suffix.token), column: columnOf(suffix.token), hasCall: object.hasCall || suffix.index.hasCall },
        );
      });
      return { prefixes, operand };
    },
    { recoveryValueFunc: () => ({ prefixes: [], operand: placeholder() }) },
  );

  /** `.name` (token: the name) or `[index]` (token: the bracket). */
  private readonly postfixAlternatives: Array<IOrAlt<{ token: IToken; index?: A.Expression }>> = [
    {
      ALT: () => {
        this.CONSUME(T.Dot);
        return { token: this.CONSUME(T.Identifier) };
      },
    },
    {
      ALT: () => {
        const token = this.CONSUME(T.LBracket);
        const index = this.SUBRULE(this.expression);
        this.CONSUME(T.RBracket);
        return { token, index };
      },
    },
  ];

  private readonly primaryAlternatives: Array<IOrAlt<A.Expression>> = [
    { ALT: () => this.literal(this.CONSUME(T.NumberLiteral), numberValue) },
    { ALT: () => this.literal(this.CONSUME(T.StringLiteral), stringValue) },
    { ALT: () => this.literal(this.CONSUME(T.True), trueValue) },
    { ALT: () => this.literal(this.CONSUME(T.False), falseValue) },
    { ALT: () => this.literal(this.CONSUME(T.Null), nullValue) },
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
  ];

  primary = this.RULE('primary', (): A.Expression => this.OR(this.primaryAlternatives), { recoveryValueFunc: placeholder });

  private literal(token: IToken, value: (token: IToken) => A.Literal['value']): A.Literal {
    return this.ACTION(() => ({ type: 'Literal', value: value(token), line: lineOf(token), column: columnOf(token), hasCall: false }));
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
        ? { type: 'Variable', name: name.image, line: lineOf(name), column: columnOf(name), hasCall: false }
        : { type: 'FunctionCall', name: name.image, arguments: args, line: lineOf(name), column: columnOf(name), hasCall: anyCall(args) },
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
    return this.ACTION(() => ({ type: 'List', elements, line: lineOf(bracket), column: columnOf(bracket), hasCall: anyCall(elements) }));
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
      return { type: 'Object', properties, line: lineOf(brace), column: columnOf(brace), hasCall: anyCall(properties) };
    });
  });

  private readonly keyAlternatives: Array<IOrAlt<IToken>> = [{ ALT: () => this.CONSUME(T.Identifier) }, { ALT: () => this.CONSUME(T.StringLiteral) }];

  property = this.RULE(
    'property',
    (): A.Property => {
      const key = this.OR(this.keyAlternatives);
      this.CONSUME(T.Colon);
      const value = this.SUBRULE(this.expression);
      return this.ACTION(() => ({
        type: 'Property',
        key: key.tokenType === T.StringLiteral ? stringValue(key) : key.image,
        value,
        line: lineOf(key), column: columnOf(key),
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
    return this.ACTION(() => ({ type: 'Call', tool: names.join('.'), arguments: args, line: lineOf(keyword), column: columnOf(keyword), hasCall: true }));
  });

  calcExpression = this.RULE('calcExpression', (): A.CalcExpression => {
    const keyword = this.CONSUME(T.Calc);
    const args = this.SUBRULE(this.objectLiteral);
    return this.ACTION(() => ({ type: 'Calc', arguments: args, line: lineOf(keyword), column: columnOf(keyword), hasCall: args.hasCall }));
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

/** The grammar as Chevrotain serializes it: for the syntax diagrams and the EBNF check (`npm run grammar`). */
export function serializedGrammar(): ReturnType<NuwaParser['getSerializedGastProductions']> {
  return parser.getSerializedGastProductions();
}

/** True when more text could still complete `tokens` into a valid script (grammar only; for the REPL's continuation lines). */
export function canContinue(tokens: IToken[]): boolean {
  return parser.computeContentAssist('script', tokens).length > 0;
}
