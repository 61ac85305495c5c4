// Runs one benchmark workload with the built interpreter and prints the time it took, in ms, on
// stderr (like the plain-JavaScript baseline does), and the script's output on stdout.
//   node bench/workload.mjs <dir> parse_1mb | eval_loop | call_heavy
import { readFileSync } from 'node:fs';
import { Interpreter, ToolRegistry, parse } from '../dist/index.js';

const [dir, which] = process.argv.slice(2);
const source = readFileSync(`${dir}/${which}.nuwa`, 'utf8');

const registry = new ToolRegistry();
// The same tools as the baseline: async functions, awaited once per call.
registry.register({
  name: 'range',
  description: 'the numbers 0 .. n-1',
  parameters: [{ name: 'n', description: 'how many', type: 'number' }],
  returns: 'array',
  execute: async ({ n }) => Array.from({ length: n }, (_, i) => i),
});
registry.register({
  name: 'inc',
  description: 'value + 1',
  parameters: [{ name: 'value', description: 'a number', type: 'number' }],
  returns: 'number',
  execute: async ({ value }) => value + 1,
});

const started = performance.now();
if (which === 'parse_1mb') {
  const program = parse(source);
  process.stdout.write(`${program.body.length} statements\n`);
} else {
  const interpreter = new Interpreter(registry, {
    print: (line) => process.stdout.write(`${line}\n`),
    limits: { maxSteps: 1e9, maxToolCalls: 1e9, timeoutMs: 600_000 },
  });
  await interpreter.run(source);
}
process.stderr.write(`${which}: ${(performance.now() - started).toFixed(2)} ms\n`);
