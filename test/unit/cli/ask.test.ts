// Unit tests for src/cli/ask.ts: how the command line turns a line typed at the terminal into the
// answer of a tool's context.ask (the terminal itself: test/e2e/ask.test.ts).
import { describe, expect, it } from 'vitest';
import { chooseFrom, cliAsk } from '../../../src/cli/ask.js';
import { isNuwaError } from '../../../src/errors.js';

const signal = new AbortController().signal;

describe('chooseFrom', () => {
  const sizes = ['small', 'medium', 'large'];
  it.each([
    ['2', 'medium'],
    [' 3 ', 'large'],
    ['small', 'small'],
    ['LARGE', 'large'],
    ['4', undefined],
    ['0', undefined],
    ['huge', undefined],
    ['', undefined],
  ])('%j → %j', (typed, chosen) => {
    expect(chooseFrom(sizes, typed)).toBe(chosen);
  });

  it('takes the exact text when choices differ only in case, and refuses the ambiguous folded one', () => {
    expect(chooseFrom(['Yes', 'YES'], 'YES')).toBe('YES');
    expect(chooseFrom(['Yes', 'YES'], 'yes')).toBeUndefined();
  });
});

describe('cliAsk', () => {
  it('shows the question with its choices numbered, and asks again until a choice is named', async () => {
    const prompts: string[] = [];
    const answers = ['seven', '2'];
    const ask = cliAsk({ interactive: true, command: 'run', readLine: async (prompt) => (prompts.push(prompt), answers.shift()!) });
    expect(await ask({ question: 'Which size?', choices: ['small', 'large'], toolName: 'shop', callId: 'x', signal })).toBe('large');
    expect(prompts).toEqual(['shop asks: Which size?\n  1) small\n  2) large\nChoose 1-2: ', 'Answer with a number from 1 to 2, or one of the choices as written: ']);
  });

  it('without choices, the line typed is the answer', async () => {
    const ask = cliAsk({ interactive: true, command: 'run', readLine: async () => 'Ada' });
    expect(await ask({ question: 'Name?', toolName: 'greet', callId: 'x', signal })).toBe('Ada');
  });

  it('without a terminal, refuses with a ToolExecutionError naming the command', async () => {
    const ask = cliAsk({ interactive: false, command: 'run' });
    let thrown: unknown;
    try {
      await ask({ question: 'Name?', toolName: 'greet', callId: 'x', signal });
    } catch (error) {
      thrown = error;
    }
    expect(isNuwaError(thrown) && thrown.kind).toBe('ToolExecutionError');
    expect((thrown as Error).message).toMatch(/^context\.ask needs a terminal to ask on; nuwa run has none here/);
  });
});
