// What durable runs cost (DURABLE.md), measured warm in this process. Prints one JSON object:
//   recording: call_heavy recorded in a FileRunStore against the same run not recorded (ratios per round);
//   checkpoint: the JSON size of the checkpoint of a run paused after 1,000 calls (and 10,000);
//   resume: the time to resume a run paused after 1,000 calls (and 10,000), replaying every call
//           from its record: linear replay keeps the per-call time flat from one size to the other.
//   node bench/durable.mjs <workloads dir> <warm-up rounds> <counted rounds>
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileRunStore, Interpreter, ToolRegistry } from '../dist/index.js';
import { benchTools } from './tools.mjs';

const [dir, warmupText, roundsText] = process.argv.slice(2);
const warmup = Number(warmupText);
const rounds = Number(roundsText);
const limits = { maxSteps: 1e9, maxToolCalls: 1e9, timeoutMs: Number(process.env.NUWA_BENCH_TIMEOUT_MS ?? 20_000) };
const folder = mkdtempSync(path.join(tmpdir(), 'nuwa-bench-runs-'));

function registry() {
  const tools = new ToolRegistry();
  for (const tool of benchTools('async')) tools.register(tool);
  // A write that needs approval: where the benchmark's runs pause.
  tools.register({ name: 'commit', description: 'Commits', parameters: [], returns: 'number', confirm: 'write', execute: () => 1 });
  return tools;
}

const result = { recording: [], recordedMs: [], plainMs: [], checkpointKb: {}, resumeMs: {} };
try {
  const source = readFileSync(`${dir}/call_heavy.nuwa`, 'utf8');
  const tools = registry();
  const interpreter = new Interpreter(tools, { print: () => {}, limits });
  for (let round = 0; round < warmup + rounds; round++) {
    const store = new FileRunStore(path.join(folder, `round-${round}`));
    let t0 = performance.now();
    const outcome = await interpreter.start(source, { store });
    const recorded = performance.now() - t0;
    if (outcome.status !== 'completed') throw new Error(`the recorded run ${outcome.status}: ${outcome.error?.message}`);
    t0 = performance.now();
    await interpreter.run(source);
    const plain = performance.now() - t0;
    if (round < warmup) continue;
    result.recording.push(recorded / plain);
    result.recordedMs.push(recorded);
    result.plainMs.push(plain);
  }

  // A run that makes n calls, then waits at a write: its checkpoint, and resuming it (best of 5).
  for (const n of [1000, 10000]) {
    const script = `LET total = 0\nFOR i IN RANGE(${n}) DO\n  LET total = CALL inc { value: total }\nEND\nCALL commit {}\nPRINT(total)`;
    const pausing = new Interpreter(tools, { print: () => {}, limits, onApproval: 'pause' });
    const paused = await pausing.start(script);
    if (paused.status !== 'paused') throw new Error(`the run of ${n} calls did not pause (${paused.status})`);
    const text = JSON.stringify(paused.checkpoint);
    result.checkpointKb[n] = text.length / 1024;
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const done = await new Interpreter(tools, { print: () => {}, limits }).resume(JSON.parse(text), { decisions: { [paused.pending[0].callId]: true } });
      times.push(performance.now() - t0);
      if (done.status !== 'completed') throw new Error(`resuming ${n} calls: ${done.status}`);
    }
    result.resumeMs[n] = Math.min(...times);
  }
} catch (error) {
  result.error = `${error.kind ?? error.name}: ${error.message}`;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
