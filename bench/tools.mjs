// The tools the benchmark scripts call, and the plain-JavaScript floors they are measured against.
// The floors are written the way ../shared/bench/baseline.mjs writes them (the tools awaited once
// per call, as an interpreter must, since it cannot know in advance that a tool is synchronous),
// but as functions, so that they run warm in the same process as the interpreter.

const rangeOf = (n) => Array.from({ length: n }, (_, i) => i);

/** `range { n } -> [0..n-1]` and `inc { value } -> value + 1`, as async or as plain functions. */
export function benchTools(kind) {
  const range = kind === 'sync' ? ({ n }) => rangeOf(n) : async ({ n }) => rangeOf(n);
  const inc = kind === 'sync' ? ({ value }) => value + 1 : async ({ value }) => value + 1;
  return [
    {
      name: 'range',
      description: 'The numbers 0 .. n-1.',
      parameters: [{ name: 'n', description: 'how many', type: 'number' }],
      returns: 'array',
      execute: range,
    },
    {
      name: 'inc',
      description: 'value + 1',
      parameters: [{ name: 'value', description: 'a number', type: 'number' }],
      returns: 'number',
      execute: inc,
    },
  ];
}

/** eval_loop.nuwa in plain JavaScript. */
export async function evalLoopFloor(print) {
  const range = async ({ n }) => rangeOf(n);
  const xs = await range({ n: 200000 });
  let sum = 0;
  let evens = 0;
  for (const x of xs) {
    sum = sum + x * 2 - 1;
    if (x % 2 === 0) evens = evens + 1;
  }
  print(String(sum));
  print(String(evens));
}

/** call_heavy.nuwa in plain JavaScript, with the same kind of tools as the interpreter gets. */
export function callHeavyFloor(kind) {
  const [rangeTool, incTool] = benchTools(kind);
  return async (print) => {
    const xs = await rangeTool.execute({ n: 100000 });
    let total = 0;
    for (const x of xs) {
      const y = await incTool.execute({ value: x });
      total = total + y;
    }
    print(String(total));
  };
}
