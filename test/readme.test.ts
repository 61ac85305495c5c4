// Runs the README's code, so that what a reader copies works. A fenced block is run when its info
// string says `test` after the language:
//
//   ```ts test              a TypeScript (or `js test`) program, run with node + tsx as its own process;
//   ```ts test prelude=model   ... with test/readme/<name>.ts imported first, which puts what the
//                           block uses but does not define on globalThis (a stand-in for a model client)
//   ```sh test              one `nuwa ...` command, run with bin/nuwa from the repository root
//
// A ```text output block right after it holds the exact stdout expected. GitHub shows only the
// language, so the markers stay invisible to readers. Programs import 'nuwa-script' as a user does:
// they are written inside the package, so the name resolves to the built package (npm test builds it
// first), and any other import to the repository's node_modules.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Block {
  info: string[];
  body: string;
  line: number;
  heading: string;
}

/** The fenced code blocks of a Markdown text, with the heading each one is under. */
export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const open = /^(`{3,})(.*)$/.exec(line);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(fence); i++) body.push(lines[i]!);
    blocks.push({ info: open[2]!.trim().split(/\s+/).filter(Boolean), body: body.join('\n'), line: start + 1, heading });
  }
  return blocks;
}

/** Splits a command line into words, honouring single and double quotes (no shell is involved). */
function words(command: string): string[] {
  const out: string[] = [];
  for (const match of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3]!);
  return out;
}

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const blocks = fencedBlocks(readme);
const tested = blocks.flatMap((block, index) => {
  if (block.info[1] !== 'test') return [];
  const next = blocks[index + 1];
  const expected = next && next.info[0] === 'text' && next.info[1] === 'output' ? `${next.body}\n` : undefined;
  const options = Object.fromEntries(block.info.slice(2).map((option) => option.split('=') as [string, string]));
  return [{ ...block, expected, options }];
});

let workDir: string | undefined;
afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function run(block: (typeof tested)[number]): { status: number | null; stdout: string; stderr: string } {
  const language = block.info[0];
  if (language === 'sh') {
    const [command, ...args] = words(block.body.trim());
    if (command !== 'nuwa' || block.body.trim().includes('\n')) throw new Error(`README.md:${block.line}: a sh test block holds one nuwa command`);
    const child = spawnSync(process.execPath, [path.join(root, 'bin', 'nuwa'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
    return { status: child.status, stdout: child.stdout, stderr: child.stderr };
  }
  if (language !== 'ts' && language !== 'js') throw new Error(`README.md:${block.line}: cannot run a ${language} block`);
  workDir ??= mkdtempSync(path.join(root, '.readme-run-'));
  const prelude = block.options.prelude ? `import ${JSON.stringify(path.join(root, 'test', 'readme', `${block.options.prelude}.ts`))};\n` : '';
  const file = path.join(workDir, `readme-${block.line}.mts`);
  writeFileSync(file, prelude + block.body);
  const child = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('README.md', () => {
  it('has code blocks marked for testing', () => {
    expect(tested.length).toBeGreaterThanOrEqual(6);
  });

  it.each(tested.map((block) => [`${block.heading} (README.md:${block.line})`, block] as const))('%s runs', (_name, block) => {
    const result = run(block);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    if (block.expected !== undefined) expect(result.stdout).toBe(block.expected);
  });
});
