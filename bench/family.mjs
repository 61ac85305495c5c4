// One workload family, measured warm in this process: the interpreter's run and its plain-JavaScript
// floor alternate, round after round; warm-up rounds are discarded and each counted round gives one
// ratio. Prints one JSON object on stdout: { family, ratios, nuwaMs, floorMs, peakRssMb, error? }.
//   node bench/family.mjs <family> <workloads dir> <warm-up rounds> <counted rounds>
import { readFileSync } from 'node:fs';
import { Interpreter, ToolRegistry, parse } from '../dist/index.js';
import { benchTools, callHeavyFloor, evalLoopFloor } from './tools.mjs';

const [family, dir, warmupText, roundsText] = process.argv.slice(2);
const warmup = Number(warmupText);
const rounds = Number(roundsText);
const read = (name) => readFileSync(`${dir}/${name}.nuwa`, 'utf8');

/** An interpreter over the benchmark tools, printing into `sink`; no limit gets in the way. */
function interpreterWith(kind, sink) {
  const registry = new ToolRegistry();
  for (const tool of benchTools(kind)) registry.register(tool);
  return new Interpreter(registry, {
    print: (line) => sink.push(line),
    limits: { maxSteps: 1e9, maxToolCalls: 1e9, timeoutMs: Number(process.env.NUWA_BENCH_TIMEOUT_MS ?? 20_000) },
  });
}

/** JSON text of about the same size as `text`, shaped like the script's statements. */
function jsonOfSize(text) {
  const items = [];
  let size = 2;
  for (let i = 0; size < text.length; i++) {
    const item = { name: `item ${i}`, value: i * 2 + 0.5, tags: ['x', 'y'], ok: i % 3 === 0, note: null, nested: { a: i, b: `v=${i}` } };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return JSON.stringify(items);
}

/** [nuwa, floor] pairs of async functions, each returning the lines it printed. */
function contestants() {
  switch (family) {
    case 'eval_loop': {
      const source = read('eval_loop');
      return [
        async () => { const out = []; await interpreterWith('async', out).run(source); return out; },
        async () => { const out = []; await evalLoopFloor((line) => out.push(line)); return out; },
      ];
    }
    case 'call_heavy_sync':
    case 'call_heavy_async': {
      const kind = family === 'call_heavy_sync' ? 'sync' : 'async';
      const source = read('call_heavy');
      const floor = callHeavyFloor(kind);
      return [
        async () => { const out = []; await interpreterWith(kind, out).run(source); return out; },
        async () => { const out = []; await floor((line) => out.push(line)); return out; },
      ];
    }
    case 'parse_1mb': {
      const source = read('parse_1mb');
      const json = jsonOfSize(source);
      return [
        async () => [String(parse(source).body.length)],
        async () => [String(JSON.parse(json).length)],
      ];
    }
    case 'append_100k': {
      const append = read('append_100k');
      const count = read('count_100k');
      return [
        async () => { const out = []; await interpreterWith('async', out).run(append); return out; },
        async () => { const out = []; await interpreterWith('async', out).run(count); return out; },
      ];
    }
    case 'comprehension_100k': {
      // The same list made by a comprehension, and by the FOR loop with APPEND it replaces.
      const comprehension = 'LET xs = CALL range { n: 100000 }\nLET out = [x * 2 FOR x IN xs]\nPRINT(LEN(out))\nPRINT(out[99999])\n';
      const loop = 'LET xs = CALL range { n: 100000 }\nLET out = []\nFOR x IN xs DO\n  LET out = APPEND(out, x * 2)\nEND\nPRINT(LEN(out))\nPRINT(out[99999])\n';
      return [
        async () => { const out = []; await interpreterWith('async', out).run(comprehension); return out; },
        async () => { const out = []; await interpreterWith('async', out).run(loop); return out; },
      ];
    }
    default:
      throw new Error(`unknown family ${family}`);
  }
}

async function timed(fn) {
  const started = performance.now();
  const output = await fn();
  return { ms: performance.now() - started, output };
}

const result = { family, ratios: [], nuwaMs: [], floorMs: [] };
try {
  const [nuwa, floor] = contestants();
  for (let round = 0; round < warmup + rounds; round++) {
    const ours = await timed(nuwa);
    const theirs = await timed(floor);
    // The parse family compares different work; the others must agree on what they printed.
    if (family !== 'parse_1mb' && family !== 'append_100k' && ours.output.join('\n') !== theirs.output.join('\n')) {
      throw new Error(`the interpreter printed ${JSON.stringify(ours.output)}, the floor ${JSON.stringify(theirs.output)}`);
    }
    if (round < warmup) continue;
    result.nuwaMs.push(ours.ms);
    result.floorMs.push(theirs.ms);
    result.ratios.push(ours.ms / theirs.ms);
  }
} catch (error) {
  result.error = `${error.kind ?? error.name}: ${error.message}`;
}
result.peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify(result)}\n`);
