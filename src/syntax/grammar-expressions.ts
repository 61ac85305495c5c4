// The expression half of the grammar (grammar.ts has the statements): operands, operators, calls,
// lists, comprehensions and objects, with the state every rule shares — the stacks the rules read
// onto, the problems the actions report — and the parser's options. Chevrotain builds a grammar from
// the rules of a class and its subclasses; the statements' class ends the analysis (grammar.ts).
import { EmbeddedActionsParser, type ILookaheadStrategy, type IOrAlt, type IToken } from './chevrotain.js';
import { CachedLookahead } from './lookahead.js';
import type * as A from './ast.js';
import { BINARY, buildExpression, OPERAND, PREFIX, type PieceKind } from './precedence.js';
import * as T from './tokens.js';
import { errorMessages } from './messages.js';
import { anyCall, type Clause, columnOf, isStandInToken, comprehensionNode, emptyObject, falseValue, lineOf, nullValue, numberValue, placeholder, standIn, stringValue, trueValue } from './nodes.js';
import { expressionName } from './hints.js';
import type { LetPathPart } from './paths.js';
import { printExpression } from './print.js';
import { BUILTINS_BY_NAME, unknownFunctionMessage } from './functions.js';
import { pending, repairFunction, repairMethod } from './methods.js';
import type { SyntaxProblem } from '../errors.js';
import { repaired } from './problems.js';

export const MAX_REPETITION_RECOVERIES = 50;
export const MAX_LOOKAHEAD = 2;

/** A token that stands for an already parsed piece of a deep script (stage.ts). */
export interface PrebuiltToken<P> extends IToken {
  payload: P;
  /** The last token of the text it stands for: "after the last token" means after this one. */
  last: IToken;
}

/** `xs.push(x)` repaired to APPEND(xs, x): the variable a statement of it sets (methods.ts `changes`). */
export const changes = new WeakMap<A.Expression, string>();
/** `d.items()` repaired to KEYS(d): the object, and the problem reported, for FOR k, v IN d.items(). */
export const itemsOf = new WeakMap<A.Expression, { object: A.Expression; problem: SyntaxProblem | undefined }>();

/** The name an expression is written as, for messages: `items`, `order.total`; else `fallback`. */
export const nameOf = (node: A.Expression, fallback: string): string => expressionName(node, fallback);


export abstract class ExpressionGrammar extends EmbeddedActionsParser {
  /** Problems the grammar cannot express, found by the actions (duplicate keys, `=` as an operator...). */
  extraProblems: Array<{ problem: SyntaxProblem; token?: IToken }> = [];
  /**
   * Certain run-time mistakes that are valid syntax (`print(x)`: there is no such function). They
   * are reported with the syntax errors when there are some, so one retry fixes everything; a script
   * without syntax errors runs and meets them as run-time errors.
   */
  notes: SyntaxProblem[] = [];
  /**
   * What noted calls mean (`sum(xs)` is SUM(xs)): applied to the tree only when the script has syntax
   * errors (parse.ts), for the checker; a script without runs as written and fails at `sum`.
   */
  noteRepairs: Array<[A.FunctionCall, A.Expression]> = [];
  /** List comprehensions built since the parse began (the evaluator skips looking for them when none). */
  comprehensions = 0;
  protected readonly reportProblem = (problem: SyntaxProblem, token: IToken) => void this.extraProblems.push({ problem, token });
  /** Reports a problem at `token`; `fixed` when the tree built there is what the author meant (problems.ts). */
  protected report(token: IToken, message: string, fixed = false): SyntaxProblem | undefined {
    if (token.isInsertedInRecovery || token.startLine === undefined || Number.isNaN(token.startLine)) return undefined;
    const problem = { line: token.startLine, column: token.startColumn!, message };
    this.extraProblems.push({ problem: fixed ? repaired(problem) : problem });
    return problem;
  }

  /** Takes back a problem `report` made, when a later one covers the same mistake (FOR k, v IN d.items()). */
  protected retract(problem: SyntaxProblem | undefined): void {
    if (problem === undefined) return;
    const at = this.extraProblems.findIndex((entry) => entry.problem === problem || (entry.problem.line === problem.line && entry.problem.column === problem.column && entry.problem.message === problem.message));
    if (at >= 0) this.extraProblems.splice(at, 1);
  }

  /** In-repetition recoveries left in this parse (see the constructor). */
  repetitionRecoveries = MAX_REPETITION_RECOVERIES;

  /**
   * Chevrotain's validations of the grammar (ambiguities, left recursion...) take a third of the
   * parser's start-up, on every start of `nuwa run`; the grammar is fixed, so the one parser skips
   * them, and test/unit/syntax/definitions.test.ts builds one with them. Its decisions come from the
   * cached analysis of lookahead.ts; tests pass Chevrotain's own analysis (`lookahead`) to compare.
   */
  constructor({ skipValidations = true, lookahead }: { skipValidations?: boolean; lookahead?: ILookaheadStrategy } = {}) {
    super(T.parserTokens, {
      recoveryEnabled: true,
      maxLookahead: MAX_LOOKAHEAD,
      errorMessageProvider: errorMessages,
      skipValidations,
      lookaheadStrategy: lookahead ?? new CachedLookahead({ maxLookahead: MAX_LOOKAHEAD }),
    });
    // When a token cannot continue a repetition (a stray `)` among statements), Chevrotain skips ahead
    // and resumes the repetition by calling itself again, and works out the follow set anew each
    // time: text with thousands of stray tokens took minutes and then overflowed the stack. After a
    // few such recoveries, let the repetition end instead; parser.ts reports the leftover token and
    // resumes after it, a bounded number of times.
    const engine = this as unknown as { attemptInRepetitionRecovery: (...args: unknown[]) => void };
    const recover = engine.attemptInRepetitionRecovery;
    engine.attemptInRepetitionRecovery = (...args: unknown[]) => {
      if (this.repetitionRecoveries <= 0) return;
      this.repetitionRecoveries--;
      recover.apply(this, args);
    };
  }

  // What the rules below are reading, on stacks shared by all of them instead of arrays, records and
  // closures made for every expression, list and block (the garbage of a megabyte parse): a rule
  // notes where its part of a stack starts, and takes that part when it ends. Whatever error
  // recovery leaves behind lies above a finished rule's start and is dropped with it; the tree of a
  // script with errors is discarded anyway.
  /** The expressions being read, as flat sequences of operands and operator tokens (precedence.ts). */
  protected readonly pieces: Array<A.Expression | IToken> = [];
  protected readonly kinds: PieceKind[] = [];
  /** Elements of the lists and arguments of the calls being read. */
  protected readonly items: A.Expression[] = [];
  protected readonly fields: A.Property[] = [];
  protected readonly statements: A.Statement[] = [];
  protected readonly elseIfLinks: Array<{ keyword: IToken; condition: A.Expression; body: A.Statement[] }> = [];
  /** The `.name` and `[index]` parts after LET's name (a stack: an index may hold a comprehension), and the dotted name of a CALL. */
  protected readonly letTarget: LetPathPart[] = [];
  protected toolName = '';

  override reset(): void {
    super.reset();
    // Chevrotain resets while it is being built too, before these fields exist.
    if (this.pieces === undefined) return;
    for (const stack of [this.pieces, this.kinds, this.items, this.fields, this.statements, this.elseIfLinks, this.letTarget]) stack.length = 0;
  }

  protected take<E>(stack: E[], start: number): E[] {
    const taken = stack.slice(start);
    drop(stack, start);
    return taken;
  }


  protected push(piece: A.Expression | IToken, kind: PieceKind): void {
    this.pieces.push(piece);
    this.kinds.push(kind);
  }

  protected readonly binaryTail = (): void => {
    this.push(this.CONSUME(T.BinaryOperator), BINARY);
    this.SUBRULE2(this.operand);
  };

  expression = this.RULE(
    'expression',
    (): A.Expression => {
      const start = this.pieces.length;
      this.SUBRULE(this.operand);
      this.MANY(this.binaryTail);
      if (this.RECORDING_PHASE) return placeholder();
      const { pieces, kinds } = this;
      const result = pieces.length === start + 1 && kinds[start] === OPERAND ? (pieces[start] as A.Expression) : buildExpression(pieces, kinds, start, this.reportProblem);
      drop(pieces, start);
      drop(kinds, start);
      return result ?? placeholder(); // a sequence error recovery left incomplete
    },
    { recoveryValueFunc: placeholder },
  );

  protected readonly prefixOperator = (): void => this.push(this.CONSUME(T.PrefixOperator), PREFIX);
  protected readonly postfix = (): void => this.OR(this.postfixAlternatives);

  /** Pushes its prefix operators and its operand, with the suffixes applied, onto `pieces`. */
  operand = this.RULE(
    'operand',
    (): void => {
      this.MANY(this.prefixOperator);
      this.push(this.SUBRULE(this.primary), OPERAND);
      this.MANY2(this.postfix);
    },
    { recoveryValueFunc: () => undefined },
  );

  /** The operand at `at` of `pieces`: the one a suffix extends (the top of the stack when the suffix began). */
  protected operandAt(at: number): A.Expression {
    return this.kinds[at] === OPERAND ? (this.pieces[at] as A.Expression) : placeholder();
  }

  /** Puts the extended operand back at `at`, dropping what error recovery may have left above it. */
  protected replaceOperand(at: number, operand: A.Expression): void {
    if (at < 0) return;
    this.pieces[at] = operand;
    this.kinds[at] = OPERAND;
    drop(this.pieces, at + 1);
    drop(this.kinds, at + 1);
  }

  protected readonly argumentsOption = (): A.Expression[] => this.SUBRULE(this.argumentList);

  /** `.name`, `.name(...)` (a method call: a problem), or `[index]`, applied to the operand on top of `pieces`. */
  protected readonly postfixAlternatives: Array<IOrAlt<void>> = [
    {
      ALT: () => {
        const at = this.pieces.length - 1;
        this.CONSUME(T.Dot);
        const name = this.CONSUME(T.Identifier);
        const args = this.OPTION(this.argumentsOption);
        if (this.RECORDING_PHASE) return;
        const object = this.operandAt(at);
        if (args === undefined) {
          this.replaceOperand(at, { type: 'Member', object, property: name.image, line: lineOf(name), column: columnOf(name), hasCall: object.hasCall });
          return;
        }
        // `s.lower()`: read as the built-in it means (methods.ts), or a stand-in where Nuwa has none.
        const repair = repairMethod(object, name.image, args, { line: lineOf(name), column: columnOf(name) });
        const problem = this.report(name, repair.message, true);
        if (repair.changes !== undefined) changes.set(repair.node, repair.changes);
        if (repair.itemsOf !== undefined) itemsOf.set(repair.node, { object: repair.itemsOf, problem });
        this.replaceOperand(at, repair.node);
      },
    },
    {
      ALT: () => {
        const at = this.pieces.length - 1;
        const bracket = this.CONSUME(T.LBracket);
        const index = this.SUBRULE(this.expression);
        this.CONSUME(T.RBracket);
        if (this.RECORDING_PHASE) return;
        const object = this.operandAt(at);
        this.replaceOperand(at, { type: 'Index', object, index, line: lineOf(bracket), column: columnOf(bracket), hasCall: object.hasCall || index.hasCall });
      },
    },
  ];

  protected readonly primaryAlternatives: Array<IOrAlt<A.Expression>> = [
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
    {
      ALT: () => {
        const prebuilt = this.CONSUME(T.PrebuiltExpression) as PrebuiltToken<A.Expression>;
        return this.RECORDING_PHASE ? placeholder() : prebuilt.payload;
      },
    },
  ];

  primary = this.RULE('primary', (): A.Expression => this.OR(this.primaryAlternatives), { recoveryValueFunc: placeholder });

  protected literal(token: IToken, value: (token: IToken) => A.Literal['value']): A.Literal {
    if (this.RECORDING_PHASE || isStandInToken(token)) return placeholder();
    return { type: 'Literal', value: value(token), line: lineOf(token), column: columnOf(token), hasCall: false };
  }

  protected readonly pushArgument = { SEP: T.Comma, DEF: (): void => void this.items.push(this.SUBRULE(this.expression)) };

  /** `( a, b, ... )` */
  argumentList = this.RULE('argumentList', (): A.Expression[] => {
    const start = this.items.length;
    this.CONSUME(T.LParen);
    this.MANY_SEP(this.pushArgument);
    this.CONSUME(T.RParen);
    return this.take(this.items, start);
  }, { recoveryValueFunc: () => [] });

  nameOrFunctionCall = this.RULE('nameOrFunctionCall', (): A.Expression => {
    const name = this.CONSUME(T.Identifier);
    const args = this.OPTION(this.argumentsOption);
    if (this.RECORDING_PHASE) return placeholder() as never;
    if (args === undefined) return { type: 'Variable', name: name.image, line: lineOf(name), column: columnOf(name), hasCall: false };
    const call: A.FunctionCall = { type: 'FunctionCall', name: name.image, arguments: args, line: lineOf(name), column: columnOf(name), hasCall: anyCall(args) };
    // Every built-in is uppercase: a call of any other name cannot succeed. It is noted (with the
    // syntax errors, if there are any), and read as what it means where that is known: sum(xs) is SUM(xs).
    if (name.image === name.image.toUpperCase() || name.isInsertedInRecovery) return call;
    const repair = repairFunction(name.image, args, BUILTINS_BY_NAME, call);
    const defined = pending.definitions.get(name.image);
    const hint = defined === undefined ? repair?.hint : `the definition on line ${defined} is not one (there are no functions of your own): write what it computes here instead`;
    this.notes.push(repaired({ line: call.line, column: call.column, message: unknownFunctionMessage(name.image, undefined, hint) }));
    if (repair !== undefined) this.noteRepairs.push([call, repair.node]);
    return call;
  }, { recoveryValueFunc: standIn<A.Variable>(placeholder) });

  protected readonly trailingComma = (): void => void this.CONSUME2(T.Comma); // allowed after the last element
  protected readonly nextElement = (): void => {
    this.CONSUME(T.Comma);
    this.items.push(this.SUBRULE2(this.expression));
  };
  /** `ELSE value` in a comprehension; yields the value's first token, where the mistake is reported. */
  protected readonly misplacedElse = (): IToken => {
    this.CONSUME(T.Else);
    const value = this.LA(1);
    this.SUBRULE3(this.expression);
    return value;
  };

  /** After a list's first element: a comprehension's clause, or the other elements. */
  protected readonly listRestAlternatives: Array<IOrAlt<Clause | undefined>> = [
    { ALT: () => this.SUBRULE(this.comprehensionClause) },
    {
      // Python's `[x if c for x in xs]` and `[a if c else b for x in xs]`: an IF before the FOR (reported).
      ALT: () => {
        this.CONSUME(T.ComprehensionIf);
        // Reported at the condition or the value after ELSE, not at IF or ELSE, whose spelling may be reported already.
        const condition = this.LA(1);
        this.SUBRULE4(this.expression);
        const otherwise = this.OPTION3(this.misplacedElse);
        const clause = this.SUBRULE2(this.comprehensionClause);
        if (!this.RECORDING_PHASE) {
          if (otherwise !== undefined) {
            this.report(otherwise, 'there is no IF ... ELSE inside an expression: build the list with a FOR loop (IF ... ELSE ... END inside, and APPEND), or keep some items with [x FOR x IN list IF condition]');
          } else {
            this.report(condition, 'the IF of a list comprehension comes after its list: [expression FOR x IN list IF condition]');
          }
        }
        return clause;
      },
    },
    {
      ALT: () => {
        this.MANY(this.nextElement);
        this.OPTION2(this.trailingComma);
        return undefined;
      },
    },
  ];
  protected readonly elements = (): Clause | undefined => {
    this.items.push(this.SUBRULE(this.expression));
    return this.OR(this.listRestAlternatives);
  };

  listLiteral = this.RULE('listLiteral', (): A.ListExpression | A.ComprehensionExpression => {
    const bracket = this.CONSUME(T.LBracket);
    const start = this.items.length;
    const clause = this.OPTION(this.elements);
    this.CONSUME(T.RBracket);
    const elements = this.take(this.items, start);
    if (this.RECORDING_PHASE) return placeholder() as never;
    if (clause !== undefined) {
      this.comprehensions++;
      return comprehensionNode(bracket, elements[0] ?? placeholder(), clause);
    }
    return { type: 'List', elements, line: lineOf(bracket), column: columnOf(bracket), hasCall: anyCall(elements) };
  }, { recoveryValueFunc: standIn<A.ListExpression>(placeholder) });

  protected readonly comprehensionCondition = (): A.Expression => {
    this.CONSUME(T.ComprehensionIf);
    return this.SUBRULE2(this.expression);
  };

  /** A second FOR or IF in one comprehension, as Python nests them (reported). */
  protected readonly extraClauseAlternatives: Array<IOrAlt<void>> = [
    {
      ALT: () => {
        const keyword = this.CONSUME2(T.ComprehensionFor);
        this.CONSUME2(T.Identifier);
        this.CONSUME2(T.In);
        this.SUBRULE3(this.expression);
        if (!this.RECORDING_PHASE) this.report(keyword, 'a list comprehension has one FOR: nest them, [[expression FOR y IN ys] FOR x IN xs] (a list of lists), or build the list with FOR loops and APPEND');
      },
    },
    {
      ALT: () => {
        const keyword = this.CONSUME2(T.ComprehensionIf);
        this.SUBRULE4(this.expression);
        if (!this.RECORDING_PHASE) this.report(keyword, 'a list comprehension has one IF: join the conditions with AND');
      },
    },
  ];
  protected readonly extraClause = (): void => this.OR(this.extraClauseAlternatives);

  /** `FOR x IN list` and `IF condition` after a comprehension's element. */
  comprehensionClause = this.RULE('comprehensionClause', (): Clause => {
    this.CONSUME(T.ComprehensionFor);
    const variable = this.CONSUME(T.Identifier);
    this.CONSUME(T.In);
    const iterable = this.SUBRULE(this.expression);
    const condition = this.OPTION(this.comprehensionCondition) ?? null;
    this.MANY(this.extraClause);
    return { variable: variable.image, iterable, condition };
  }, { recoveryValueFunc: (): Clause => ({ variable: '', iterable: placeholder(), condition: null }) });

  objectLiteral = this.RULE('objectLiteral', (): A.ObjectExpression => {
    const brace = this.CONSUME(T.LBrace);
    const properties = this.SUBRULE(this.properties);
    this.CONSUME(T.RBrace);
    if (this.RECORDING_PHASE) return emptyObject();
    this.checkDuplicateKeys(properties);
    return { type: 'Object', properties, line: lineOf(brace), column: columnOf(brace), hasCall: anyCall(properties) };
  }, { recoveryValueFunc: emptyObject });

  protected readonly nextProperty = (): void => {
    this.CONSUME(T.Comma);
    this.fields.push(this.SUBRULE2(this.property));
  };
  protected readonly propertyList = (): void => {
    this.fields.push(this.SUBRULE(this.property));
    this.MANY(this.nextProperty);
    this.OPTION2(this.trailingComma);
  };

  /** `key: value, ...` with an optional trailing comma. */
  properties = this.RULE('properties', (): A.Property[] => {
    const start = this.fields.length;
    this.OPTION(this.propertyList);
    return this.take(this.fields, start);
  }, { recoveryValueFunc: () => [] });

  protected readonly keyAlternatives: Array<IOrAlt<IToken>> = [{ ALT: () => this.CONSUME(T.Identifier) }, { ALT: () => this.CONSUME(T.StringLiteral) }];

  property = this.RULE(
    'property',
    (): A.Property => {
      const key = this.OR(this.keyAlternatives);
      const separator = this.CONSUME(T.KeySeparator);
      const value = this.SUBRULE(this.expression);
      if (this.RECORDING_PHASE) return undefined as never;
      if (separator.tokenType === T.Assign) this.report(separator, `object keys are followed by \`:\`: write ${key.image}: ...`, true);
      return {
        type: 'Property',
        key: key.tokenType === T.StringLiteral ? stringValue(key) : key.image,
        value,
        line: lineOf(key), column: columnOf(key),
        hasCall: value.hasCall,
      };
    },
    { recoveryValueFunc: (): A.Property => ({ type: 'Property', key: '', value: placeholder(), line: 0, column: 0, hasCall: false }) },
  );

  protected readonly toolNamePart = (): void => {
    this.CONSUME(T.Dot);
    this.toolName += `.${this.CONSUME2(T.Identifier).image}`;
  };

  /**
   * A CALL's arguments: an object literal, or (reported) parentheses, which yield their `(` token and
   * what they held: `name: value` (or `name = value`) pairs, or a bare value (null, no name).
   */
  protected readonly callArgumentAlternatives: Array<IOrAlt<A.ObjectExpression | ParenArguments>> = [
    { ALT: () => this.SUBRULE(this.objectLiteral) },
    {
      // CALL t(city: "Oslo"): parentheses instead of braces.
      ALT: () => {
        const paren = this.CONSUME(T.LParen);
        const held: ParenArguments['held'] = [];
        this.MANY_SEP({
          SEP: T.Comma,
          DEF: () =>
            this.OR2([
              {
                // `name: value` or `name = value`; tried first, so `x = 1` here is a keyword argument
                IGNORE_AMBIGUITIES: true,
                ALT: () => {
                  const name = this.CONSUME3(T.Identifier);
                  this.CONSUME(T.KeySeparator);
                  const value = this.SUBRULE(this.expression);
                  held.push({ name, value });
                },
              },
              { ALT: () => void held.push({ name: null, value: this.SUBRULE2(this.expression) }) },
            ]),
        });
        this.CONSUME(T.RParen);
        return { paren, held };
      },
    },
  ];

  callExpression = this.RULE('callExpression', (): A.CallExpression => {
    const keyword = this.CONSUME(T.Call);
    this.toolName = this.CONSUME(T.Identifier).image;
    this.MANY(this.toolNamePart);
    const tool = this.toolName;
    const args = this.OR(this.callArgumentAlternatives);
    if (this.RECORDING_PHASE) return placeholder() as never;
    let object: A.ObjectExpression;
    if ('paren' in args) {
      // Named arguments in parentheses are the object they would be in braces: the call is repaired.
      const named = args.held.every((argument) => argument.name !== null);
      const properties = named
        ? args.held.map(({ name, value }): A.Property => ({ type: 'Property', key: name!.image, value, line: lineOf(name!), column: columnOf(name!), hasCall: value.hasCall }))
        : [];
      object = { type: 'Object', properties, line: lineOf(args.paren), column: columnOf(args.paren), hasCall: properties.some((p) => p.hasCall) };
      const call: A.CallExpression = { type: 'Call', tool, arguments: object, line: lineOf(keyword), column: columnOf(keyword), hasCall: true };
      const shown = named && args.held.length > 0 ? printExpression(call, 160) : undefined;
      const message = `CALL takes its arguments in braces: write ${shown ?? `CALL ${tool} { name: value, ... }`}`;
      this.report(args.paren, message, named);
      return call;
    }
    object = args;
    return { type: 'Call', tool, arguments: object, line: lineOf(keyword), column: columnOf(keyword), hasCall: true };
  }, { recoveryValueFunc: standIn<A.CallExpression>(placeholder) });

  calcExpression = this.RULE('calcExpression', (): A.CalcExpression => {
    const keyword = this.CONSUME(T.Calc);
    const args = this.SUBRULE(this.objectLiteral);
    if (this.RECORDING_PHASE) return placeholder() as never;
    return { type: 'Calc', arguments: args, line: lineOf(keyword), column: columnOf(keyword), hasCall: args.hasCall };
  }, { recoveryValueFunc: standIn<A.CalcExpression>(placeholder) });

  protected checkDuplicateKeys(properties: A.Property[]): void {
    if (properties.length < 2) return;
    const seen = new Set<string>();
    for (const property of properties) {
      if (property.line === 0) continue; // a placeholder from error recovery
      if (seen.has(property.key)) {
        this.extraProblems.push({
          problem: repaired({ line: property.line, column: property.column, message: `duplicate key "${property.key}" in object literal: each key may appear once` }),
        });
      }
      seen.add(property.key);
    }
  }
}


/** What a CALL's parentheses held (a mistake for braces): each argument, with its name if it had one. */
export interface ParenArguments {
  paren: IToken;
  held: Array<{ name: IToken | null; value: A.Expression }>;
}

/** Shortens `stack` to `length` (pop is inlined where setting `length` is a call into the runtime). */
export function drop(stack: unknown[], length: number): void {
  while (stack.length > length) stack.pop();
}
