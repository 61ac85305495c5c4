// CALC { formula: "...", vars: { ... } }: an arithmetic formula given as text (LANGUAGE.md §4).
// The formula is read by the script's own lexer and expression grammar, then limited to numbers,
// names, + - * / %, unary signs, parentheses and comparisons; names resolve only in `vars`.
// Compiled formulas are cached by their text, so a CALC inside a loop parses once.
import type * as A from '../syntax/ast.js';
import { NuwaError, type Position } from '../errors.js';
import { tokenize } from '../syntax/lexer.js';
import { parseExpressionTokens } from '../syntax/parser.js';
import { didYouMean } from '../util/suggest.js';
import type { SyncEval } from './compiled.js';
import type { ScriptRun } from './script-run.js';
import { Scope } from './scope.js';
import { describe, NuwaObject, type Value } from '../values/values.js';

interface CompiledFormula {
  evaluate: SyncEval;
  names: Array<{ name: string; column: number }>;
}

const MAX_CACHED_FORMULAS = 256;
const MAX_FORMULA_NESTING = 60;
const formulas = new Map<string, CompiledFormula | NuwaError>();

function calcError(message: string, at: Position): NuwaError {
  return new NuwaError('CalcError', message, at);
}

/**
 * `compile` turns the formula's expression into a closure (the evaluator's compileSync, passed in:
 * the evaluator compiles CALC nodes into calls of this).
 */
export function evaluateCalc(args: Value, node: A.CalcExpression, rt: ScriptRun, compile: (node: A.Expression) => SyncEval): Value {
  if (!(args instanceof NuwaObject)) throw calcError('CALC expects { formula: "...", vars: { ... } }', node);
  for (const key of args.keys()) {
    if (key !== 'formula' && key !== 'vars') throw calcError(`CALC does not take \`${key}\`: it takes formula (text) and vars (an object)`, node);
  }
  const formula = args.get('formula');
  if (typeof formula !== 'string') {
    throw calcError(`CALC needs formula: a string such as "price * qty", got ${formula === undefined ? 'nothing' : describe(formula)}`, node);
  }
  const vars = args.get('vars') ?? new NuwaObject();
  if (!(vars instanceof NuwaObject)) throw calcError(`CALC vars must be an object of names to numbers, got ${describe(vars)}`, node);

  const compiled = compileFormula(formula, compile);
  if (compiled instanceof NuwaError) throw calcError(compiled.message, node);
  const scope = new Scope(null);
  for (const { name, column } of compiled.names) {
    const value = vars.get(name);
    if (value === undefined) {
      throw calcError(`formula "${formula}" uses \`${name}\` (column ${column}) but vars has no such key${didYouMean(name, vars.keys())}`, node);
    }
    if (typeof value !== 'number') {
      // A formula computes with numbers only (its result is a number or a comparison's boolean).
      throw new NuwaError('TypeError', `\`${name}\` must be a number, got ${describe(value)} (in CALC formula "${formula}")`, node);
    }
    scope.assign(name, value);
  }
  try {
    return compiled.evaluate(rt, scope);
  } catch (error) {
    // Arithmetic errors keep their kind; their position moves from inside the formula to the CALC.
    if (error instanceof NuwaError) {
      throw new NuwaError(error.kind, `${error.message} (in CALC formula "${formula}" at column ${error.column})`, node);
    }
    throw error;
  }
}

function compileFormula(formula: string, compile: (node: A.Expression) => SyncEval): CompiledFormula | NuwaError {
  const cached = formulas.get(formula);
  if (cached) return cached;
  const compiled = buildFormula(formula, compile);
  if (formulas.size >= MAX_CACHED_FORMULAS) formulas.clear();
  formulas.set(formula, compiled);
  return compiled;
}

function buildFormula(formula: string, compile: (node: A.Expression) => SyncEval): CompiledFormula | NuwaError {
  const at = (column: number, message: string) => new NuwaError('CalcError', `formula "${formula}", column ${column}: ${message}`);
  if (formula.includes('\n') || formula.includes('\r')) return at(1, 'a formula is a single line');
  const lexed = tokenize(formula, { expression: true });
  if (lexed.maxNesting > MAX_FORMULA_NESTING) return at(1, `nests deeper than ${MAX_FORMULA_NESTING} levels`);
  if (lexed.tokens.length === 0) return at(1, 'the formula is empty');
  const first = lexed.problems[0];
  if (first) return at(first.column, first.message);
  const parsed = parseExpressionTokens(lexed.tokens);
  if (parsed.problems[0]) return at(parsed.problems[0].column, parsed.problems[0].message);

  const names: CompiledFormula['names'] = [];
  const problem = checkFormulaNode(parsed.expression, names);
  if (problem) return at(problem.column, problem.message);
  return { evaluate: compile(parsed.expression), names };
}

/** Only arithmetic and comparisons are allowed in a formula. */
function checkFormulaNode(node: A.Expression, names: CompiledFormula['names']): { column: number; message: string } | undefined {
  const refuse = (what: string) => ({
    column: node.column,
    message: `${what} is not allowed in a formula: use numbers, names from vars, + - * / %, parentheses and comparisons`,
  });
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'number' ? undefined : refuse(typeof node.value === 'string' ? 'a string' : `\`${String(node.value)}\``);
    case 'Variable':
      if (!names.some((n) => n.name === node.name)) names.push({ name: node.name, column: node.column });
      return undefined;
    case 'Binary':
      return checkFormulaNode(node.left, names) ?? checkFormulaNode(node.right, names);
    case 'Unary':
      return node.operator === 'NOT' ? refuse('NOT') : checkFormulaNode(node.operand, names);
    case 'Logical':
      return refuse(node.operator);
    case 'FunctionCall':
      return refuse(`the function call ${node.name}(...)`);
    case 'Call':
      return refuse('CALL');
    case 'Calc':
      return refuse('CALC');
    case 'List':
    case 'Comprehension':
      return refuse('a list');
    case 'Object':
      return refuse('an object');
    case 'Member':
    case 'Index':
      return refuse('member access');
  }
}
