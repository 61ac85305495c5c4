// What `nuwa check` and `nuwa run --check / --plan` show: problems with code frames, and the plan
// as a table; and the decision taken before a run (refuse, ask once, or run with the plan).
import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';
import type { ToolCatalog } from '../check/arguments.js';
import { plan as makePlan, type Plan } from '../check/check.js';
import type { Problem } from '../check/problems.js';
import { codeFrame } from '../syntax/source.js';
import type { CliIO } from './io.js';

/** `file:line:col: error: Kind: message` and a code frame for each problem, then a count. */
export function formatProblems(problems: readonly Problem[], source: string, fileName: string, color: boolean): string {
  const paint = pc.createColors(color);
  const blocks = problems.map(({ kind, message, line, column, severity }) => {
    const label = severity === 'error' ? paint.red(paint.bold('error')) : paint.yellow(paint.bold('warning'));
    const head = `${paint.bold(`${fileName}:${line}:${column}`)}: ${label}: ${paint.bold(kind)}: ${message}`;
    const frame = codeFrame(source, line, column, { caret: (s) => (severity === 'error' ? paint.red(s) : paint.yellow(s)) });
    return frame ? `${head}\n${frame}` : head;
  });
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  const count = [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`].filter(Boolean).join(', ');
  return `${blocks.join('\n\n')}\n\n${count}\n`;
}

const bound = (maxCount: number | null) => (maxCount === null ? 'unbounded' : `≤ ${maxCount}`);

/**
 * The plan as a table: where each CALL is, its tool, risk level, category and bound; a call inside a
 * list comprehension is marked concurrent (its runs may overlap, DURABLE.md §4).
 */
export function formatPlan(plan: Plan): string {
  if (plan.calls.length === 0) return 'Plan: no tool calls.\n';
  const rows = plan.calls.map((c) => [`${c.line}:${c.column}`, c.tool, c.confirm, c.category, `${bound(c.maxCount)}${c.concurrent ? ', concurrent' : ''}`]);
  const header = ['at', 'tool', 'risk', 'category', 'runs'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}`;
  const approval =
    plan.needsApproval.length === 0
      ? 'Nothing needs approval.'
      : `Needs approval: ${plan.needsApproval.map((n) => `${n.tool} (${n.confirm}) ${bound(n.maxCount)}`).join(', ')}`;
  return `Plan: ${plan.calls.length} tool call${plan.calls.length === 1 ? '' : 's'}\n${line(header)}\n${rows.map(line).join('\n')}\n${approval}\n`;
}

/** What `nuwa run --check` / `--plan` decided before running: the plan to run with, or a refusal. */
export interface Preflight {
  approvedPlan?: Plan;
  /** For --json: what to add to the run's report. */
  report?: { problems?: Problem[]; plan?: Pick<Plan, 'calls' | 'needsApproval' | 'scriptHash'> };
  refusal?: { error: { kind: string; message: string; line?: number; column?: number }; text: string };
}

/**
 * `run --check` refuses a script with errors; `run --plan` shows the plan and asks once, on a
 * terminal, when it needs approval (`--yes` approves it; no terminal and no --yes refuses).
 */
export async function preflight(
  source: string,
  fileName: string,
  registry: ToolCatalog,
  variables: Record<string, unknown>,
  flags: { check?: boolean; plan?: boolean; yes?: boolean; json: boolean },
  io: CliIO,
): Promise<Preflight> {
  if (!flags.check && !flags.plan) return {};
  const plan = makePlan(source, registry, { variables });
  const out: Preflight = { report: { problems: plan.problems } };
  if (flags.check && !plan.ok) {
    const { kind, message, line, column } = plan.problems.find((p) => p.severity === 'error')!;
    return { ...out, refusal: { error: { kind, message, line, column }, text: formatProblems(plan.problems, source, fileName, io.color) } };
  }
  // A script that does not parse has no plan: the run reports its syntax errors as usual.
  if (plan.scriptHash === '') return {};
  if (!flags.json && plan.problems.length > 0) io.stderr(formatProblems(plan.problems, source, fileName, io.color));
  if (!flags.plan) return out;
  out.report!.plan = { calls: plan.calls, needsApproval: plan.needsApproval, scriptHash: plan.scriptHash };
  if (!flags.json) io.stderr(formatPlan(plan));
  if (plan.needsApproval.length > 0 && !flags.yes) {
    const needs = plan.needsApproval.map((n) => `${n.tool} ${bound(n.maxCount)}`).join(', ');
    if (!io.interactive) {
      const message = `the plan needs approval (${needs}): run on a terminal to be asked once, or pass --yes`;
      return { ...out, refusal: { error: { kind: 'ToolDeniedError', message }, text: `${fileName}: ToolDeniedError: ${message}\n` } };
    }
    if (!(await askToRunPlan())) {
      const message = 'the plan was not approved: nothing ran';
      return { ...out, refusal: { error: { kind: 'ToolDeniedError', message }, text: `${fileName}: ToolDeniedError: ${message}\n` } };
    }
  }
  return { ...out, approvedPlan: plan };
}

/** Asks once on the terminal whether to run the plan; true on y or yes. */
async function askToRunPlan(): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question('Run this plan? [y/N] ');
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false; // stdin closed before an answer: not approved
  } finally {
    rl.close();
  }
}
