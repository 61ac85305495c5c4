// End-to-end tests of `nuwa tools` and `nuwa prompt` (CLI.md): each spawns bin/nuwa on the built
// package, with tools modules in every form a host brings (Nuwa, Zod-typed, defineTool).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const examples = path.join('examples', 'tools.mjs');
const mixed = path.join('test', 'e2e', 'fixtures', 'tools-mixed.mjs');

function nuwa(args: string[], env: Record<string, string | undefined> = { NO_COLOR: '1' }) {
  const child = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 20_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}


describe('nuwa tools', () => {
  it('lists one line per tool: name, risk level, category, source and the first sentence', () => {
    const result = nuwa(['tools', '--tools', mixed]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'get_forecast      none         network  module      Weather forecast for a city.',
      'convert_currency  none         data     module      Convert an amount between currencies.',
      'file_delete       destructive  file     module      Delete a file permanently.',
      '',
    ]);
  });

  it('lists the example tools', () => {
    const lines = nuwa(['tools', '--tools', examples]).stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[3]).toMatch(/^place_order\s+write\s+network\s+module\s+Buy or sell shares at the current price\.$/);
  });

  it('describes one tool: parameters with types, required marks, defaults and descriptions, the result type and risk level', () => {
    const result = nuwa(['tools', 'get_forecast', '--tools', mixed]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      [
        'get_forecast',
        'Weather forecast for a city. Temperatures are in °C.',
        '',
        'risk level  none (runs without asking)',
        'category    network',
        'source      module',
        'keywords    weather, rain',
        '',
        'Parameters',
        '  city   string                 required          City name',
        '  days   integer                default 3         How many days; ≥ 1, ≤ 14',
        '  units  "metric" | "imperial"  default "metric"',
        '',
        'Returns  list of object',
        '',
      ].join('\n'),
    );
  });

  it('describes a Zod-typed tool and a defineTool tool (found by its id too)', () => {
    expect(nuwa(['tools', 'convert_currency', '--tools', mixed]).stdout).toMatch(/ {2}amount {2}number {2}required {2}Amount to convert; > 0\n/);
    const byId = nuwa(['tools', 'file-delete', '--tools', mixed]);
    expect(byId.status).toBe(0);
    expect(byId.stdout).toMatch(/^file_delete\n/);
    expect(byId.stdout).toMatch(/risk level {2}destructive \(cannot be undone; asks for approval by default\)/);
    expect(byId.stdout).toMatch(/id {10}file-delete\ntitle {7}File Delete/);
  });

  it('an unknown tool name is a usage error with a suggestion', () => {
    const result = nuwa(['tools', 'get_forcast', '--tools', mixed]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^nuwa: there is no tool "get_forcast": did you mean `get_forecast`\?\n/);
  });

  it('--search ranks the tools for an intent, with scores', () => {
    const result = nuwa(['tools', '--search', 'will it rain tomorrow', '--tools', mixed]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('1.00  get_forecast  none         Weather forecast for a city.\n');
    expect(nuwa(['tools', '--search', 'xylophone', '--tools', mixed]).stdout).toBe('No tool matches "xylophone".\n');
  });

  it('--json for the list, one tool and a search', () => {
    const list = JSON.parse(nuwa(['tools', '--json', '--tools', mixed]).stdout);
    expect(list.failures).toEqual([]);
    expect(list.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_forecast', 'convert_currency', 'file_delete']);
    expect(list.tools[2]).toMatchObject({ name: 'file_delete', id: 'file-delete', title: 'File Delete', confirm: 'destructive', category: 'file', source: 'module', returns: 'any' });
    const one = JSON.parse(nuwa(['tools', 'get_forecast', '--json', '--tools', mixed]).stdout);
    expect(one.parameters).toEqual([
      { name: 'city', type: 'string', required: true, description: 'City name' },
      { name: 'days', type: 'integer', required: false, default: 3, description: 'How many days', constraints: '≥ 1, ≤ 14' },
      { name: 'units', type: '"metric" | "imperial"', required: false, default: 'metric' },
    ]);
    expect(one.parametersSchema).toMatchObject({ type: 'object', required: ['city'], additionalProperties: false });
    const search = JSON.parse(nuwa(['tools', '--search', 'currency', '--json', '--tools', mixed]).stdout);
    expect(search).toMatchObject({ intent: 'currency', results: [{ name: 'convert_currency', score: 1, ftsRank: 1 }] });
  });

  it('a name and --search together, or two names, are usage errors', () => {
    expect(nuwa(['tools', 'a', '--search', 'b']).status).toBe(2);
    expect(nuwa(['tools', 'a', 'b']).status).toBe(2);
    expect(nuwa(['tools', '--bogus']).status).toBe(2);
  });

  it('a tools module that fails to load is a usage error', () => {
    const result = nuwa(['tools', '--tools', 'no-such-file.mjs']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot load tools from no-such-file\.mjs: no such file/);
  });

  it('--help', () => {
    expect(nuwa(['tools', '--help']).stdout).toMatch(/^Usage: nuwa tools \[<name>\] \[options\]/);
    expect(nuwa(['--help']).stdout).toMatch(/nuwa tools \[<name>\]/);
  });
});

describe('nuwa prompt', () => {
  it('prints the prompt for the loaded tools', () => {
    const result = nuwa(['prompt', '--tools', mixed]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^You write Nuwa Script/);
    expect(result.stdout).toContain('- get_forecast { city: string "City name", days?: integer = 3 (≥ 1, ≤ 14) "How many days", units?: "metric" | "imperial" = "metric" } → list of object');
    expect(result.stdout).toContain('- convert_currency { amount: number (> 0) "Amount to convert", from: string');
    expect(result.stdout).toMatch(/- file_delete \{ path: string "File path" \} → any: Delete a file permanently\. \[asks approval: destructive\]/);
    expect(result.stdout).not.toContain('## Current state');
  });

  it('with --state, includes the state', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-prompt-'));
    const state = path.join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ home: 'Lisbon', trips: 2 }));
    const result = nuwa(['prompt', '--tools', mixed, '--state', state]);
    expect(result.stdout).toContain('## Current state (shared by the tools; plan with it)\nhome: Lisbon\ntrips: 2\n');
  });

  it('works without tools, and refuses arguments', () => {
    expect(nuwa(['prompt']).stdout).toContain('No tools are available');
    expect(nuwa(['prompt', 'extra']).status).toBe(2);
    expect(nuwa(['prompt', '--help']).stdout).toMatch(/^Usage: nuwa prompt/);
  });
});
