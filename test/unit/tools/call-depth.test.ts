// Tools calling tools (issue 5.4, TOOLS.md §7 maxCallDepth): a tool that calls itself through
// context.callTool, awaited or not, ends in LimitExceededError; a call fired off without awaiting it
// never becomes an unhandled rejection. The hostile cases run in a plain child host (no
// unhandledRejection handler, capped memory, a kill timeout), where a regression is a crash.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, resolveLimits } from '../../../src/tools/limits.js';
import { failure, setup, tool } from '../../support/harness.js';
import { lastJson, runChild, src } from '../../support/child.js';

/** Child code: runs `script` against tools defined by `toolsCode` (which registers on `registry`), prints the outcome as JSON. */
function child(toolsCode: string, script: string, limits: object = {}): string {
  return `
    import { Interpreter, ToolRegistry, isNuwaError } from ${JSON.stringify(src('index.ts'))};
    const registry = new ToolRegistry();
    ${toolsCode}
    const interpreter = new Interpreter(registry, { print: () => {}, limits: ${JSON.stringify({ timeoutMs: 10_000, ...limits })} });
    let outcome;
    try {
      const result = await interpreter.run(${JSON.stringify(script)});
      outcome = { ok: true, variables: result.variables, toolCalls: result.stats.toolCalls };
    } catch (error) {
      outcome = { ok: false, nuwa: isNuwaError(error), kind: error.kind, message: error.message, line: error.line };
    }
    // Give late rejections time to surface: in this plain host they would kill the process.
    await new Promise((resolve) => setTimeout(resolve, 200));
    console.log(JSON.stringify(outcome));
  `;
}

const define = (name: string, execute: string) =>
  `registry.register({ name: ${JSON.stringify(name)}, description: 'd', parameters: { type: 'object', additionalProperties: true }, returns: 'any', execute: ${execute} });`;

describe('maxCallDepth', () => {
  it('is a limit with a documented default, and can be set', () => {
    expect(DEFAULT_LIMITS.maxCallDepth).toBe(32);
    expect(resolveLimits({ maxCallDepth: 3 }).maxCallDepth).toBe(3);
    expect(() => resolveLimits({ maxCallDepth: -1 })).toThrow(/maxCallDepth/);
  });

  it('counts a script CALL as depth 1 and each context.callTool one deeper', async () => {
    const chain = tool('chain', async (args, context) => {
      const left = args.left as number;
      return left === 0 ? 'bottom' : context.callTool('chain', { left: left - 1 });
    });
    const { interpreter } = setup([chain], { limits: { maxCallDepth: 3 } });
    await expect(interpreter.run('LET r = CALL chain { left: 2 }')).resolves.toMatchObject({ variables: { r: 'bottom' } });
    const error = await failure(interpreter.run('LET r = CALL chain { left: 3 }'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toBe('tools called tools more than maxCallDepth (3) levels deep');
    expect([error.line, error.column]).toEqual([1, 9]);
  });

  it('a registry context is held to the default depth too', async () => {
    // Outside a run there is no run to stop: each level fails with the failure of the level below.
    const { registry } = setup([tool('self', (_args, context) => context.callTool('self', {}))]);
    const error = await failure(registry.createToolContext().callTool('self', {}));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/^(tool `self` failed: ){31}tools called tools more than maxCallDepth \(32\) levels deep$/);
  });
});

describe('tools calling themselves, in a plain host', () => {
  it('without awaiting: LimitExceededError, no stack overflow, no unhandled rejection', async () => {
    const result = await runChild(child(define('self', "(args, ctx) => { ctx.callTool('self', {}); return 1; }"), 'LET r = CALL self {}'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(lastJson(result)).toMatchObject({ ok: false, nuwa: true, kind: 'LimitExceededError', message: expect.stringMatching(/maxCallDepth/), line: 1 });
  });

  it('awaiting each call: LimitExceededError at the depth limit, long before maxToolCalls', async () => {
    const result = await runChild(child(define('self', "async (args, ctx) => ctx.callTool('self', {})"), 'LET r = CALL self {}'));
    expect(result.status).toBe(0);
    expect(lastJson(result)).toMatchObject({ ok: false, nuwa: true, kind: 'LimitExceededError', message: expect.stringMatching(/maxCallDepth \(32\)/) });
  });

  it('a call fired off without awaiting it that fails does not crash the host', async () => {
    const code = child(
      define('fire', "(args, ctx) => { ctx.callTool('missing', {}); ctx.callTool('boom', {}); ctx.callTool('fire', 'not an object'); return 'fired'; }") +
        define('boom', "async () => { throw new Error('boom'); }"),
      'LET r = CALL fire {}',
    );
    const result = await runChild(code);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(lastJson(result)).toMatchObject({ ok: true, variables: { r: 'fired' } });
  });

  it('a call still in flight when the run ends is ended with it, quietly', async () => {
    const code = `
      import { Interpreter, ToolRegistry } from ${JSON.stringify(src('index.ts'))};
      const registry = new ToolRegistry();
      ${define('fire', "(args, ctx) => { ctx.callTool('slow', {}); return 'fired'; }")}
      ${define('slow', '() => new Promise((resolve) => setTimeout(() => resolve("late"), 50))')}
      const events = [];
      const interpreter = new Interpreter(registry, { print: () => {}, onEvent: (event) => events.push(event) });
      const result = await interpreter.run('LET r = CALL fire {}');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const slow = events.filter((event) => event.toolName === 'slow').map((event) => event.type + (event.error ? ':' + event.error.kind : ''));
      console.log(JSON.stringify({ r: result.variables.r, slow }));
    `;
    const result = await runChild(code);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(lastJson(result)).toEqual({ r: 'fired', slow: ['tool:invoking', 'tool:aborted:AbortedError'] });
  });

  it('a run whose tool fired off a quick call and then never settles still ends at its timeout', async () => {
    // With the waits kept as a stack, the quick call's end dropped the outer wait, and the run hung.
    const code = child(
      define('quick', "async () => 'quick'") + define('stuck', "(args, ctx) => { ctx.callTool('quick', {}); return new Promise(() => {}); }"),
      'LET r = CALL stuck {}',
      { timeoutMs: 300 },
    );
    const result = await runChild(code, { timeoutMs: 15_000 });
    expect(result.timedOut).toBe(false);
    expect(lastJson(result)).toMatchObject({ ok: false, nuwa: true, kind: 'LimitExceededError', message: expect.stringMatching(/timeoutMs \(300 ms\)/) });
  });
});
