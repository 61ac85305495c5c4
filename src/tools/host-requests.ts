// What a tool asks of the host rather than of another tool (TOOLS.md §11): `context.ask` (a
// question for the person behind the host) and `context.llm` (a completion from the host's model).
// Both go to hooks the host gives (`new Interpreter(registry, { ask, llm })`), and both go through
// requestFromHost, the one place where such a request is sent and its answer checked, as invokeTool
// is for tool calls: a durable run (DURABLE.md §2) records and replays the requests here, by callId.
//
// The request is read from the tool (foreign code) once, into our own plain copy, before the host
// sees it; the answer is read from the hook (the host's code) through util/foreign.ts, and waited on
// like a tool: the run's cancellation, its timeout and the tool's own timeout end a hook that never
// answers.
import { isNuwaError, NuwaError } from '../errors.js';
import type { JsonObject } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { describeThrown, textOf, thenOf } from '../util/foreign.js';
import type { CallHost } from './call-host.js';
import type { LlmMessage, LlmRequest } from './types.js';

/** A request, as read from the tool: plain data of our own. */
export type HostRequest = { kind: 'ask'; question: string; choices: string[] | undefined } | { kind: 'llm'; request: LlmRequest };

/** Who makes a request: the tool, the request's callId, and the signal that ends the wait for it. */
export interface RequestingCall {
  toolName: string;
  callId: string;
  signal: AbortSignal;
  /** Where the tool's call stands in the script (for a durable run's pending question). */
  line: number;
  column: number;
}

const MESSAGE_ROLES: ReadonlySet<string> = new Set(['user', 'assistant']);

/** `context.ask(question, { choices })` as plain data; a TypeError for a call the tool got wrong. */
export function readAskRequest(question: unknown, options: unknown): HostRequest {
  if (typeof question !== 'string' || question.trim() === '') throw new TypeError(`context.ask(question): the question must be a non-empty string, not ${textOf(question)}`);
  if (options === undefined || options === null) return { kind: 'ask', question, choices: undefined };
  const copy = plainCopy(options, 'context.ask(question, options)');
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) throw new TypeError('context.ask(question, options): options must be an object such as { choices: ["yes", "no"] }');
  const unknown = Object.keys(copy).filter((key) => key !== 'choices');
  if (unknown.length > 0) throw new TypeError(`context.ask(question, options): unknown option ${unknown.map((key) => `"${key}"`).join(', ')} (the only option is choices)`);
  const { choices } = copy;
  if (choices === undefined) return { kind: 'ask', question, choices: undefined };
  if (!Array.isArray(choices) || choices.length === 0 || choices.some((choice) => typeof choice !== 'string' || choice === '')) {
    throw new TypeError(`context.ask(question, { choices }): choices must be a non-empty list of non-empty strings, not ${textOf(choices)}`);
  }
  return { kind: 'ask', question, choices: choices as string[] };
}

/** `context.llm(request)` as plain data; a TypeError for a request the tool got wrong. */
export function readLlmRequest(request: unknown): HostRequest {
  const shape = 'a prompt string or { messages: [{ role: "user", content }], system?, maxTokens? }';
  if (typeof request === 'string') {
    if (request.trim() === '') throw new TypeError('context.llm(request): the prompt is empty');
    return { kind: 'llm', request };
  }
  const copy = plainCopy(request, 'context.llm(request)');
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) throw new TypeError(`context.llm(request): the request must be ${shape}, not ${textOf(copy)}`);
  const unknown = Object.keys(copy).filter((key) => key !== 'messages' && key !== 'system' && key !== 'maxTokens');
  if (unknown.length > 0) throw new TypeError(`context.llm(request): unknown field ${unknown.map((key) => `"${key}"`).join(', ')}; the request is ${shape}`);
  const { messages, system, maxTokens } = copy;
  if (!Array.isArray(messages) || messages.length === 0) throw new TypeError(`context.llm(request): messages must be a non-empty list; the request is ${shape}`);
  messages.forEach((message, index) => {
    const { role, content } = (message ?? {}) as Partial<Record<string, unknown>>;
    if (message === null || typeof message !== 'object' || Array.isArray(message) || typeof role !== 'string' || !MESSAGE_ROLES.has(role) || typeof content !== 'string') {
      throw new TypeError(`context.llm(request): messages[${index}] must be { role: "user" | "assistant", content: "<text>" } (a system prompt goes in system), not ${textOf(message)}`);
    }
  });
  if (system !== undefined && typeof system !== 'string') throw new TypeError(`context.llm(request): system must be a string, not ${textOf(system)}`);
  if (maxTokens !== undefined && !(typeof maxTokens === 'number' && Number.isSafeInteger(maxTokens) && maxTokens > 0)) {
    throw new TypeError(`context.llm(request): maxTokens must be a positive whole number, not ${textOf(maxTokens)}`);
  }
  return {
    kind: 'llm',
    request: {
      messages: (messages as unknown as LlmMessage[]).map(({ role, content }) => ({ role, content })),
      ...(system !== undefined && { system }),
      ...(maxTokens !== undefined && { maxTokens }),
    },
  };
}

/**
 * Sends a request to the host's hook and resolves to its checked answer. Fails with a
 * ToolExecutionError when there is no hook, when the hook fails or answers something that is not an
 * answer; with the run's own stop (AbortedError, LimitExceededError) when the run or the tool's time
 * ends first. (The durable run's record and replay belong here, keyed by `call.callId`.)
 */
export async function requestFromHost(host: CallHost, request: HostRequest, call: RequestingCall): Promise<string> {
  const journal = host.journal;
  if (journal === undefined) return askHost(host, request, call);
  // A durable run records the answer like a call's outcome, and a replay answers from the record.
  const name = `context.${request.kind}`;
  const args = (request.kind === 'ask' ? { question: request.question, ...(request.choices !== undefined && { choices: request.choices }) } : { request: request.request }) as JsonObject;
  const recorded = journal.replayed(call.callId, name, args, { line: call.line, column: call.column });
  if (recorded !== undefined) {
    if ('error' in recorded.outcome) throw new NuwaError(recorded.outcome.error.kind, recorded.outcome.error.message, { toolName: call.toolName });
    return recorded.outcome.value as string;
  }
  let answer: string;
  const decided = request.kind === 'ask' ? journal.decision(call.callId) : undefined;
  const refused = request.kind === 'ask' ? journal.refused?.(call.callId) : undefined;
  if (refused !== undefined) {
    // The question waited and no answer came (a durable engine's wait timed out): it fails, recorded.
    const error = new NuwaError('ToolExecutionError', `context.ask: ${refused}`, { toolName: call.toolName });
    journal.settled(call.callId, name, args, { error: { kind: error.kind, message: error.message } });
    throw error;
  }
  if (decided !== undefined && typeof decided === 'object') {
    answer = checkedAnswer(request, decided.answer, call);
  } else {
    try {
      answer = await askHost(host, request, call);
    } catch (error) {
      if (error instanceof PauseRequest) throw pauseAt(host, request as Extract<HostRequest, { kind: 'ask' }>, call);
      if (isNuwaError(error) && error.kind === 'ToolExecutionError') journal.settled(call.callId, name, args, { error: { kind: error.kind, message: error.message } });
      throw error;
    }
  }
  journal.settled(call.callId, name, args, { value: answer });
  return answer;
}

/** An ask hook answered `{ pause: true }`, or a durable run has no ask hook: the run waits for an answer. */
class PauseRequest extends Error {}

/** The durable run stops at this question until a host answers it (DURABLE.md §2). */
function pauseAt(host: CallHost, request: Extract<HostRequest, { kind: 'ask' }>, call: RequestingCall): NuwaError {
  const error = host.journal!.pause({
    callId: call.callId,
    kind: 'question',
    question: request.question,
    ...(request.choices !== undefined && { choices: [...request.choices] }),
    line: call.line,
    column: call.column,
  });
  host.pause?.(error);
  return error;
}

/** The host's hook asked, and its answer checked. */
async function askHost(host: CallHost, request: HostRequest, call: RequestingCall): Promise<string> {
  const { toolName, callId, signal } = call;
  const failure = (message: string, cause?: unknown) => new NuwaError('ToolExecutionError', `context.${request.kind}: ${message}`, { toolName, ...(cause !== undefined && { cause }) });
  const durable = host.journal !== undefined;
  stopIfStopped(host, signal);
  let raw: unknown;
  try {
    if (request.kind === 'ask') {
      if (host.ask === undefined) {
        if (durable) throw new PauseRequest();
        throw failure('the host has no ask hook, so there is no one to ask (a host passes one: new Interpreter(registry, { ask }))');
      }
      const { question, choices } = request;
      raw = host.ask({ question, ...(choices !== undefined && { choices: [...choices] }), toolName, callId, signal });
    } else {
      if (host.llm === undefined) throw failure('the host has no llm hook, so there is no model to ask (a host passes one: new Interpreter(registry, { llm }))');
      raw = host.llm(structuredClone(request.request), { toolName, callId, signal });
    }
    raw = await waitFor(host, raw, signal);
  } catch (thrown) {
    if (thrown instanceof PauseRequest) throw thrown;
    stopIfStopped(host, signal);
    // A hook's own ToolExecutionError (the CLI's "needs a terminal to ask on") is the message to show.
    if (isNuwaError(thrown) && thrown.kind === 'ToolExecutionError') throw thrown;
    throw failure(`the host's ${request.kind} hook failed: ${describeThrown(thrown)}`, thrown);
  }
  stopIfStopped(host, signal);
  if (request.kind === 'ask' && isPauseAnswer(raw)) {
    if (durable) throw new PauseRequest();
    throw failure("the host's ask hook answered { pause: true }, and only a durable run (interpreter.start) can pause");
  }
  return checkedAnswer(request, raw, call);
}

/** `{ pause: true }`, read without trusting it. */
function isPauseAnswer(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object') return false;
  try {
    return (raw as { pause?: unknown }).pause === true;
  } catch {
    return false;
  }
}

/** An answer is a string, and one of the choices when there are choices. */
function checkedAnswer(request: HostRequest, raw: unknown, call: RequestingCall): string {
  const failure = (message: string) => new NuwaError('ToolExecutionError', `context.${request.kind}: ${message}`, { toolName: call.toolName });
  if (typeof raw !== 'string') throw failure(`the host's ${request.kind} hook answered ${describeAnswer(raw)}, not a string`);
  if (request.kind === 'ask' && request.choices !== undefined && !request.choices.includes(raw)) {
    throw failure(`the answer ${JSON.stringify(raw)} is not one of the choices: ${request.choices.map((choice) => JSON.stringify(choice)).join(', ')}`);
  }
  return raw;
}

/**
 * The hook's answer, waited for when it is a promise: through the run's waits (which a stopping run
 * ends), and until `signal` aborts (the tool's own timeout, or the run's stop).
 */
async function waitFor(host: CallHost, answer: unknown, signal: AbortSignal): Promise<unknown> {
  const then = thenOf(answer);
  if (then === undefined) return answer;
  const wait = host.waits.begin(answer, then, undefined, undefined);
  const onAbort = () => wait.fail(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await wait.promise;
  } finally {
    signal.removeEventListener('abort', onAbort);
    host.waits.end(wait);
  }
}

/** Throws the run's stop, or the tool's timeout, once either has happened. */
function stopIfStopped(host: CallHost, signal: AbortSignal): void {
  if (host.signal.aborted && isNuwaError(host.signal.reason)) throw host.signal.reason;
  if (signal.aborted && isNuwaError(signal.reason)) throw signal.reason;
}

function plainCopy(value: unknown, where: string): ReturnType<typeof copyJson> {
  try {
    return copyJson(value);
  } catch (error) {
    throw new TypeError(`${where}: not JSON data: ${describeThrown(error)}`);
  }
}

function describeAnswer(answer: unknown): string {
  if (answer === undefined) return 'nothing';
  return answer === null || typeof answer === 'object' ? textOf(answer) : `${typeof answer} ${textOf(answer)}`;
}
