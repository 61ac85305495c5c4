// The fast tool of bench/dbos.ts, the same in the workers and in the in-memory run it is compared with.
import type { ToolDefinition } from '../src/tools/types.js';

export const fastTool: ToolDefinition = {
  name: 'fast',
  description: 'Squares a number at once',
  parameters: [{ name: 'i', description: 'A number', type: 'number' }],
  returns: 'number',
  confirm: 'read',
  execute: ({ i }) => (i as number) * (i as number),
};

/** Ten fast calls. */
export const TEN_CALLS = 'LET total = 0\nFOR i IN RANGE(10) DO\n  LET total = total + CALL fast { i: i }\nEND\nPRINT(total)';
