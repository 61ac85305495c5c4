// Hostile values, run in a child process with a 256 MB heap and a 60 s kill timer
// (test/support/hostile-values.ts), so that a regression kills the child, not the test run. Each case
// builds or expands about 2^40 items or characters in a few statements; with the value limits each
// ends quickly in LimitExceededError at the statement that would build the value. The cases run one
// after the other in one child (one start-up instead of ten); each prints its own line.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const script = path.join(root, 'test', 'support', 'hostile-values.ts');

interface Outcome {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runCases(): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', script], { cwd: root });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

interface CaseResult {
  case: string;
  ok?: boolean;
  kind?: string;
  message?: string;
  line?: number;
}

const CASES: Array<[string, number | undefined, RegExp]> = [
  ['list literal', 3, /the list would hold \d+ items and entries .* more than maxValueSize \(1000000\)/],
  ['APPEND', 3, /the list would hold \d+ items and entries .* more than maxValueSize \(1000000\)/],
  ['object literal and ==', 3, /the object would hold \d+ items and entries/],
  ['tool result', 1, /the value holds more than maxValueSize \(1000000\) items and entries/],
  ['setVar', 1, /the value holds more than maxValueSize \(1000000\)/],
  ['initial variable', undefined, /^the initial variable `x`: the value holds more than maxValueSize \(1000000\)/],
  ['FORMAT doubling', 3, /the text FORMAT builds would be 16777216 characters long, more than maxStringLength \(10000000\)/],
  ['shared long strings', 7, /the strings in the script's variables together would add up to \d+ characters .* more than maxStringLength \(10000000\)/],
  ['tool arguments', 5, /the arguments of `sink` would hold 1179646 items and entries/],
  ['many variables', 5, /the script's variables together would hold 1572860 items and entries/],
];

describe('hostile values end in LimitExceededError, in a child process with 256 MB', () => {
  let outcome: Outcome;
  const results = new Map<string, CaseResult>();
  beforeAll(async () => {
    outcome = await runCases();
    for (const line of outcome.stdout.split('\n').filter(Boolean)) {
      const result = JSON.parse(line) as CaseResult;
      results.set(result.case, result);
    }
  }, 70_000);

  it('the child ends by itself, neither killed nor crashed', () => {
    expect(outcome.signal, `killed: ${outcome.stderr.slice(-500)}`).toBeNull();
    expect(outcome.status, outcome.stderr.slice(-500)).toBe(0);
  });

  it.each(CASES)('%s', (name, line, message) => {
    const result = results.get(name);
    expect(result, `no result for ${name}: the child died before it (${outcome.stderr.slice(-300)})`).toBeDefined();
    expect(result!.kind).toBe('LimitExceededError');
    expect(result!.message).toMatch(message);
    expect(result!.line).toBe(line);
  });
});
