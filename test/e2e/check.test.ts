// Tests of `nuwa check` and of `nuwa run --check / --plan`. Most run the command's `main` in-process
// with the output captured (what bin/nuwa runs, without starting Node each time); the first test,
// a real terminal and hostile input spawn bin/nuwa as a user would (it runs the built package in
// dist/, which `npm test` builds first).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'examples', 'tools.mjs');

/** bin/nuwa in a process of its own. */
function nuwaProcess(args: string[], input = '') {
  const child = spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** The CLI's main in this process, without a terminal or colour, its output captured. */
async function nuwa(args: string[], input = '') {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readStdin: async () => input, interactive: false, color: false, cwd: root };
  const status = await main(args, io);
  return { status, ...out };
}

function scriptFile(source: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'nuwa-check-')), 'plan.nuwa');
  writeFileSync(file, source);
  return file;
}

const BROKEN = `LET p = CALL get_price { symbol: "AAPL" }
PRINT(p.value)
`;

const ORDERS = `FOR s IN ["AAPL", "MSFT"] DO
  LET order = CALL place_order { symbol: s, side: "buy", quantity: 1 }
  PRINT(FORMAT("{s}: {status}", { s: s, status: order.status }))
END
FOR s IN CALL list_regions {} DO
  PRINT(CALL get_price { symbol: "NVDA" })
END
`;

describe('nuwa check', () => {
  it('reports nothing and exits 0 for a clean script', async () => {
    const result = nuwaProcess(['check', 'examples/quickstart.nuwa', '--tools', tools]);
    expect(result.stdout).toBe('examples/quickstart.nuwa: no problems found\n');
    expect(result.status).toBe(0);
  });

  it('prints each problem with its position, severity, kind, message and code frame; exits 1', async () => {
    const file = scriptFile(BROKEN);
    const result = await nuwa(['check', file, '--tools', tools]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      `${file}:2:9: error: MemberAccessError: \`.value\` needs an object, but \`p\` is always a number (the declared result of \`get_price\`)\n` +
        '1 | LET p = CALL get_price { symbol: "AAPL" }\n2 | PRINT(p.value)\n  |         ^\n\n1 error\n',
    );
  });

  it('--json prints { ok, problems }', async () => {
    const result = await nuwa(['check', '-', '--tools', tools, '--json', '--var', 'c=true'], 'IF c THEN\n  LET y = 1\nEND\nPRINT(y)\nAPPEND([], 1)\nPRINT(nope)');
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.problems.map((p: { kind: string; severity: string; line: number }) => [p.kind, p.severity, p.line])).toEqual([
      ['UndefinedVariableError', 'warning', 4],
      ['DiscardedResult', 'warning', 5],
      ['UndefinedVariableError', 'error', 6],
    ]);
    expect(report.plan).toBeUndefined();
  });

  it('--var makes a variable count as set', async () => {
    expect((await nuwa(['check', '-', '--var', 'x=true'], 'IF x THEN\n  PRINT(1)\nEND')).status).toBe(0);
  });

  it('reports every syntax error as a problem', async () => {
    const result = await nuwa(['check', '-', '--json'], 'LET a = = 1\nLET b = )');
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.problems.map((p: { kind: string; line: number }) => `${p.kind}@${p.line}`)).toEqual(['SyntaxError@1', 'SyntaxError@2']);
  });

  it('--plan prints each reachable CALL with its risk level and bound, and what needs approval', async () => {
    const file = scriptFile(ORDERS);
    const result = await nuwa(['check', file, '--tools', tools, '--plan']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      [
        'Plan: 3 tool calls',
        '  at    tool          risk   category  runs',
        '  2:15  place_order   write  network   ≤ 2',
        '  5:10  list_regions  none   data      ≤ 1',
        '  6:9   get_price     none   data      unbounded',
        'Needs approval: place_order (write) ≤ 2',
        `${file}: no problems found`,
        '',
      ].join('\n'),
    );
  });

  it('--plan --json adds the plan', async () => {
    const result = await nuwa(['check', scriptFile(ORDERS), '--tools', tools, '--plan', '--json']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(true);
    expect(report.plan.calls.map((c: { tool: string; maxCount: number | null }) => [c.tool, c.maxCount])).toEqual([
      ['place_order', 2],
      ['list_regions', 1],
      ['get_price', null],
    ]);
    expect(report.plan.needsApproval).toEqual([{ tool: 'place_order', confirm: 'write', maxCount: 2 }]);
    expect(report.plan.scriptHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('--plan --json marks a call inside a list comprehension concurrent, with the bound of its list', async () => {
    const result = await nuwa(['check', 'examples/collect.nuwa', '--tools', tools, '--plan', '--json']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.plan.calls).toEqual([{ tool: 'get_sales', confirm: 'none', category: 'data', line: 8, column: 14, maxCount: 3, concurrent: true }]);
  });

  it('usage errors exit 2', async () => {
    expect((await nuwa(['check'])).status).toBe(2);
    expect((await nuwa(['check', 'no/such/file.nuwa'])).status).toBe(2);
    expect((await nuwa(['check', '-', '--frobnicate'], 'PRINT(1)')).status).toBe(2);
  });

  it('is listed in the help', async () => {
    expect((await nuwa(['--help'])).stdout).toMatch(/nuwa check <file\.nuwa/);
    expect((await nuwa(['check', '--help'])).stdout).toMatch(/--plan/);
    expect((await nuwa(['run', '--help'])).stdout).toMatch(/--check[\s\S]*--plan/);
  });
});

describe('nuwa run --check', () => {
  it('refuses to run a script with errors: problems on stderr like check, nothing runs, exit 1', async () => {
    const file = scriptFile(`PRINT("started")\n${BROKEN}`);
    const result = await nuwa(['run', file, '--tools', tools, '--check']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file}:3:9: error: MemberAccessError: \`.value\` needs an object`);
    expect(result.stderr).toContain('1 error');
  });

  it('with --json: one JSON object with the first error and the problems', async () => {
    const result = await nuwa(['run', '-', '--tools', tools, '--check', '--json'], `PRINT("started")\n${BROKEN}`);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ ok: false, output: [], error: { kind: 'MemberAccessError', line: 3, column: 9 } });
    expect(report.problems).toHaveLength(1);
  });

  it('runs a script without errors (warnings go to stderr)', async () => {
    const result = await nuwa(['run', '-', '--check'], 'LET xs = [1]\nAPPEND(xs, 2)\nPRINT(xs)');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('[1]\n');
    expect(result.stderr).toMatch(/warning: DiscardedResult/);
  });
});

describe('nuwa run --plan', () => {
  it('without a terminal and without --yes, refuses a plan that needs approval: nothing runs', async () => {
    const result = await nuwa(['run', scriptFile(ORDERS), '--tools', tools, '--plan']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Needs approval: place_order \(write\) ≤ 2/);
    expect(result.stderr).toMatch(/ToolDeniedError: the plan needs approval \(place_order ≤ 2\): run on a terminal to be asked once, or pass --yes/);
  });

  it('runs at once when nothing needs approval', async () => {
    const result = await nuwa(['run', 'examples/quickstart.nuwa', '--tools', tools, '--plan']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Average of the watchlist: 261.71');
    expect(result.stderr).toMatch(/Nothing needs approval/);
  });

  it('--yes approves the plan; the trace records that the plan approved each call', async () => {
    const trace = path.join(mkdtempSync(path.join(tmpdir(), 'nuwa-trace-')), 'events.jsonl');
    const result = await nuwa(['run', scriptFile(ORDERS), '--tools', tools, '--plan', '--yes', '--trace', trace]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('AAPL: filled\nMSFT: filled\n');
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const orders = events.filter((e) => e.type === 'tool:invoking' && e.toolName === 'place_order');
    expect(orders.map((e) => e.approvedBy)).toEqual(['plan', 'plan']);
  });

  it('--plan --json: the plan is in the report', async () => {
    const result = await nuwa(['run', scriptFile(ORDERS), '--tools', tools, '--plan', '--yes', '--json']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(true);
    expect(report.plan.needsApproval).toEqual([{ tool: 'place_order', confirm: 'write', maxCount: 2 }]);
  });

  // A real terminal: `script` runs the command on a pseudo-terminal and forwards our answer to it.
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript).each([
    ['y', 0],
    ['n', 1],
  ])('asks once on a terminal; answering %s', (answer, status) => {
    const file = scriptFile(ORDERS);
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} run ${JSON.stringify(file)} --tools ${JSON.stringify(tools)} --plan`;
    const child = spawnSync('sh', ['-c', `(sleep 1; echo ${answer}) | script -qec ${JSON.stringify(command)} /dev/null`], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 20_000,
    });
    expect(child.stdout).toMatch(/place_order +write +network +≤ 2/);
    expect(child.stdout.match(/Run this plan\? \[y\/N\]/g)).toHaveLength(1);
    // The calls the plan covers are not asked about again.
    expect(child.stdout).not.toMatch(/Allow place_order/);
    if (answer === 'y') expect(child.stdout).toMatch(/AAPL: filled\r?\nMSFT: filled/);
    else {
      expect(child.stdout).toMatch(/ToolDeniedError: the plan was not approved: nothing ran/);
      expect(child.stdout).not.toMatch(/filled/);
    }
    expect(child.status).toBe(status);
  });
});

describe('nuwa check on hostile input: a report, never a crash or a hang', () => {
  // In a child process with a memory cap and a kill timeout, as a user would run it.
  function checkCapped(source: string) {
    const child = spawnSync(process.execPath, ['--max-old-space-size=256', bin, 'check', '-', '--tools', tools, '--plan', '--json'], {
      cwd: root,
      input: source,
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(child.signal, child.stderr).toBeNull();
    expect(child.stderr).toBe('');
    return { status: child.status, report: JSON.parse(child.stdout) as { ok: boolean; problems: Array<{ kind: string }>; plan: { calls: Array<{ maxCount: number | null }> } } };
  }

  it('990 nested loops: the bound overflows to unbounded', () => {
    const { status, report } = checkCapped(`${'FOR a IN [1, 2] DO\n'.repeat(990)}PRINT(CALL get_price { symbol: "AAPL" })\n${'END\n'.repeat(990)}`);
    expect(status).toBe(0);
    expect(report.plan.calls).toEqual([expect.objectContaining({ tool: 'get_price', maxCount: null })]);
  });

  it('a chain of 100,000 operators and 1,000 nested parentheses', () => {
    expect(checkCapped(`LET x = 1${' + 1'.repeat(100_000)}\nPRINT(x)`).status).toBe(0);
    expect(checkCapped(`LET x = ${'('.repeat(1000)}1${')'.repeat(1000)}\nPRINT(x)`).status).toBe(0);
  });

  it('thousands of variables joined across thousands of IFs', () => {
    let source = '';
    for (let i = 0; i < 3000; i++) source += `LET v${i} = ${i}\n`;
    for (let i = 0; i < 3000; i++) source += `IF v${i} > 3 THEN\n  LET v${(i * 7) % 3000} = v${i} - 1\nEND\n`;
    expect(checkCapped(source).status).toBe(0);
  });

  it('thousands of problems among thousands of variables', () => {
    let source = '';
    for (let i = 0; i < 4000; i++) source += `LET v${i} = ${i}\nFOR t IN [1] DO\n  LET unread${i} = t\nEND\nPRINT(missing${i % 10})\n`;
    const { status, report } = checkCapped(source);
    expect(status).toBe(1);
    expect(report.problems.length).toBeGreaterThanOrEqual(8000); // each unread loop variable and each missing name
  });

  it('a literal list of 100,000 items bounds its loop', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => i).join(',');
    const { status, report } = checkCapped(`LET xs = [${list}]\nFOR x IN xs DO\n  PRINT(x)\nEND`);
    expect(status).toBe(0);
    expect(report.plan.calls).toEqual([]);
  });
});
