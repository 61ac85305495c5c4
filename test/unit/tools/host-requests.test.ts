// Unit tests for context.ask and context.llm (src/tools/host-requests.ts, TOOLS.md §11): the host's
// hooks, what they receive, how answers are checked, and how a hook that never answers is ended.
import { describe, expect, it } from 'vitest';
import { isNuwaError } from '../../../src/errors.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { AskHook, AskRequest, LlmCallInfo, LlmHook, LlmRequest, ToolContext } from '../../../src/tools/types.js';
import { failure, setup, tool } from '../../support/harness.js';

/** A tool that asks `question` (with `choices` when given) and returns the answer. */
const asker = (choices?: string[]) => tool('asker', (args, context) => context.ask(String(args.question ?? 'Your name?'), choices && { choices }));
/** A tool that has the host's model complete its `request` argument. */
const completer = tool('completer', (args, context) => context.llm(args.request as LlmRequest));

describe('context.ask', () => {
  it('goes to the host’s ask hook with the question, choices, tool name and callId, and resolves to the answer', async () => {
    const asked: AskRequest[] = [];
    const recorder = tool('recorder', async (_args, context) => context.ask('Deploy now?', { choices: ['yes', 'no'] }));
    const { interpreter } = setup([recorder], {
      ask: async (request) => {
        asked.push(request);
        return 'yes';
      },
    });
    const result = await interpreter.run('LET answer = CALL recorder {}');
    expect(result.variables.answer).toBe('yes');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ question: 'Deploy now?', choices: ['yes', 'no'], toolName: 'recorder' });
    // A question is a nested call of the tool's: its callId is the tool call's, then `>0` (DURABLE.md §1).
    expect(asked[0]!.callId).toBe('1:14>0');
    expect(asked[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  it('leaves choices out when the tool gave none, and takes an answer given synchronously', async () => {
    const asked: AskRequest[] = [];
    const { interpreter } = setup([asker()], { ask: (request) => (asked.push(request), 'Ada') });
    expect((await interpreter.run('LET name = CALL asker {}')).variables.name).toBe('Ada');
    expect('choices' in asked[0]!).toBe(false);
  });

  it('gives the hook a copy of the choices: changing them changes nothing for the tool', async () => {
    const { interpreter } = setup([asker(['a', 'b'])], {
      ask: (request) => {
        request.choices!.push('c');
        return 'c';
      },
    });
    const error = await failure(interpreter.run('CALL asker {}'));
    expect(error.message).toContain('the answer "c" is not one of the choices: "a", "b"');
  });

  it('without a hook fails with a ToolExecutionError the tool may catch', async () => {
    const caught: unknown[] = [];
    const careful = tool('careful', async (_args, context) => {
      try {
        return await context.ask('Anyone there?');
      } catch (error) {
        caught.push(error);
        return 'nobody';
      }
    });
    const { interpreter } = setup([careful, asker()]);
    expect((await interpreter.run('LET who = CALL careful {}')).variables.who).toBe('nobody');
    expect(isNuwaError(caught[0]) && caught[0].kind).toBe('ToolExecutionError');
    expect(String((caught[0] as Error).message)).toMatch(/^context\.ask: the host has no ask hook/);

    const error = await failure(interpreter.run('LET x = 1\nCALL asker {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/tool `asker` failed: context\.ask: the host has no ask hook/);
    expect([error.line, error.column]).toEqual([2, 1]);
  });

  it.each([
    ['a number', () => 42, 'answered number 42, not a string'],
    ['nothing', () => undefined, 'answered nothing, not a string'],
    ['an object', () => ({ answer: 'yes' }), 'answered {"answer":"yes"}, not a string'],
    ['a promise of null', async () => null, 'answered null, not a string'],
  ])('refuses an answer that is %s', async (_what, hook, message) => {
    const { interpreter } = setup([asker()], { ask: hook as unknown as AskHook });
    const error = await failure(interpreter.run('CALL asker {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain(`context.ask: the host's ask hook ${message}`);
  });

  it('refuses an answer that is not one of the choices, naming them', async () => {
    const { interpreter } = setup([asker(['small', 'large'])], { ask: () => 'medium' });
    const error = await failure(interpreter.run('CALL asker {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('context.ask: the answer "medium" is not one of the choices: "small", "large"');
  });

  it('turns a hook that throws or rejects into a ToolExecutionError with its message', async () => {
    for (const ask of [
      () => {
        throw new Error('the window was closed');
      },
      () => Promise.reject(new Error('the window was closed')),
    ]) {
      const { interpreter } = setup([asker()], { ask });
      const error = await failure(interpreter.run('CALL asker {}'));
      expect(error.kind).toBe('ToolExecutionError');
      expect(error.message).toContain("context.ask: the host's ask hook failed: the window was closed");
    }
  });

  it('passes a hook’s own ToolExecutionError on as it is', async () => {
    const { NuwaError } = await import('../../../src/errors.js');
    const { interpreter } = setup([asker()], {
      ask: () => {
        throw new NuwaError('ToolExecutionError', 'context.ask needs a terminal to ask on; there is none');
      },
    });
    const error = await failure(interpreter.run('CALL asker {}'));
    expect(error.message).toBe('tool `asker` failed: context.ask needs a terminal to ask on; there is none');
  });

  it('refuses bad questions and options with a TypeError the tool sees', async () => {
    const seen: string[] = [];
    const probe = tool('probe', async (_args, context) => {
      const attempts: Array<() => Promise<string>> = [
        () => context.ask(42 as unknown as string),
        () => context.ask('   '),
        () => context.ask('Pick', { choices: [] }),
        () => context.ask('Pick', { choices: ['a', 1 as unknown as string] }),
        () => context.ask('Pick', { choises: ['a'] } as never),
        () => context.ask('Pick', 'a' as never),
      ];
      for (const attempt of attempts) {
        try {
          await attempt();
        } catch (error) {
          seen.push(`${(error as Error).name}: ${(error as Error).message}`);
        }
      }
      return null;
    });
    const { interpreter } = setup([probe], { ask: () => 'never asked' });
    await interpreter.run('CALL probe {}');
    expect(seen).toEqual([
      'TypeError: context.ask(question): the question must be a non-empty string, not 42',
      'TypeError: context.ask(question): the question must be a non-empty string, not    ',
      'TypeError: context.ask(question, { choices }): choices must be a non-empty list of non-empty strings, not []',
      'TypeError: context.ask(question, { choices }): choices must be a non-empty list of non-empty strings, not ["a",1]',
      'TypeError: context.ask(question, options): unknown option "choises" (the only option is choices)',
      'TypeError: context.ask(question, options): options must be an object such as { choices: ["yes", "no"] }',
    ]);
  });

  it('a hook that never answers is ended by the run’s timeout, and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const { interpreter } = setup([asker()], {
      limits: { timeoutMs: 50 },
      ask: (request) => {
        signal = request.signal;
        return new Promise<string>(() => {});
      },
    });
    const error = await failure(interpreter.run('CALL asker {}'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(50 ms\)/);
    expect(signal?.aborted).toBe(true);
  });

  it('a hook that never answers is ended by the tool’s own timeout', async () => {
    const { interpreter } = setup([tool('slow_asker', (_args, context) => context.ask('Still there?'), { timeoutMs: 30 })], { ask: () => new Promise<string>(() => {}) });
    const error = await failure(interpreter.run('CALL slow_asker {}'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/tool `slow_asker` took longer than its timeoutMs \(30 ms\)/);
  });

  it('the host’s cancellation ends the wait for an answer with AbortedError', async () => {
    const controller = new AbortController();
    const { interpreter } = setup([asker()], {
      ask: () => {
        queueMicrotask(() => controller.abort());
        return new Promise<string>(() => {});
      },
    });
    const error = await failure(interpreter.run('CALL asker {}', { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
  });

  it('a tool that catches the stop still ends with the run’s stop, not its own answer', async () => {
    const { interpreter } = setup(
      [
        tool('stubborn', async (_args, context) => {
          try {
            return await context.ask('Well?');
          } catch {
            return 'carried on';
          }
        }),
      ],
      { limits: { timeoutMs: 40 }, ask: () => new Promise<string>(() => {}) },
    );
    expect((await failure(interpreter.run('CALL stubborn {}'))).kind).toBe('LimitExceededError');
  });

  it('tools called by tools ask too, under their own name', async () => {
    const asked: AskRequest[] = [];
    const outer = tool('outer', async (_args, context) => `outer got ${String(await context.callTool('asker', { question: 'Inner question?' }))}`);
    const { interpreter } = setup([outer, asker()], { ask: (request) => (asked.push(request), 'forty-two') });
    expect((await interpreter.run('LET r = CALL outer {}')).variables.r).toBe('outer got forty-two');
    expect(asked.map((request) => [request.toolName, request.question])).toEqual([['asker', 'Inner question?']]);
  });

  it('a context whose run has ended refuses to ask', async () => {
    let kept: ToolContext | undefined;
    const { interpreter } = setup([tool('keeper', (_args, context) => ((kept = context), null))], { ask: () => 'late' });
    await interpreter.run('CALL keeper {}');
    const late = await kept!.ask('Too late?').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isNuwaError(late) && [late.kind, late.message]).toEqual(['AbortedError', 'context.ask: the run that called `keeper` has ended']);
  });

  it('a hook option that is not a function is refused when the interpreter is made', () => {
    expect(() => new Interpreter(new ToolRegistry(), { ask: 'yes' as never })).toThrow(/`ask` must be a function/);
    expect(() => new Interpreter(new ToolRegistry(), { llm: {} as never })).toThrow(/`llm` must be a function/);
  });
});

describe('context.llm', () => {
  it('sends a prompt string, or a conversation, to the host’s llm hook and resolves to its text', async () => {
    const requests: Array<[LlmRequest, LlmCallInfo]> = [];
    const llm: LlmHook = (request, call) => {
      requests.push([request, call]);
      return Promise.resolve(typeof request === 'string' ? `echo: ${request}` : `${request.messages.length} messages`);
    };
    const { interpreter } = setup([completer], { llm });
    const result = await interpreter.run(
      'LET a = CALL completer { request: "Say hi" }\nLET b = CALL completer { request: { messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }, { role: "user", content: "Bye" }], system: "Be brief", maxTokens: 20 } }',
    );
    expect(result.variables).toMatchObject({ a: 'echo: Say hi', b: '3 messages' });
    expect(requests[0]![0]).toBe('Say hi');
    expect(requests[1]![0]).toEqual({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Bye' },
      ],
      system: 'Be brief',
      maxTokens: 20,
    });
    expect(requests[1]![1]).toMatchObject({ toolName: 'completer', callId: expect.any(String) });
  });

  it('without a hook fails with a ToolExecutionError', async () => {
    const { interpreter } = setup([completer]);
    const error = await failure(interpreter.run('CALL completer { request: "hello" }'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain('context.llm: the host has no llm hook');
  });

  it.each([
    [{}, 'messages must be a non-empty list'],
    [{ messages: [] }, 'messages must be a non-empty list'],
    [{ messages: [{ role: 'system', content: 'x' }] }, 'messages[0] must be { role: "user" | "assistant", content: "<text>" }'],
    [{ messages: [{ role: 'user', content: 1 }] }, 'messages[0] must be'],
    [{ messages: [{ role: 'user', content: 'x' }], maxTokens: 0 }, 'maxTokens must be a positive whole number, not 0'],
    [{ messages: [{ role: 'user', content: 'x' }], system: 3 }, 'system must be a string, not 3'],
    [{ messages: [{ role: 'user', content: 'x' }], temperature: 1 }, 'unknown field "temperature"'],
    [['Say hi'], 'the request must be a prompt string or { messages'],
    ['', 'the prompt is empty'],
  ])('refuses the request %j', async (request, message) => {
    const { interpreter } = setup([completer], { llm: () => 'unused' });
    const error = await failure(interpreter.run(`CALL completer { request: ${JSON.stringify(request)} }`));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toContain(`context.llm(request): ${message}`);
  });

  it('refuses a reply that is not text', async () => {
    const { interpreter } = setup([completer], { llm: async () => ({ text: 'hi' }) as unknown as string });
    const error = await failure(interpreter.run('CALL completer { request: "hello" }'));
    expect(error.message).toContain(`context.llm: the host's llm hook answered {"text":"hi"}, not a string`);
  });

  it('a model that never replies is ended by the run’s timeout', async () => {
    const { interpreter } = setup([completer], { limits: { timeoutMs: 50 }, llm: () => new Promise<string>(() => {}) });
    expect((await failure(interpreter.run('CALL completer { request: "hello" }'))).kind).toBe('LimitExceededError');
  });
});

describe('registry.execute with ask and llm', () => {
  it('passes the hooks of the call, or else the registry’s, to the tool', async () => {
    const registry = new ToolRegistry({ llm: () => 'from the registry' });
    registry.register(asker(['red', 'blue']));
    registry.register(completer);
    expect(await registry.execute({ name: 'asker', arguments: { question: 'Colour?' } }, { ask: () => 'blue' })).toMatchObject({ success: true, data: 'blue' });
    expect(await registry.execute({ name: 'completer', arguments: { request: 'hi' } })).toMatchObject({ success: true, data: 'from the registry' });
    expect(await registry.execute({ name: 'completer', arguments: { request: 'hi' } }, { llm: () => 'from the call' })).toMatchObject({ success: true, data: 'from the call' });
    const refused = await registry.execute({ name: 'asker', arguments: {} });
    expect(refused).toMatchObject({ success: false, code: 'ToolExecutionError' });
    expect(refused.error).toContain('context.ask: the host has no ask hook');
    expect(await registry.execute({ name: 'asker', arguments: {} }, { ask: () => 'green' })).toMatchObject({ success: false, error: expect.stringContaining('"green" is not one of the choices: "red", "blue"') });
  });

  it('refuses hooks that are not functions', async () => {
    const registry = new ToolRegistry();
    registry.register(asker());
    expect(await registry.execute({ name: 'asker', arguments: {} }, { ask: 'yes' as never })).toMatchObject({ success: false, error: expect.stringContaining('`ask` must be a function') });
    expect(() => new ToolRegistry({ llm: 1 as never })).toThrow(/`llm` must be a function/);
  });
});

describe('a context made outside a run', () => {
  it('has nobody to ask', async () => {
    const registry = new ToolRegistry();
    const error = await registry.createToolContext().ask('Anyone?').catch((thrown: unknown) => thrown);
    expect(isNuwaError(error) && error.kind).toBe('ToolExecutionError');
  });
});
