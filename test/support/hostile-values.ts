// Hostile value cases, run in a child process by test/unit/values/hostile.test.ts with a small heap
// and a kill timer: `node --max-old-space-size=256 --import tsx hostile-values.ts [case ...]`.
// Runs each case (all of them by default) on a fresh Interpreter, one after the other, and prints
// one JSON line per case: its name, and {"ok":true} or the NuwaError's kind, message and line.
// Without the value limits each case builds or expands about 2^40 items (or characters), and the
// process dies or hangs.
import { Interpreter, NuwaError, ToolRegistry, type JsonValue } from '../../src/index.js';

function doubled(times: number): JsonValue {
  let value: JsonValue = ['leaf'];
  for (let i = 0; i < times; i++) value = [value, value];
  return value;
}

const registry = new ToolRegistry();
registry.register({ name: 'doubled', description: 'a self-sharing array', parameters: [], returns: 'any', execute: () => doubled(40) });
registry.register({ name: 'sink', description: 'takes anything', parameters: { type: 'object', additionalProperties: true }, returns: 'any', execute: () => null });
registry.register({
  name: 'set_shared',
  description: 'setVar with a self-sharing value',
  parameters: [],
  returns: 'any',
  execute: (_args, context) => {
    context.setVar('x', doubled(40));
    return null;
  },
});

const DOUBLE_40 = (body: string) => `LET x = [1]\nFOR i IN RANGE(40) DO\n  ${body}\nEND`;

const CASES: Record<string, { source: string; variables?: Record<string, unknown> }> = {
  'list literal': { source: `${DOUBLE_40('LET x = [x, x]')}\nPRINT(x)` },
  'APPEND': { source: `${DOUBLE_40('LET x = APPEND(x, x)')}\nPRINT(x)` },
  'object literal and ==': { source: 'LET x = {}\nFOR i IN RANGE(40) DO\n  LET x = {a: x, b: x}\n  PRINT(x == {a: x.b, b: x.a})\nEND' },
  'tool result': { source: 'LET t = CALL doubled {}\nPRINT(t)' },
  'setVar': { source: 'CALL set_shared {}\nPRINT(x)' },
  'initial variable': { source: 'PRINT(x)', variables: { x: doubled(40) } },
  'FORMAT doubling': { source: 'LET s = "ab"\nFOR i IN RANGE(40) DO\n  LET s = FORMAT("{a}{a}", {a: s})\nEND' },
  'shared long strings': { source: `LET s = "ab"\nFOR i IN RANGE(21) DO\n  LET s = FORMAT("{a}{a}", {a: s})\nEND\n${DOUBLE_40('LET x = [s, x, s]')}\nPRINT(x)` },
  // x holds 393,214 items: each argument is within the limit, the four together are not.
  'tool arguments': { source: `${DOUBLE_40('LET x = [x, x]').replace('RANGE(40)', 'RANGE(17)')}\nCALL sink {a: x, b: x, c: x, d: x}` },
  // x holds 786,430 items: one variable is within the limit, x and v0 together are not.
  'many variables': { source: `${DOUBLE_40('LET x = [x, x]').replace('RANGE(40)', 'RANGE(18)')}\n${Array.from({ length: 2000 }, (_, i) => `LET v${i} = x`).join('\n')}` },
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(CASES)) {
  const chosen = CASES[name];
  if (!chosen) throw new Error(`no case ${name}`);
  const interpreter = new Interpreter(registry, { print: () => {}, limits: { timeoutMs: 60_000, maxSteps: 1e9 } });
  try {
    await interpreter.run(chosen.source, chosen.variables ? { variables: chosen.variables } : {});
    process.stdout.write(`${JSON.stringify({ case: name, ok: true })}\n`);
  } catch (error) {
    if (!(error instanceof NuwaError)) throw error;
    process.stdout.write(`${JSON.stringify({ case: name, kind: error.kind, message: error.message, line: error.line })}\n`);
  }
}
