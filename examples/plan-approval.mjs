// A host that shows a script's plan to a person once, then runs it without asking again about the
// calls the plan covers (docs/embedding.md, "Check and plan before running").
//   node examples/plan-approval.mjs
import { readFileSync } from 'node:fs';
import { Interpreter, ToolRegistry } from 'nuwa-script';
import tools from './tools.mjs';

const registry = new ToolRegistry();
for (const tool of tools) registry.register(tool);
const interpreter = new Interpreter(registry, {
  print: console.log,
  // Asked only about calls the approved plan does not cover (there are none here).
  approve: ({ toolName }) => {
    console.log(`asked about ${toolName}`);
    return false;
  },
});

const script = readFileSync(new URL('./trading.nuwa', import.meta.url), 'utf8');

// 1. Plan: every call the script can make, without running anything.
const plan = interpreter.plan(script);
if (!plan.ok) throw new Error(plan.problems.map((p) => `${p.line}:${p.column}: ${p.message}`).join('\n'));

// 2. Show it to a person, once.
for (const call of plan.calls) {
  const times = call.maxCount === null ? 'any number of times' : `at most ${call.maxCount} time(s)`;
  console.log(`line ${call.line}: ${call.tool} (${call.confirm}), ${times}`);
}
const approved = await askPerson(plan.needsApproval);

// 3. Run with the approved plan: the calls it covers ask no one.
if (approved) await interpreter.run(script, { approvedPlan: plan });

async function askPerson(needs) {
  console.log(`Approve ${needs.map((need) => need.tool).join(', ')}? (this example answers yes)`);
  return true;
}
