// Long-lived hosts (issue 5.6): the heap stays flat over 10,000 runs of every kind — plain runs,
// tool calls with and without their own timeoutMs, approvals, failures, cancelled runs, a new session
// and Interpreter per run, default sandbox directories. Measured in a child process with --expose-gc:
// the heap after a full GC at intervals, against the heap after 1,000 warm-up runs. (A tool with
// timeoutMs used to leak about 5 KB per call through AbortSignal.any: 45 MB over these runs.)
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastJson, runChild, src } from '../../support/child.js';

const RUNS = 10_000;
const WARM_UP = 1_000;
/** Growth allowed after warm-up: what a steady heap wobbles by, far below any per-run leak (45 MB for 5 KB a run). */
const BOUND_KB = 2_048;

const code = `
  import { readdirSync } from 'node:fs';
  import { tmpdir } from 'node:os';
  import { Interpreter, ToolRegistry } from ${JSON.stringify(src('index.ts'))};
  // A default sandbox directory is removed in the background once its Interpreter is collected: let
  // those removals finish (work in flight, not memory kept: the faster the runs, the more of them
  // are in flight at a given moment) before measuring. A leak keeps its directories, and shows.
  const sandboxesLeft = () => readdirSync(tmpdir()).some((name) => name.startsWith('nuwa-sandbox-'));
  const heap = async () => {
    for (let i = 0; i < 500 && sandboxesLeft(); i++) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    globalThis.gc();
    globalThis.gc();
    return process.memoryUsage().heapUsed;
  };
  const registry = new ToolRegistry();
  const define = (name, execute, extra = {}) => registry.register({ name, description: name, parameters: [], returns: 'any', execute, ...extra });
  define('plain', async () => 1);
  define('timed', async () => 1, { timeoutMs: 5_000 });
  define('write', () => 1, { confirm: 'write' });
  define('fail', () => { throw new Error('no'); });
  define('hang', () => new Promise(() => {}));
  define('sandbox', (args, context) => context.sandboxDir.length);
  const shared = new Interpreter(registry, { print: () => {}, approve: () => true });
  const kinds = {
    'plain run': () => shared.run('LET x = 1 + 2\\nPRINT(x)'),
    'tool call': () => shared.run('LET x = CALL plain {}'),
    'tool call with timeoutMs': () => shared.run('LET x = CALL timed {}'),
    'approval': () => shared.run('LET x = CALL write {}'),
    'failing tool': () => shared.run('LET x = CALL fail {}').catch(() => {}),
    'syntax error': () => shared.run('LET = 1').catch(() => {}),
    'cancelled run': () => {
      const controller = new AbortController();
      const run = shared.run('LET x = CALL hang {}', { signal: controller.signal }).catch(() => {});
      setImmediate(() => controller.abort());
      return run;
    },
    'new session and Interpreter': () => new Interpreter(registry, { print: () => {}, session: registry.createSession() }).run('LET x = CALL plain {}'),
    'default sandbox directory': () => new Interpreter(registry, { print: () => {} }).run('LET x = CALL sandbox {}'),
  };
  const report = {};
  const chosen = JSON.parse(process.env.NUWA_LEAK_KINDS);
  for (const [kind, once] of Object.entries(kinds).filter(([kind]) => chosen.includes(kind))) {
    for (let i = 0; i < ${WARM_UP}; i++) await once();
    const base = await heap();
    const growthKb = [];
    for (let i = 1; i <= ${RUNS - WARM_UP}; i++) {
      await once();
      if (i % 3_000 === 0) growthKb.push(Math.round(((await heap()) - base) / 1024));
    }
    report[kind] = growthKb;
  }
  console.log(JSON.stringify(report));
`;

/** The kinds of run, in three groups of about the same cost, each measured in a child of its own. */
const GROUPS = [
  ['plain run', 'tool call', 'tool call with timeoutMs', 'approval'],
  ['failing tool', 'syntax error', 'cancelled run', 'new session and Interpreter'],
  ['default sandbox directory'],
];

describe('memory over many runs', () => {
  it.concurrent.each(GROUPS.map((kinds) => [kinds.join(', '), kinds] as const))(
    `the heap stays flat over ${RUNS.toLocaleString('en')} runs of each kind (%s), and no sandbox directory is left`,
    async (_names, kinds) => {
      const temp = mkdtempSync(path.join(tmpdir(), 'nuwa-leaks-'));
      let result;
      try {
        result = await runChild(code, { nodeArgs: ['--expose-gc'], maxOldSpaceMb: 256, timeoutMs: 180_000, env: { TMPDIR: temp, NUWA_LEAK_KINDS: JSON.stringify(kinds) } });
        // The default sandbox directories made (10,000 of them in their group) are all gone (tsx keeps its cache there too).
        expect(readdirSync(temp).filter((name) => name.startsWith('nuwa-sandbox-'))).toEqual([]);
      } finally {
        rmSync(temp, { recursive: true, force: true });
      }
      expect(result.stderr).toBe('');
      const report = lastJson(result) as Record<string, number[]>;
      expect(Object.keys(report)).toEqual(kinds);
      for (const [kind, growthKb] of Object.entries(report)) {
        expect(growthKb, kind).toHaveLength(3);
        for (const sample of growthKb) expect(sample, `${kind}: heap growth in KB at each interval ${growthKb.join(', ')}`).toBeLessThan(BOUND_KB);
      }
    },
    200_000,
  );

  it('the groups cover every kind of run', () => {
    const kinds = [...code.matchAll(/^ {4}'([^']+)': /gm)].map((match) => match[1]);
    expect(kinds).toHaveLength(9);
    expect(GROUPS.flat().sort()).toEqual(kinds.sort());
  });
});
