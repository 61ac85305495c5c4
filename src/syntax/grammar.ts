// The grammar: tokens → AST, with Chevrotain. This file has the statements, grammar-expressions.ts
// the expressions and the state the rules share. One parser instance, built when first used and
// reused (parser.ts drives it). Error recovery is on so that one parse reports every syntax error;
// the AST of a script with errors is thrown away, so recovery only has to keep the actions from
// crashing.
//
// Besides LANGUAGE.md §3–4 the grammar accepts the shapes of a few other languages' constructs
// (ELSEIF chains, WHILE, RETURN, `FOR k, v IN`, `x.f()`, `CALL t(...)`, `{ k = v }`, `:` for THEN) so
// that each yields one precise problem and the rest of the script is still checked.
import type { IOrAlt, IToken } from './chevrotain.js';
import type * as A from './ast.js';
import * as T from './tokens.js';
import { anyCall, columnOf, ifNode, lineOf, placeholderStatement, standIn } from './nodes.js';
import { readPath, setPath, type LetPathPart } from './paths.js';
import { printExpression } from './print.js';
import { enumerated } from './methods.js';
import { changes, itemsOf, nameOf, type PrebuiltToken } from './grammar-expressions.js';
import { ExpressionGrammar } from './grammar-expressions.js';

export { MAX_LOOKAHEAD, MAX_REPETITION_RECOVERIES, type PrebuiltToken } from './grammar-expressions.js';

/** The whole grammar: the statements, on the expressions of ExpressionGrammar (grammar-expressions.ts). */
export class NuwaParser extends ExpressionGrammar {
  constructor(options: ConstructorParameters<typeof ExpressionGrammar>[0] = {}) {
    super(options);
    // After the rules of both classes exist: Chevrotain records and analyses them all at once.
    this.performSelfAnalysis();
  }

  private readonly pushStatement = (): void => void this.statements.push(this.SUBRULE(this.statement));

  script = this.RULE('script', (): A.Statement[] => {
    const start = this.statements.length;
    this.MANY(this.pushStatement);
    return this.take(this.statements, start);
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
        if (this.RECORDING_PHASE) return placeholderStatement();
        // `xs.push(x)` on its own means LET xs = APPEND(xs, x) (methods.ts).
        const changed = changes.get(expression);
        if (changed !== undefined) return { type: 'Let', name: changed, value: expression, line: expression.line, column: expression.column, hasCall: expression.hasCall };
        return { type: 'ExpressionStatement', expression, line: expression.line, column: expression.column, hasCall: expression.hasCall };
      },
    },
    { ALT: () => this.SUBRULE(this.whileStatement) },
    { ALT: () => this.SUBRULE(this.jumpStatement) },
  ];

  statement = this.RULE('statement', (): A.Statement => this.OR(this.statementAlternatives), { recoveryValueFunc: placeholderStatement });

  /** `.name` or `[index]` after LET's name. */
  private readonly letPathAlternatives: Array<IOrAlt<LetPathPart>> = [
    {
      ALT: () => {
        const dot = this.CONSUME(T.Dot);
        const name = this.CONSUME2(T.Identifier);
        return { token: dot, key: name.image };
      },
    },
    {
      ALT: () => {
        const bracket = this.CONSUME(T.LBracket);
        const index = this.SUBRULE2(this.expression);
        this.CONSUME(T.RBracket);
        return { token: bracket, index };
      },
    },
  ];

  private readonly letPath = (): void => {
    this.letTarget.push(this.OR(this.letPathAlternatives));
  };

  letStatement = this.RULE('letStatement', (): A.LetStatement => {
    const keyword = this.CONSUME(T.Let);
    const name = this.CONSUME(T.Identifier);
    // `LET item.price = 2`: a LET sets a whole variable.
    const start = this.letTarget.length;
    this.MANY(this.letPath);
    const assign = this.CONSUME(T.AnyAssign); // `+=` and friends are reported by the lexer
    let value = this.SUBRULE(this.expression);
    const path = this.take(this.letTarget, start);
    if (this.RECORDING_PHASE) return placeholderStatement() as never;
    const target: A.Variable = { type: 'Variable', name: name.image, line: lineOf(name), column: columnOf(name), hasCall: false };
    if (assign.tokenType === T.CompoundAssign) {
      // LET total += x means LET total = total + x; on a path, GET reads a count that may not be there yet.
      const operator = assign.image[0] as A.ArithmeticOperator;
      const current = path.length === 0 ? target : readPath(target, path, operator === '+' || operator === '-');
      value = { type: 'Binary', operator, left: current, right: value, line: lineOf(assign), column: columnOf(assign), hasCall: current.hasCall || value.hasCall };
    }
    if (path.length > 0) {
      const set = setPath(target, path, value);
      const text = set && printExpression(set);
      if (set !== undefined && text !== undefined) {
        this.report(path[0]!.token, `LET sets a whole variable: objects cannot be changed in place; write LET ${name.image} = ${text}`, true);
        value = set;
      } else {
        this.report(path[0]!.token, `LET sets a whole variable: lists and objects cannot be changed in place, so build a new one (LET ${name.image} = SET(${name.image}, key, value) for an object; a new list with [... FOR x IN list] or APPEND)`);
      }
    }
    return { type: 'Let', name: name.image, value, line: lineOf(keyword), column: columnOf(keyword), hasCall: value.hasCall };
  }, { recoveryValueFunc: standIn<A.LetStatement>(placeholderStatement) });

  /** THEN, or `:` as Python writes it (reported). */
  private reportThen(token: IToken, keyword: string): void {
    if (token.tokenType === T.Colon) this.report(token, `write THEN after the ${keyword} condition, not \`:\``, true);
  }

  private readonly elseIfLink = (): void => {
    const keyword = this.CONSUME(T.ElseIf);
    const condition = this.SUBRULE2(this.expression);
    this.CONSUME2(T.ThenWord);
    this.elseIfLinks.push({ keyword, condition, body: this.SUBRULE2(this.block) });
  };

  private readonly elseColon = (): void => {
    const colon = this.CONSUME3(T.Colon);
    if (!this.RECORDING_PHASE) this.report(colon, 'write ELSE alone, without `:`', true);
  };

  private readonly elseBranch = (): A.Statement[] => {
    this.CONSUME(T.Else);
    this.OPTION2(this.elseColon);
    return this.SUBRULE3(this.block);
  };

  ifStatement = this.RULE('ifStatement', (): A.IfStatement => {
    const keyword = this.CONSUME(T.If);
    const condition = this.SUBRULE(this.expression);
    const then = this.CONSUME(T.ThenWord);
    const consequent = this.SUBRULE(this.block);
    // ELSEIF/ELIF chains (reported by the mistakes pass) share the one END, as their authors meant.
    const chainStart = this.elseIfLinks.length;
    this.MANY(this.elseIfLink);
    let alternate: A.Statement[] | null = this.OPTION(this.elseBranch) ?? null;
    this.CONSUME(T.End);
    if (this.RECORDING_PHASE) return placeholderStatement() as never;
    this.reportThen(then, 'IF');
    if (this.elseIfLinks.length > chainStart) {
      const chain = this.take(this.elseIfLinks, chainStart);
      for (let i = chain.length - 1; i >= 0; i--) {
        const link = chain[i]!;
        alternate = [ifNode(link.keyword, link.condition, link.body, alternate)];
      }
    }
    return ifNode(keyword, condition, consequent, alternate);
  }, { recoveryValueFunc: standIn<A.IfStatement>(placeholderStatement) });

  private readonly secondLoopVariable = (): IToken => {
    this.CONSUME(T.Comma);
    return this.CONSUME2(T.Identifier);
  };

  forStatement = this.RULE('forStatement', (): A.ForStatement => {
    const keyword = this.CONSUME(T.For);
    const variable = this.CONSUME(T.Identifier);
    const second = this.OPTION(this.secondLoopVariable);
    this.CONSUME(T.In);
    let iterable = this.SUBRULE(this.expression);
    const doWord = this.CONSUME(T.DoWord);
    let body = this.SUBRULE(this.block);
    this.CONSUME(T.End);
    if (this.RECORDING_PHASE) return placeholderStatement() as never;
    if (doWord.tokenType === T.Colon) this.report(doWord, 'write DO after FOR x IN list, not `:`', true);
    if (doWord.tokenType === T.Then) this.report(doWord, 'a FOR loop is FOR x IN list DO ... END: write DO, not THEN', true);
    if (second) {
      const pair = this.pairLoop(variable, second, iterable);
      if (pair !== undefined) [iterable, body] = [pair.iterable, [pair.first, ...body]];
    }
    return {
      type: 'For',
      variable: variable.image,
      iterable,
      body,
      line: lineOf(keyword), column: columnOf(keyword),
      hasCall: iterable.hasCall || anyCall(body),
    };
  }, { recoveryValueFunc: standIn<A.ForStatement>(placeholderStatement) });

  /**
   * `FOR k, v IN d.items()` (or `IN d`), `FOR i, x IN enumerate(xs)`: one loop variable, and the
   * second read as the body's first statement. Reported once, for the whole header; undefined when
   * there is no such reading (the problem is then reported as not repaired).
   */
  private pairLoop(variable: IToken, second: IToken, iterable: A.Expression): { iterable: A.Expression; first: A.LetStatement } | undefined {
    const [k, v] = [variable.image, second.image];
    const position = { line: lineOf(second), column: columnOf(second) };
    const node = <T extends A.Expression>(n: Omit<T, 'line' | 'column'>) => ({ ...n, ...position }) as T;
    const name = (n: string) => node<A.Variable>({ type: 'Variable', name: n, hasCall: false });
    const fn = (n: string, args: A.Expression[]) => node<A.FunctionCall>({ type: 'FunctionCall', name: n, arguments: args, hasCall: args.some((a) => a.hasCall) });
    const let_ = (value: A.Expression): A.LetStatement => ({ type: 'Let', name: v, value, ...position, hasCall: value.hasCall });
    const items = itemsOf.get(iterable);
    const list = enumerated(iterable);
    let repair: { iterable: A.Expression; first: A.LetStatement } | undefined;
    if (list !== undefined) {
      // The note for the unknown `enumerate` is this mistake too.
      this.notes = this.notes.filter((note) => !(note.line === iterable.line && note.column === iterable.column));
      repair = { iterable: fn('RANGE', [fn('LEN', [list])]), first: let_(node<A.IndexExpression>({ type: 'Index', object: list, index: name(k), hasCall: list.hasCall })) };
    } else {
      const object = items?.object ?? (iterable.type === 'Variable' || iterable.type === 'Member' ? iterable : undefined);
      if (object !== undefined) {
        this.retract(items?.problem);
        repair = { iterable: fn('KEYS', [object]), first: let_(node<A.IndexExpression>({ type: 'Index', object, index: name(k), hasCall: object.hasCall })) };
      }
    }
    const header = repair && printExpression(repair.iterable);
    const first = repair && printExpression(repair.first.value);
    if (repair === undefined || header === undefined || first === undefined) {
      const object = nameOf(iterable, 'obj');
      this.report(second, `FOR takes one loop variable: to go over an object write FOR ${k} IN KEYS(${object}) DO, and LET ${v} = ${object}[${k}] as the first line of the loop`);
      return undefined;
    }
    this.report(second, `FOR takes one loop variable: write FOR ${k} IN ${header} DO, and LET ${v} = ${first} as the first line of the loop`, true);
    return repair;
  }

  private readonly optionalDo = (): void => void this.CONSUME(T.DoWord);

  /** WHILE cond DO ... END (reported by the mistakes pass); parsed so its body is still checked. */
  whileStatement = this.RULE('whileStatement', (): A.Statement => {
    this.CONSUME(T.While);
    this.SUBRULE(this.expression);
    this.OPTION(this.optionalDo);
    this.SUBRULE(this.block);
    this.CONSUME(T.End);
    return placeholderStatement();
  }, { recoveryValueFunc: placeholderStatement });

  /** BREAK, CONTINUE, RETURN [value] (reported by the mistakes pass). */
  jumpStatement = this.RULE('jumpStatement', (): A.Statement => {
    const jump = this.CONSUME(T.Jump);
    this.OPTION({ GATE: () => this.LA(1).startLine === jump.startLine, DEF: () => this.SUBRULE(this.expression) });
    return placeholderStatement();
  }, { recoveryValueFunc: placeholderStatement });

  private readonly prebuiltBlock = (): PrebuiltToken<A.Statement[]> => this.CONSUME(T.PrebuiltBlock) as PrebuiltToken<A.Statement[]>;

  block = this.RULE('block', (): A.Statement[] => {
    const start = this.statements.length;
    const prebuilt = this.OPTION(this.prebuiltBlock);
    this.MANY(this.pushStatement);
    const body = this.take(this.statements, start);
    return prebuilt === undefined || this.RECORDING_PHASE ? body : [...prebuilt.payload, ...body];
  }, { recoveryValueFunc: () => [] });
}

let shared: NuwaParser | undefined;

/**
 * The one parser, built when first used: building it (Chevrotain records and analyses the grammar)
 * is most of what loading the syntax layer costs, and a host that imports the package may not parse
 * anything for a while, or ever (a process that only checks tools, or resumes a stored run).
 */
export function sharedParser(): NuwaParser {
  return (shared ??= new NuwaParser());
}
