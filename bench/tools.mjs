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

/**
 * The JavaScript twin of parse_1mb.nuwa (../shared/bench/gen.mjs writes its blocks): the same
 * statements, block for block, as a JavaScript program, for acorn to parse. A LET in a branch or a
 * loop body becomes a `let` in that block, and FORMAT a call of a function named format.
 */
export function parseWorkloadInJs(nuwaText) {
  const blocks = nuwaText.match(/^\/\/ block \d+$/gm)?.length ?? 0;
  let js = '';
  for (let i = 0; i < blocks; i++) {
    js += `// block ${i}\nvar a${i} = ${i} * 2 + (3 - 1) / 4;\n`;
    js += `var o${i} = { name: "item ${i}", tags: ["x", "y"], n: a${i} };\n`;
    js += `if (a${i} > 10 && !(a${i} == 7)) {\n  var r${i} = format("v={v}", { v: o${i}.name });\n} else {\n  var r${i} = o${i}.tags[0];\n}\n`;
    js += `for (const t of o${i}.tags) {\n  var last = t;\n}\n`;
  }
  return js;
}

/**
 * `count` different 5-line scripts (a tool call, arithmetic, a condition, FORMAT and PRINT), each
 * as Nuwa Script and as the JavaScript body an AsyncFunction(tools, print, format) runs. `first`
 * numbers them, so that every round measures texts neither side has seen (V8 caches compiled code
 * by its text).
 */
export function fiveLineScripts(first, count) {
  const scripts = [];
  for (let i = first; i < first + count; i++) {
    scripts.push({
      nuwa: `LET q = CALL inc { value: ${i} }\nLET total = q * 2 + ${i % 7}\nIF total > ${i % 100} THEN\n  PRINT(FORMAT("{i}: {t}", { i: ${i}, t: total }))\nEND\n`,
      js: `let q = await tools.inc({ value: ${i} });\nlet total = q * 2 + ${i % 7};\nif (total > ${i % 100}) {\n  print(format("{i}: {t}", { i: ${i}, t: total }));\n}\n`,
    });
  }
  return scripts;
}

/** FORMAT for the JavaScript floor: each `{name}` replaced by the value's text. */
export const formatFloor = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
