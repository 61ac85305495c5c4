// One cold parse-and-run of the 1,000-statement model script, in this fresh process: what a host
// pays the first time it runs a plan. Timed from outside (the whole process) by bench/run.mjs.
import { Interpreter, ToolRegistry } from '../dist/index.js';
import { modelScript, modelTools } from './model-script.mjs';

const registry = new ToolRegistry();
for (const tool of modelTools) registry.register(tool);
const lines = [];
await new Interpreter(registry, { print: (line) => lines.push(line) }).run(modelScript(1000));
process.stdout.write(`${lines.length} lines\n`);
