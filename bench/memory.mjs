// Memory scenarios, each in a fresh process so that its peak resident memory is its own.
// Prints one JSON object on stdout: { scenario, peakRssMb, ...details }.
//   node bench/memory.mjs parse_1mb <workloads dir>    parse the 1 MB script
//   node bench/memory.mjs statements <count>           parse and run a script of that many statements
//   node bench/memory.mjs loop <iterations>            a CALL-free loop of that many iterations
//   node bench/memory.mjs concurrent <runs>            that many runs at once, each on its own session
import { readFileSync } from 'node:fs';
import { Interpreter, ToolRegistry, parse } from '../dist/index.js';

const [scenario, arg] = process.argv.slice(2);
const details = {};

if (scenario === 'parse_1mb') {
  const program = parse(readFileSync(`${arg}/parse_1mb.nuwa`, 'utf8'));
  details.statements = program.body.length;
} else if (scenario === 'statements') {
  // The 1 MB workload's blocks (../shared/bench/gen.mjs: assignments, an object, IF/ELSE with
  // FORMAT, a FOR loop; seven statements each, counting the nested ones) repeated until the script
  // has `count` statements: parsed and run to the end, as a host runs a long generated plan.
  const count = Number(arg);
  let source = '';
  let blocks = 0;
  for (; blocks * 7 < count; blocks++) {
    const i = blocks;
    source += `// block ${i}\nLET a${i} = ${i} * 2 + (3 - 1) / 4\n`;
    source += `LET o${i} = { name: "item ${i}", tags: ["x", "y"], n: a${i} }\n`;
    source += `IF a${i} > 10 AND NOT (a${i} == 7) THEN\n  LET r${i} = FORMAT("v={v}", { v: o${i}.name })\nELSE\n  LET r${i} = o${i}.tags[0]\nEND\n`;
    source += `FOR t IN o${i}.tags DO\n  LET last = t\nEND\n`;
  }
  const started = performance.now();
  const result = await new Interpreter(new ToolRegistry(), { print: () => {}, limits: { maxSteps: 1e9, timeoutMs: 600_000 } }).run(source);
  details.durationMs = Math.round(performance.now() - started);
  details.statements = blocks * 7;
  details.sourceBytes = source.length;
  details.variables = Object.keys(result.variables).length;
} else if (scenario === 'loop') {
  // Nested loops over small lists: the iterations grow, the data does not, so a runtime that keeps
  // nothing per iteration has the same peak memory for 10,000 iterations as for 1,000,000.
  const outer = Number(arg) / 1000;
  const source = `LET inner = []
FOR i IN [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] DO
  FOR j IN [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] DO
    FOR k IN [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] DO
      LET inner = APPEND(inner, k)
    END
  END
END
LET total = 0
LET rounds = 0
FOR round IN CALL count { n: ${outer} } DO
  FOR x IN inner DO
    LET total = total + x * 2 - 1
  END
  LET rounds = rounds + 1
END
PRINT(total)`;
  const registry = new ToolRegistry();
  registry.register('count', { description: 'the numbers 0 .. n-1', parameters: [{ name: 'n', description: 'how many', type: 'number' }], returns: 'array' }, ({ n }) =>
    Array.from({ length: n }, (_, i) => i),
  );
  const out = [];
  await new Interpreter(registry, { print: (line) => out.push(line), limits: { maxSteps: 1e9 } }).run(source);
  details.iterations = Number(arg);
  details.printed = out[0];
} else if (scenario === 'concurrent') {
  const runs = Number(arg);
  const registry = new ToolRegistry();
  registry.register(
    'fetch_item',
    { description: 'An item after a short wait.', parameters: [{ name: 'id', description: 'item id', type: 'number' }], returns: 'object' },
    async ({ id }, context) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      context.setState('last', id);
      return { id, name: `item ${id}`, price: id * 1.5 };
    },
  );
  const source = `LET total = 0
FOR id IN [1, 2, 3, 4, 5] DO
  LET item = CALL fetch_item { id: id }
  LET total = total + item.price
END
PRINT(FORMAT("total {t}", { t: total }))`;
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: runs }, () => new Interpreter(registry, { session: registry.createSession(), print: () => {} }).run(source)),
  );
  details.runs = results.length;
  details.durationMs = Math.round(performance.now() - started);
} else {
  throw new Error(`unknown scenario ${scenario}`);
}
process.stdout.write(`${JSON.stringify({ scenario, peakRssMb: process.resourceUsage().maxRSS / 1024, ...details })}\n`);
