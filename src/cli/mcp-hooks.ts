// The host's hooks of `nuwa mcp` (TOOLS.md §11, §12): the person and the model behind an MCP client
// are reached through the client. When the client declares `elicitation`, a tool's context.ask
// becomes a form of one field (a string, or an enum of the choices) and a call that needs approval
// a form of one boolean field `approve`; when it declares `sampling`, context.llm becomes a
// `sampling/createMessage` request. A client without them gets today's behaviour: context.ask and
// context.llm fail clearly, and approvals are denied (unless --yes).
//
// Each request is made on behalf of the tools/call being served (related to it), ends when the run
// stops (the hook's signal), and is given the run's own time limit instead of the SDK's 60 seconds,
// which would cut short a person who takes a minute to answer.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { NuwaError } from '../errors.js';
import type { ApprovalHook, AskHook, LlmHook } from '../tools/types.js';

/** The tokens a sampling request asks for when the tool sets no maxTokens (MCP requires a number). */
export const DEFAULT_MAX_TOKENS = 1024;

export interface ClientHooks {
  approve: ApprovalHook;
  ask: AskHook;
  llm: LlmHook;
}

export interface ClientHookOptions {
  /** --yes: every call that needs approval is approved without asking. */
  yes: boolean;
  /** The request being served (a tools/call): what the client's requests are related to. */
  requestId: RequestId;
  /** Aborted when the client cancels that request. */
  signal: AbortSignal;
  /** How long a request to the client may wait: the run's timeoutMs. */
  timeoutMs: number;
}

export function clientHooks(server: Server, options: ClientHookOptions): ClientHooks {
  const timeout = Math.min(options.timeoutMs, 2 ** 31 - 1);
  const requestOptions = (signal: AbortSignal) => ({ signal, timeout, relatedRequestId: options.requestId });
  const canElicit = () => server.getClientCapabilities()?.elicitation?.form !== undefined;
  const canSample = () => server.getClientCapabilities()?.sampling !== undefined;

  const approve: ApprovalHook = async ({ toolName, confirm, args }) => {
    if (options.yes) return true;
    if (!canElicit()) throw new Error('nuwa mcp approves such calls only when started with --yes, or when its client supports elicitation to ask');
    const shown = JSON.stringify(args);
    const result = await server.elicitInput(
      {
        message: `Allow ${toolName} (a ${confirm} action) with ${shown.length > 500 ? `${shown.slice(0, 497)}...` : shown}?`,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Approve', description: `Run ${toolName} with these arguments` } },
          required: ['approve'],
        },
      },
      requestOptions(options.signal),
    );
    if (result.action !== 'accept') throw new Error(`the client's user ${result.action === 'decline' ? 'declined' : 'cancelled'} the request`);
    return result.content?.approve === true;
  };

  const ask: AskHook = async ({ question, choices, toolName, signal }) => {
    if (!canElicit()) throw new NuwaError('ToolExecutionError', 'context.ask: the MCP client cannot be asked: it does not support elicitation');
    const answer = choices === undefined ? { type: 'string' as const, title: 'Answer' } : { type: 'string' as const, title: 'Answer', enum: choices };
    const result = await server.elicitInput(
      { message: `${toolName} asks: ${question}`, requestedSchema: { type: 'object', properties: { answer }, required: ['answer'] } },
      requestOptions(signal),
    );
    if (result.action !== 'accept') {
      throw new NuwaError('ToolExecutionError', `context.ask: the client's user ${result.action === 'decline' ? 'declined to answer' : 'cancelled the question'}`);
    }
    return result.content?.answer as string; // checked by the caller: a string, one of the choices
  };

  const llm: LlmHook = async (request, { signal }) => {
    if (!canSample()) throw new NuwaError('ToolExecutionError', "context.llm: the MCP client offers no model: it does not support sampling");
    const { messages, system, maxTokens } = typeof request === 'string' ? { messages: [{ role: 'user' as const, content: request }], system: undefined, maxTokens: undefined } : request;
    const result = await server.createMessage(
      {
        messages: messages.map(({ role, content }) => ({ role, content: { type: 'text', text: content } })),
        ...(system !== undefined && { systemPrompt: system }),
        maxTokens: maxTokens ?? DEFAULT_MAX_TOKENS,
      },
      requestOptions(signal),
    );
    if (result.content.type !== 'text') throw new NuwaError('ToolExecutionError', `context.llm: the client's model answered with ${result.content.type} content, not text`);
    return result.content.text;
  };

  return { approve, ask, llm };
}
