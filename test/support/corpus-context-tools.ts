// The corpus tools (test/support/corpus-tools.ts) that show the ToolContext of TOOLS.md §4 from a
// script: the session's state (state_*) and the context's members (ctx_*, sandbox_write). Kept apart
// from the rest of the corpus tools only for the length of one file.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject, JsonValue, ToolContext, ToolRegistry } from '../../src/index.js';

/** Changes a JSON value in place, so that a test can see whether someone else's copy changed too. */
export function scribble(value: JsonValue | undefined): void {
  if (Array.isArray(value)) {
    value.push('scribbled');
    for (const item of value) scribble(item);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) scribble(value[key]);
    value.scribbled = true;
  }
}

function describeThrown(error: unknown): JsonObject {
  const e = error as { kind?: unknown; name?: unknown; message?: unknown; toolName?: unknown; line?: unknown; cause?: unknown };
  const cause = e.cause instanceof Error ? e.cause.message : typeof e.cause === 'string' ? e.cause : null;
  return {
    ok: false,
    kind: typeof e.kind === 'string' ? e.kind : typeof e.name === 'string' ? e.name : 'unknown',
    message: typeof e.message === 'string' ? e.message : String(error),
    toolName: typeof e.toolName === 'string' ? e.toolName : null,
    line: typeof e.line === 'number' ? e.line : null,
    cause,
  };
}

/** Registers the state and context tools of the corpus. */
export function registerStateAndContextTools(registry: ToolRegistry): void {
  // --- state (ToolContext §4) -------------------------------------------------------------------
  const key = { name: 'key', description: 'a state key', type: 'string' } as const;
  registry.register({
    name: 'state_set',
    description: 'context.setState(key, value), with metadata when description is given.',
    parameters: [key, { name: 'value', description: 'the value', type: 'any' }, { name: 'description', description: 'metadata', type: 'string', required: false }],
    returns: 'null',
    execute: (args, context) => {
      const description = args.description as string | undefined;
      context.setState(args.key as string, args.value as JsonValue, description === undefined ? undefined : { description });
      return null;
    },
  });
  registry.register({
    name: 'state_get',
    description: 'context.getStateValue(key), or null when the key is not set.',
    parameters: [key],
    returns: 'any',
    execute: (args, context) => context.getStateValue(args.key as string) ?? null,
  });
  registry.register({
    name: 'state_has',
    description: 'context.hasState(key).',
    parameters: [key],
    returns: 'boolean',
    execute: (args, context) => context.hasState(args.key as string),
  });
  registry.register({
    name: 'state_keys',
    description: 'The keys of context.getAllState(), in order.',
    parameters: [],
    returns: 'array',
    execute: (_args, context) => [...context.getAllState().keys()],
  });
  registry.register({
    name: 'state_clear',
    description: 'context.clearState().',
    parameters: [],
    returns: 'null',
    execute: (_args, context) => {
      context.clearState();
      return null;
    },
  });
  registry.register({
    name: 'state_mutate',
    description: 'Scribbles over what getStateValue(key) and getAllState() return, without calling setState; returns its scribbled copy.',
    parameters: [key],
    returns: 'any',
    execute: (args, context) => {
      const value = context.getStateValue(args.key as string);
      scribble(value);
      const all = context.getAllState();
      scribble(all.get(args.key as string));
      all.set('intruder', true);
      all.delete(args.key as string);
      return value ?? null;
    },
  });
  registry.register({
    name: 'state_set_mutate',
    description: 'context.setState(key, value), then scribbles over the value it passed.',
    parameters: [key, { name: 'value', description: 'the value', type: 'any' }],
    returns: 'any',
    execute: (args, context) => {
      context.setState(args.key as string, args.value as JsonValue);
      scribble(args.value);
      return args.value ?? null;
    },
  });
  registry.register({
    name: 'state_describe',
    description: 'context.registerStateMetadata(key, { description }).',
    parameters: [key, { name: 'description', description: 'what the key holds', type: 'string' }],
    returns: 'null',
    execute: (args, context) => {
      context.registerStateMetadata(args.key as string, { description: args.description as string });
      return null;
    },
  });
  registry.register({
    name: 'state_meta',
    description: 'The description in context.getStateMetadata(key), or null.',
    parameters: [key],
    returns: 'any',
    execute: (args, context) => context.getStateMetadata(args.key as string)?.description ?? null,
  });
  registry.register({
    name: 'state_meta_keys',
    description: 'The keys of context.getAllStateMetadata().',
    parameters: [],
    returns: 'array',
    execute: (_args, context) => [...context.getAllStateMetadata().keys()],
  });

  // --- context (ToolContext §4) -----------------------------------------------------------------
  const varName = { name: 'name', description: 'a variable name', type: 'string' } as const;
  registry.register({
    name: 'ctx_info',
    description: 'Facts about this call: toolName, executionId, sessionId, whether the signal is aborted, sandboxDir type.',
    parameters: [],
    returns: 'object',
    execute: (_args, context: ToolContext) => ({
      toolName: context.toolName,
      executionId: context.executionId,
      sessionId: context.sessionId,
      aborted: context.signal.aborted,
      hasSignal: context.signal instanceof AbortSignal,
      sandboxDir: typeof context.sandboxDir,
    }),
  });
  registry.register({
    name: 'ctx_get_var',
    description: 'context.getVar(name), or null when the variable is not bound.',
    parameters: [varName],
    returns: 'any',
    execute: (args, context) => context.getVar(args.name as string) ?? null,
  });
  registry.register({
    name: 'ctx_has_var',
    description: 'Whether context.getVar(name) finds a variable.',
    parameters: [varName],
    returns: 'boolean',
    execute: (args, context) => context.getVar(args.name as string) !== undefined,
  });
  registry.register({
    name: 'ctx_mutate_var',
    description: 'Scribbles over the value context.getVar(name) returned; returns the scribbled copy.',
    parameters: [varName],
    returns: 'any',
    execute: (args, context) => {
      const value = context.getVar(args.name as string);
      scribble(value);
      return value ?? null;
    },
  });
  registry.register({
    name: 'ctx_set_var',
    description: 'context.setVar(name, value); with scribble: true, then scribbles over the value it passed.',
    parameters: [varName, { name: 'value', description: 'the value', type: 'any' }, { name: 'scribble', description: 'change the value afterwards', type: 'boolean', required: false }],
    returns: 'null',
    execute: (args, context) => {
      context.setVar(args.name as string, args.value as JsonValue);
      if (args.scribble === true) scribble(args.value);
      return null;
    },
  });
  registry.register({
    name: 'ctx_print',
    description: 'context.print(text).',
    parameters: [{ name: 'text', description: 'the line', type: 'string' }],
    returns: 'null',
    execute: (args, context) => {
      context.print(args.text as string);
      return null;
    },
  });
  const toolArgs = [
    { name: 'tool', description: 'the tool to call', type: 'string' },
    { name: 'args', description: 'its arguments', type: 'object', required: false },
  ] as const;
  registry.register({
    name: 'ctx_call',
    description: 'context.callTool(tool, args); errors propagate.',
    parameters: [...toolArgs],
    returns: 'any',
    execute: (args, context) => context.callTool(args.tool as string, (args.args as JsonObject | undefined) ?? {}),
  });
  registry.register({
    name: 'ctx_try_call',
    description: 'context.callTool(tool, args), catching: { ok: true, value } or { ok: false, kind, message, toolName, line, cause }.',
    parameters: [...toolArgs],
    returns: 'object',
    execute: async (args, context) => {
      try {
        return { ok: true, value: await context.callTool(args.tool as string, (args.args as JsonObject | undefined) ?? {}) };
      } catch (error) {
        return describeThrown(error);
      }
    },
  });
  registry.register({
    name: 'ctx_call_keep',
    description: 'context.callTool(tool, args); returns { result, args } with args as the caller holds them afterwards.',
    parameters: [...toolArgs],
    returns: 'object',
    execute: async (args, context) => {
      const mine = (args.args as JsonObject | undefined) ?? {};
      const result = await context.callTool(args.tool as string, mine);
      scribble(result); // the callee's result is ours to change: it must not be anyone else's value
      return { result, args: mine };
    },
  });
  registry.register({
    name: 'ctx_log',
    description: 'Writes message to each context.logger level; returns true.',
    parameters: [{ name: 'message', description: 'the message', type: 'string' }],
    returns: 'boolean',
    execute: (args, context) => {
      const message = args.message as string;
      context.logger.debug(message);
      context.logger.info(message, { from: 'corpus' });
      context.logger.warn(message);
      context.logger.error(message);
      return true;
    },
  });
  registry.register({
    name: 'ctx_sandbox',
    description: 'context.resolvePath(path), returned relative to sandboxDir (throws on an escape).',
    parameters: [{ name: 'path', description: 'a relative path', type: 'string' }],
    returns: 'string',
    execute: (args, context) => {
      const resolved = context.resolvePath(args.path as string);
      return path.relative(realpathSync(context.sandboxDir), resolved).split(path.sep).join('/');
    },
  });
  registry.register({
    name: 'sandbox_write',
    description: 'Writes text to path inside the sandbox directory and reads it back.',
    parameters: [
      { name: 'path', description: 'a relative path', type: 'string' },
      { name: 'text', description: 'the contents', type: 'string' },
    ],
    returns: 'string',
    execute: (args, context) => {
      const file = context.resolvePath(args.path as string);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, args.text as string);
      return readFileSync(file, 'utf8');
    },
  });

}
