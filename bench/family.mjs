// One workload family, measured warm in this process: the interpreter's run and its plain-JavaScript
// floor alternate, round after round; warm-up rounds are discarded and each counted round gives one
// ratio. Prints one JSON object on stdout: { family, ratios, nuwaMs, floorMs, peakRssMb, error? }.
//   node bench/family.mjs <family> <workloads dir> <warm-up rounds> <counted rounds>
import { readFileSync } from 'node:fs';
import { Parser as Acorn } from 'acorn';
import { Interpreter, ToolRegistry, parse } from '../dist/index.js';
import { benchTools, callHeavyFloor, evalLoopFloor, fiveLineScripts, formatFloor, parseWorkloadInJs } from './tools.mjs';

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

const AsyncFunction = (async () => {}).constructor;
/** How many different scripts one round of runs_10k_texts runs, on each side. */
const TEXTS = 10_000;

/** [nuwa, floor] pairs of async functions of the round, each returning the lines it printed. */
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
    case 'parse_vs_acorn': {
      // The 1 MB workload, and the same statements in JavaScript parsed by acorn with positions
      // (our nodes carry line and column too). Both print how many top-level statements they found.
      const source = read('parse_1mb');
      const js = parseWorkloadInJs(source);
      return [
        async () => [String(parse(source).body.length)],
        async () => [String(Acorn.parse(js, { ecmaVersion: 'latest', locations: true }).body.length)],
      ];
    }
    case 'runs_10k_texts': {
      // What a host pays per script from a model: 10,000 different short scripts, each run from
      // its text by one interpreter; against compiling each equivalent JavaScript text with
      // `new AsyncFunction` and running it. The texts are made before the clock starts.
      const [inc] = benchTools('async').slice(1);
      const tools = { inc: inc.execute };
      let scripts = [];
      return [
        async (round) => {
          scripts = fiveLineScripts(round * TEXTS, TEXTS);
          const out = [];
          const interpreter = interpreterWith('async', out);
          return async () => {
            for (const script of scripts) await interpreter.run(script.nuwa);
            return out;
          };
        },
        async () => {
          const out = [];
          const print = (line) => out.push(line);
          return async () => {
            for (const script of scripts) await new AsyncFunction('tools', 'print', 'format', script.js)(tools, print, formatFloor);
            return out;
          };
        },
      ].map((prepare) => ({ prepare }));
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

/** Runs one side of a round: a contestant is an async function, or { prepare(round) } that returns one after setting up untimed. */
async function timed(contestant, round) {
  const fn = typeof contestant === 'function' ? contestant : await contestant.prepare(round);
  const started = performance.now();
  const output = await fn();
  return { ms: performance.now() - started, output };
}

const result = { family, ratios: [], nuwaMs: [], floorMs: [] };
try {
  const [nuwa, floor] = contestants();
  for (let round = 0; round < warmup + rounds; round++) {
    const ours = await timed(nuwa, round);
    const theirs = await timed(floor, round);
    // The parse family compares different work; the others must agree on what they printed.
    if (family !== 'parse_vs_acorn' && family !== 'append_100k' && ours.output.join('\n') !== theirs.output.join('\n')) {
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
