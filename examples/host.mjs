// A host program. An application embeds Nuwa: it registers tools, runs the scripts a
// model wrote, each conversation in its own session, with limits, an approval hook, events, and
// a way to cancel. docs/embedding.md explains each part.
//   node examples/host.mjs
import { Interpreter, NuwaError, ToolRegistry } from 'nuwa-script';
import tools from './tools.mjs';

const registry = new ToolRegistry();
for (const tool of tools) registry.register(tool);

// One session per conversation: the portfolio of one never shows in the other.
function interpreterFor(user) {
  return new Interpreter(registry, {
    session: registry.createSession(user),
    print: (line) => console.log(`  ${user} | ${line}`),
    limits: { maxToolCalls: 20, timeoutMs: 10_000 },
    // Asked before each call whose risk level needs approval (place_order is a write).
    approve: ({ toolName, args }) => {
      console.log(`  ${user} ? ${toolName} ${JSON.stringify(args)}: approved`);
      return true;
    },
    onEvent: (event) => {
      if (event.type === 'tool:failed') console.log(`  ${user} ! ${event.toolName} failed: ${event.error.message}`);
    },
  });
}

const ana = interpreterFor('ana');
const ben = interpreterFor('ben');

console.log('1. A script runs; its variables and statistics come back.');
const sell = 'LET order = CALL place_order { symbol: "TSLA", side: "sell", quantity: 4 }\nLET cash = (CALL get_portfolio {}).cash';
const result = await ana.run(sell);
console.log(`  ana's cash: ${result.variables.cash}; ${result.stats.toolCalls} tool calls, ${result.stats.steps} steps`);
const other = await ben.run('LET cash = (CALL get_portfolio {}).cash');
console.log(`  ben's cash: ${other.variables.cash} (his own session)`);

console.log('2. A failing script rejects with a NuwaError: send its message back to the model.');
try {
  await ben.run('LET p = CALL get_price { symbol: "ACME" }\nPRINT(p)', { fileName: 'reply.nuwa' });
} catch (error) {
  if (!(error instanceof NuwaError)) throw error;
  console.log(`  ${error.fileName}:${error.line}:${error.column}: ${error.kind}: ${error.message}`);
}

console.log('3. The host can cancel a run: it stops with AbortedError, and running tools are aborted.');
const patient = new Interpreter(registry, { limits: { maxSteps: Infinity } }); // this loop would take minutes
const controller = new AbortController();
setTimeout(() => controller.abort(), 100); // say, the person pressed Stop
try {
  await patient.run('FOR i IN RANGE(1000) DO\n  FOR j IN RANGE(1000) DO\n    FOR k IN RANGE(1000) DO\n      LET x = i\n    END\n  END\nEND', { signal: controller.signal });
} catch (error) {
  if (!(error instanceof NuwaError)) throw error;
  console.log(`  ${error.kind}: ${error.message}`);
}
