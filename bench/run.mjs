// `npm run bench`: the benchmark workloads of ../shared/bench, each run several times in fresh
// processes next to its plain-JavaScript baseline, reported as medians and ratios from the same run.
//   node bench/run.mjs [--runs N] [--shared <dir with gen.mjs and baseline.mjs>]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, shared: { type: 'string' } } });
const runs = Number(values.runs);
const shared = path.resolve(values.shared ?? process.env.NUWA_BENCH_DIR ?? path.join(root, '..', 'shared', 'bench'));
if (!existsSync(path.join(shared, 'gen.mjs'))) {
  console.error(`bench: no workloads at ${shared} (pass --shared <dir> or set NUWA_BENCH_DIR)`);
  process.exit(2);
}
if (!existsSync(path.join(root, 'dist', 'index.js'))) {
  console.error('bench: build first (npm run build)');
  process.exit(2);
}

const work = path.join(root, '.bench');
mkdirSync(work, { recursive: true });
execFileSync(process.execPath, [path.join(shared, 'gen.mjs'), work]);

// Loaded before each script: reports the process's peak resident memory on exit, the same way for
// the interpreter and for the baseline.
const PEAK_RSS = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stderr.write(`peak-rss: ${process.resourceUsage().maxRSS} KB\\n`));")}`;

/** Runs a node script in a fresh process; returns the ms it reported, its peak RSS and its stdout. */
function runOnce(args) {
  const child = spawnSync(process.execPath, ['--import', PEAK_RSS, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (child.status !== 0) throw new Error(`${args.join(' ')} failed:\n${child.stderr}`);
  const ms = Number(/: ([\d.]+) ms/.exec(child.stderr)?.[1]);
  const rssMb = Number(/peak-rss: (\d+) KB/.exec(child.stderr)?.[1]) / 1024;
  return { ms, rssMb, stdout: child.stdout.trim() };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = [];
for (const workload of ['parse_1mb', 'eval_loop', 'call_heavy']) {
  const ours = [];
  const floor = [];
  const ourRss = [];
  const floorRss = [];
  let output = '';
  let expected = '';
  for (let i = 0; i < runs; i++) {
    const mine = runOnce([path.join(root, 'bench', 'workload.mjs'), work, workload]);
    ours.push(mine.ms);
    ourRss.push(mine.rssMb);
    output = mine.stdout;
    if (workload !== 'parse_1mb') {
      const base = runOnce([path.join(shared, 'baseline.mjs'), workload]);
      floor.push(base.ms);
      floorRss.push(base.rssMb);
      expected = base.stdout;
    }
  }
  if (expected && output !== expected) throw new Error(`${workload}: output ${JSON.stringify(output)} differs from the baseline's ${JSON.stringify(expected)}`);
  const row = { workload, nuwaMs: median(ours).toFixed(1) };
  if (floor.length) {
    row.baselineMs = median(floor).toFixed(1);
    row.timeRatio = (median(ours) / median(floor)).toFixed(1) + 'x';
  } else {
    row.mbPerSecond = (1 / (median(ours) / 1000)).toFixed(2);
  }
  row.nuwaPeakMb = median(ourRss).toFixed(0);
  if (floorRss.length) {
    row.baselinePeakMb = median(floorRss).toFixed(0);
    row.memoryRatio = (median(ourRss) / median(floorRss)).toFixed(1) + 'x';
  }
  rows.push(row);
}
console.table(rows);
console.log(`medians of ${runs} runs each, fresh processes; ratios = nuwa / plain JavaScript (lower is better); peak = max resident memory of the process`);
