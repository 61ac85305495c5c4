// `nuwa check <file | ->`: report every problem of a script without running anything; with
// --plan, also what it may do (CLI.md). How both are shown is in plan-view.ts.
import { plan as makePlan } from '../check/check.js';
import { COLOR_HELP, COLOR_OPTIONS } from './color.js';
import { UsageError, type CliIO } from './io.js';
import { formatPlan, formatProblems } from './plan-view.js';
import { readScript } from './run.js';
import { CHECK_OPTIONS, loadRegistry, parseCommandArgs, parseVariables, reportLoadFailures, SHARED_OPTIONS, STANDARD_TOOLS_HELP } from './setup.js';

export const CHECK_HELP = `Usage: nuwa check <file.nuwa | -> [options]

Parses and checks a script without running anything: syntax errors, unknown tools, arguments that
are certainly wrong, variables read where no LET has set them, unknown functions and wrong argument
counts, values of the wrong type, and likely mistakes (warnings).

Options:
  --tools <module>          load tools from an ES module (repeatable): calls are checked against them
  --tools-dir <dir>         load executable tools from a directory (repeatable)
  --mcp "<command> [args]"  load the tools of an MCP server started with that command (repeatable)
${STANDARD_TOOLS_HELP}  --var name=<json>         an initial script variable (repeatable): it counts as set
  --plan                    also print the plan: each reachable CALL, its risk level and how many
                            times it can run (≤ n, or unbounded), and what needs approval
  --json                    print one JSON object: { ok, problems, plan? }
${COLOR_HELP}  -h, --help                show this help

Exit status: 0 no problem, 1 problems reported, 2 usage error.
`;

export async function checkCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...SHARED_OPTIONS, plan: CHECK_OPTIONS.plan, ...COLOR_OPTIONS });
  if (values.help) {
    io.stdout(CHECK_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'check needs a script file (or - for stdin)' : `check takes one script, got ${positionals.length}`);
  const [file] = positionals as [string];
  const fileName = file === '-' ? '<stdin>' : file;
  const source = file === '-' ? await io.readStdin() : readScript(file, io.cwd);
  const variables = parseVariables(values.var);
  const { registry, failures, close } = await loadRegistry(values, io);
  let result: ReturnType<typeof makePlan>;
  try {
    reportLoadFailures(failures, io);
    result = makePlan(source, registry, { variables });
  } finally {
    await close(); // closing an MCP connection unregisters its tools: only after checking
  }
  const clean = result.problems.length === 0;
  if (values.json === true) {
    const report: Record<string, unknown> = { ok: clean, problems: result.problems };
    if (values.plan === true) report.plan = { calls: result.calls, needsApproval: result.needsApproval, scriptHash: result.scriptHash };
    io.stdout(`${JSON.stringify(report)}\n`);
  } else {
    if (!clean) io.stdout(formatProblems(result.problems, source, fileName, io.colorStdout === true));
    if (values.plan === true && result.scriptHash !== '') io.stdout(formatPlan(result));
    if (clean) io.stdout(`${fileName}: no problems found\n`);
  }
  return clean ? 0 : 1;
}
