// The checker's entry points (API.md `check`, `plan`): source text or a parsed program in, problems
// (and the plan) out, without running anything. Syntax errors are problems here, not a throw.
import type { Program } from '../syntax/ast.js';
import { NuwaError } from '../errors.js';
import { parseWithRecovery } from '../syntax/parse.js';
import type { ConfirmLevel, ToolCategory } from '../tools/types.js';
import type { ToolCatalog } from './arguments.js';
import { analyse, type Analysis } from './checker.js';
import { programHash } from './hash.js';
import { hasErrors, type Problem } from './problems.js';
import { Options, shown } from '../util/options.js';
import { findingsBesideSyntaxErrors } from './findings.js';

export interface CheckOptions {
  /** The initial variables the script will run with (`run`'s `variables`), or just their names. */
  variables?: readonly string[] | Record<string, unknown>;
}

export interface PlanOptions extends CheckOptions {
  /** Which confirm levels need approval (default: write and destructive, as for the Interpreter). */
  needsApproval?: readonly ConfirmLevel[];
}

/** A CALL the script can reach: at most `maxCount` runs there (null: only known at run time). */
export interface PlannedCall {
  tool: string;
  confirm: ConfirmLevel;
  category: ToolCategory;
  line: number;
  column: number;
  maxCount: number | null;
  /** Present on a call inside a list comprehension's element: its runs may overlap (DURABLE.md §4). */
  concurrent?: true;
}

/** A tool whose level needs approval, with its calls' maxCounts summed (null: any number). */
export interface ApprovalNeed {
  tool: string;
  confirm: ConfirmLevel;
  maxCount: number | null;
}

export interface Plan {
  /** No problem of severity error. */
  ok: boolean;
  problems: Problem[];
  /** Every CALL the script can reach, in source order. */
  calls: PlannedCall[];
  needsApproval: ApprovalNeed[];
  /** The program the plan is for (hash.ts); `run` refuses an approved plan made for another. */
  scriptHash: string;
}

const DEFAULT_APPROVAL_LEVELS: readonly ConfirmLevel[] = ['write', 'destructive'];
const CONFIRM_LEVELS: readonly ConfirmLevel[] = ['none', 'read', 'write', 'destructive'];

/** Every problem `nuwa check` reports, in source order. */
export function check(script: string | Program, tools: ToolCatalog, options: CheckOptions = {}): Problem[] {
  const where = 'check(script, registry, options)';
  checkCatalog(tools, where);
  const variables = variablesOption(Options.of(where, options));
  const parsed = parseScript(script, tools, variables);
  if ('problems' in parsed) return parsed.problems;
  return analyseSafely(parsed.program, tools, variables).problems;
}

/** What a script may do: every reachable CALL with its bound, and what needs approval. */
export function plan(script: string | Program, tools: ToolCatalog, options: PlanOptions = {}): Plan {
  const where = 'plan(script, registry, options)';
  checkCatalog(tools, where);
  const given = Options.of(where, options);
  const variables = variablesOption(given);
  const levels = new Set(given.listOf('needsApproval', CONFIRM_LEVELS, `a list of confirm levels (${CONFIRM_LEVELS.join(', ')})`) ?? DEFAULT_APPROVAL_LEVELS);
  const parsed = parseScript(script, tools, variables);
  if ('problems' in parsed) return { ok: false, problems: parsed.problems, calls: [], needsApproval: [], scriptHash: '' };
  const { problems, calls: reached } = analyseSafely(parsed.program, tools, variables);
  const calls: PlannedCall[] = reached
    .map(({ node, tool, maxCount, concurrent, confirm }): PlannedCall => {
      const call: PlannedCall = { tool: tool.name, confirm, category: tool.category, line: node.line, column: node.column, maxCount };
      if (concurrent) call.concurrent = true;
      return call;
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);

  const needs = new Map<string, ApprovalNeed>();
  for (const call of calls) {
    if (!levels.has(call.confirm)) continue;
    const need = needs.get(call.tool);
    if (need === undefined) needs.set(call.tool, { tool: call.tool, confirm: call.confirm, maxCount: call.maxCount });
    else need.maxCount = need.maxCount === null || call.maxCount === null ? null : need.maxCount + call.maxCount;
  }
  return { ok: !hasErrors(problems), problems, calls, needsApproval: [...needs.values()], scriptHash: programHash(parsed.program) };
}

/**
 * The program, or the problems of a script that does not parse: its syntax errors, and with them
 * what the checker finds in what the parser recovered (findings.ts), in source order.
 */
function parseScript(script: unknown, tools: ToolCatalog, variables: string[]): { program: Program } | { problems: Problem[] } {
  if (typeof script === 'string') {
    const outcome = parseWithRecovery(script);
    if ('program' in outcome) return { program: outcome.program };
    const syntax = outcome.problems.map(({ line, column, message }): Problem => ({ kind: 'SyntaxError', message, line, column, severity: 'error' }));
    const findings = findingsBesideSyntaxErrors(outcome.problems, outcome.recovered, tools, variables);
    return { problems: [...syntax, ...findings].sort((a, b) => a.line - b.line || a.column - b.column) };
  }
  if (script !== null && typeof script === 'object' && (script as Program).type === 'Program' && Array.isArray((script as Program).body)) {
    return { program: script as Program };
  }
  return { problems: [{ kind: 'SyntaxError', message: 'check() needs script text or a Program from parse()', line: 1, column: 1, severity: 'error' }] };
}

/** The registry (or any catalogue with lookup and names); checked before anything else. */
function checkCatalog(tools: unknown, where: string): void {
  let ok = false;
  try {
    ok = tools !== null && typeof tools === 'object' && typeof (tools as ToolCatalog).lookup === 'function' && typeof (tools as ToolCatalog).names === 'function';
  } catch {
    ok = false;
  }
  if (!ok) throw new NuwaError('TypeError', `${where}: registry must be a ToolRegistry, got ${shown(tools)}`);
}

function analyseSafely(program: Program, tools: ToolCatalog, variables: string[]): Analysis {
  try {
    return analyse(program, tools, variables);
  } catch (error) {
    // The evaluator meets the same limit; say so instead of crashing the host.
    if (!(error instanceof RangeError)) throw error;
    const problem: Problem = {
      kind: 'LimitExceededError',
      message: 'the script nests too deeply to check on this host: split deep expressions with LET',
      line: 1,
      column: 1,
      severity: 'error',
    };
    return { problems: [problem], calls: [] };
  }
}

/** The names of the `variables` option: a list of names, or the keys of an object of name → value. */
function variablesOption(given: Options): string[] {
  const what = 'a list of names or an object of name → value';
  const variables = given.get('variables');
  if (variables === undefined) return [];
  let names: unknown[] | undefined;
  try {
    names = Array.isArray(variables) ? Array.from(variables as unknown[]) : variables !== null && typeof variables === 'object' ? Object.keys(variables) : undefined;
  } catch {
    names = undefined; // a Proxy whose traps throw
  }
  if (names === undefined || names.some((name) => typeof name !== 'string')) throw given.bad('variables', what, variables);
  return names as string[];
}
