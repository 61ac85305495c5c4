// Concurrent calls in list comprehensions (DURABLE.md §4), measured: twenty calls of a read that
// takes 50 ms, in a comprehension (up to maxConcurrentCalls, 8, at once) against the same in a FOR
// loop (one after another). Prints one JSON object: { speedups: [FOR time / comprehension time per
// round], comprehensionMs, loopMs }.
//   node bench/concurrency.mjs <rounds>
import { Interpreter, ToolRegistry } from '../dist/index.js';

const rounds = Number(process.argv[2] ?? 3);
const registry = new ToolRegistry();
registry.register({
  name: 'quote',
  description: 'A price that takes 50 ms to come back',
  parameters: [{ name: 'i', description: 'which', type: 'number' }],
  returns: 'number',
  confirm: 'read',
  execute: ({ i }) => new Promise((resolve) => setTimeout(() => resolve(100 + i), 50)),
});
const interpreter = new Interpreter(registry);
const comprehension = 'LET prices = [CALL quote { i: i } FOR i IN RANGE(20)]\nPRINT(SUM(prices))';
const loop = 'LET prices = []\nFOR i IN RANGE(20) DO\n  LET prices = APPEND(prices, CALL quote { i: i })\nEND\nPRINT(SUM(prices))';

const result = { speedups: [], comprehensionMs: [], loopMs: [] };
try {
  for (let round = 0; round < rounds; round++) {
    let t0 = performance.now();
    const a = await interpreter.run(comprehension);
    const together = performance.now() - t0;
    t0 = performance.now();
    const b = await interpreter.run(loop);
    const apart = performance.now() - t0;
    if (a.output[0] !== b.output[0]) throw new Error(`they disagree: ${a.output[0]} and ${b.output[0]}`);
    result.speedups.push(apart / together);
    result.comprehensionMs.push(together);
    result.loopMs.push(apart);
  }
} catch (error) {
  result.error = `${error.kind ?? error.name}: ${error.message}`;
}
process.stdout.write(`${JSON.stringify(result)}\n`);
