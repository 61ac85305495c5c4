// The examples gallery (examples/README.md). Every example — a script in examples/ or
// examples/errors/, or a host program run with node — has a golden transcript next to it,
// `<name>.out`: a shell session that starts with the command in the example's header comment and
// shows what it prints (stdout and stderr, as a terminal shows them), then `$ echo $?` and the exit
// status. The test replays each session with bin/nuwa as `nuwa` and compares. After a deliberate
// change, `UPDATE_EXAMPLES=1 npx vitest run test/examples.test.ts` rewrites the outputs (read the diff).
//
// It also checks that examples/README.md teaches every example with its command, and that the
// examples together use every statement, operator, built-in and error kind, state and toolsets.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../src/errors.js';
import { BUILTIN_NAMES } from '../src/runtime/builtins.js';
import { parse } from '../src/syntax/parse.js';
import { cleanUp, parseSession, renderSession, root, runSession } from './support/snippets.js';

const UPDATE = process.env.UPDATE_EXAMPLES === '1';

interface Example {
  /** Path from the repository root, e.g. examples/errors/type-error.nuwa. */
  file: string;
  /** The command of its header comment: `//   nuwa run examples/...`. */
  command: string;
  transcript: string;
}

/** The command a file's header comment gives, and whether that command runs this very file. */
function headerCommand(file: string): { command: string; runsItself: boolean } | undefined {
  const header = /^\/\/ {3}((?:nuwa|node) .*)$/m.exec(readFileSync(path.join(root, file), 'utf8'));
  if (!header) return undefined;
  const command = header[1]!;
  const [program, first, second] = command.split(' ');
  return { command, runsItself: (program === 'node' ? first : second) === file };
}

function findExamples(): { examples: Example[]; problems: string[] } {
  const examples: Example[] = [];
  const problems: string[] = [];
  for (const dir of ['examples', 'examples/errors']) {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const file = `${dir}/${name}`;
      if (!/\.(nuwa|mjs)$/.test(name)) continue;
      const header = headerCommand(file);
      if (name.endsWith('.nuwa') && !header?.runsItself) problems.push(`${file}: its header comment has no \`//   nuwa ... ${file}\` line`);
      if (!header?.runsItself) continue; // a tools module: its header shows a script that uses it
      const out = file.replace(/\.(nuwa|mjs)$/, '.out');
      if (!existsSync(path.join(root, out))) {
        if (UPDATE) writeFileSync(path.join(root, out), `$ ${header.command}\n$ echo $?\n`);
        else {
          problems.push(`${file}: no golden transcript ${out}`);
          continue;
        }
      }
      examples.push({ file, command: header.command, transcript: readFileSync(path.join(root, out), 'utf8') });
    }
  }
  return { examples, problems };
}

const { examples, problems } = findExamples();

describe('the examples', () => {
  afterAll(cleanUp);

  it('are at least ten, each with a header command and a golden transcript', () => {
    expect(problems).toEqual([]);
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples.map((example) => [example.file, example] as const))('%s prints what its transcript shows', (_name, example) => {
    const steps = parseSession(example.transcript);
    expect(steps[0]?.command, 'the transcript starts with the command of the header comment').toBe(example.command);
    steps.forEach((step, i) => {
      if (step.command !== 'echo $?') expect(steps[i + 1]?.command, `\`echo $?\` follows \`${step.command}\``).toBe('echo $?');
    });
    const outputs = runSession(steps);
    if (UPDATE) writeFileSync(path.join(root, example.file.replace(/\.(nuwa|mjs)$/, '.out')), renderSession(steps, outputs));
    else steps.forEach((step, i) => expect(outputs[i], `$ ${step.command}`).toBe(step.expected));
  });
});

describe('examples/README.md', () => {
  const course = readFileSync(path.join(root, 'examples', 'README.md'), 'utf8');

  it.each(examples.map((example) => [example.file, example] as const))('teaches %s with its command', (_name, example) => {
    const relative = path.relative('examples', example.file);
    expect(course, `a link to ${relative}`).toContain(`](${relative})`);
    expect(course, 'the command').toContain(example.command);
  });
});

describe('what the examples cover together', () => {
  const scripts = examples.filter((example) => example.file.endsWith('.nuwa') && !example.file.includes('/errors/'));
  const used = new Set<string>();
  for (const { file } of scripts) {
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.type === 'string') {
        used.add(n.type);
        if (typeof n.operator === 'string') used.add(`${n.type} ${n.operator}`);
        if (n.type === 'FunctionCall') used.add(`builtin ${n.name as string}`);
        if (n.type === 'Call' && (n.tool as string).includes('.')) used.add('toolset');
        if (n.type === 'If' && n.alternate !== null) used.add('If ELSE');
        if (n.type === 'ExpressionStatement') used.add(`statement ${(n.expression as { type: string }).type}`);
        if (n.type === 'Literal') used.add(`literal ${n.value === null ? 'null' : typeof n.value}`);
      }
      for (const value of Object.values(n)) visit(value);
    };
    visit(parse(readFileSync(path.join(root, file), 'utf8')));
  }

  it('every statement and expression', () => {
    const wanted = ['Let', 'If', 'If ELSE', 'For', 'statement Call', 'statement FunctionCall', 'List', 'Object', 'Member', 'Index', 'Call', 'Calc', 'Variable'];
    wanted.push('literal number', 'literal string', 'literal boolean', 'literal null');
    expect(wanted.filter((what) => !used.has(what))).toEqual([]);
  });

  it('every operator', () => {
    const operators = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>='].map((op) => `Binary ${op}`);
    operators.push('Logical AND', 'Logical OR', 'Unary NOT', 'Unary -', 'Unary +');
    expect(operators.filter((what) => !used.has(what))).toEqual([]);
  });

  it('every built-in', () => {
    expect(BUILTIN_NAMES.filter((name) => !used.has(`builtin ${name}`))).toEqual([]);
  });

  it('toolsets and session state', () => {
    expect(used.has('toolset')).toBe(true);
    expect(examples.some((example) => example.command.includes('--state '))).toBe(true);
  });

  it('every error kind, each shown as a user meets it', () => {
    const shown = examples.map((example) => example.transcript).join('\n');
    expect(ERROR_KINDS.filter((kind) => !new RegExp(`\\b${kind}: `).test(shown))).toEqual([]);
  });
});
