// End-to-end: `nuwa mcp` reaching the person and the model behind its client (TOOLS.md §11, §12).
// A real `nuwa mcp` process is driven by the MCP SDK's own client, which declares elicitation and
// sampling and answers the server's requests as an IDE or a desktop assistant would.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, type CreateMessageRequest, type CreateMessageResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const tools = path.join(root, 'test', 'e2e', 'fixtures', 'tools-ask.mjs');

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

interface Answers {
  /** How the client's user answers each elicitation (none: the client cannot elicit). */
  elicit?: (request: ElicitRequest['params'], signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;
  /** How the client's model answers each sampling request (none: the client cannot sample). */
  sample?: (request: CreateMessageRequest['params']) => CreateMessageResult;
}

async function serve(answers: Answers, args: string[] = []) {
  const elicited: Array<ElicitRequest['params']> = [];
  const sampled: Array<CreateMessageRequest['params']> = [];
  const capabilities = { ...(answers.elicit && { elicitation: {} }), ...(answers.sample && { sampling: {} }) };
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities });
  if (answers.elicit) {
    const elicit = answers.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      elicited.push(request.params);
      return elicit(request.params, extra.signal);
    });
  }
  if (answers.sample) {
    const sample = answers.sample;
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      sampled.push(request.params);
      return sample(request.params);
    });
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--tools', tools, ...args], cwd: root, env: { PATH: process.env.PATH ?? '' }, stderr: 'pipe' });
  await client.connect(transport);
  clients.push(client);
  const run = async (script: string) => {
    const result = await client.callTool({ name: 'run_script', arguments: { script } });
    return result.structuredContent as { ok: boolean; output: string[]; variables: Record<string, unknown>; error?: { kind: string; message: string } };
  };
  return { client, run, elicited, sampled };
}

/** The form an elicitation asks to fill in (every request of nuwa mcp is a form, none a URL). */
const formOf = (request: ElicitRequest['params']) => (request as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;

const accept = (content: Record<string, string | number | boolean | string[]>): ElicitResult => ({ action: 'accept', content });

describe('nuwa mcp with a client that supports elicitation', () => {
  it('asks context.ask as a form of one string field, and the script goes on with the answer', async () => {
    const { run, elicited } = await serve({ elicit: () => accept({ answer: 'Ada' }) });
    const result = await run('LET name = CALL ask_name {}\nPRINT(FORMAT("Hello, {n}!", { n: name }))');
    expect(result).toMatchObject({ ok: true, output: ['Hello, Ada!'] });
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toMatchObject({
      message: 'ask_name asks: What is your name?',
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    expect(formOf(elicited[0]!).properties.answer).not.toHaveProperty('enum');
  });

  it('offers choices as an enum', async () => {
    const { run, elicited } = await serve({ elicit: () => accept({ answer: 'large' }) });
    expect(await run('PRINT(CALL ask_size {})')).toMatchObject({ ok: true, output: ['large'] });
    expect(formOf(elicited[0]!)).toMatchObject({ properties: { answer: { type: 'string', enum: ['small', 'medium', 'large'] } } });
  });

  it('a declined question is a ToolExecutionError the tool may catch', async () => {
    const { run } = await serve({ elicit: () => ({ action: 'decline' }) });
    const failed = await run('CALL ask_name {}');
    expect(failed).toMatchObject({ ok: false, error: { kind: 'ToolExecutionError' } });
    expect(failed.error!.message).toContain("context.ask: the client's user declined to answer");
    expect(await run('PRINT(CALL ask_or_default {})')).toMatchObject({ ok: true, output: ["(no answer: context.ask: the client's user declined to answer)", 'grey'] });
  });

  it('asks approval as a form of one boolean field `approve`: only accept with approve: true runs the call', async () => {
    const decisions: ElicitResult[] = [accept({ approve: true }), accept({ approve: false }), { action: 'decline' }, { action: 'cancel' }];
    const { run, client, elicited } = await serve({ elicit: () => decisions.shift()! });
    expect(await run('PRINT(CALL delete_all {})')).toMatchObject({ ok: true, output: ['deleted'] });
    expect(elicited[0]).toMatchObject({
      message: 'Allow delete_all (a destructive action) with {}?',
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
    });
    const refused = await run('CALL delete_all {}');
    expect(refused).toMatchObject({ ok: false, error: { kind: 'ToolDeniedError' } });
    expect(refused.error!.message).toContain('was denied: the host did not approve it');
    expect((await run('CALL delete_all {}')).error!.message).toContain("was denied: the client's user declined the request");
    // A tool called directly asks the same way.
    const direct = (await client.callTool({ name: 'delete_all', arguments: {} })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(direct.isError).toBe(true);
    expect(direct.content[0]!.text).toContain("ToolDeniedError: the call to `delete_all` (a destructive action) was denied: the client's user cancelled the request");
    expect(elicited).toHaveLength(4);
  });

  it('with --yes approves without asking, and still asks the tools’ questions', async () => {
    const { run, elicited } = await serve({ elicit: () => accept({ answer: 'medium' }) }, ['--yes']);
    expect(await run('PRINT(CALL delete_all {})\nPRINT(CALL ask_size {})')).toMatchObject({ ok: true, output: ['deleted', 'medium'] });
    expect(elicited.map((request) => request.message)).toEqual(['ask_size asks: Which size?']);
  });

  it('the run’s timeout ends a question the client never answers, and the client is told to stop asking', async () => {
    let cancelled!: () => void;
    const told = new Promise<void>((resolve) => (cancelled = resolve));
    // The first question is answered: the SDK's client ignores a cancellation of request id 0
    // (modelcontextprotocol/typescript-sdk#2115), so the one left unanswered is the second.
    const answers = [accept({ answer: 'Ada' })];
    const { run } = await serve(
      { elicit: (_request, signal) => answers.shift() ?? new Promise<ElicitResult>(() => signal.addEventListener('abort', cancelled)) },
      ['--timeout', '2000'],
    );
    const result = await run('PRINT(CALL ask_name {})\nCALL ask_size {}');
    expect(result).toMatchObject({ ok: false, output: ['Ada'], error: { kind: 'LimitExceededError' } });
    expect(result.error!.message).toContain('timeoutMs (2000 ms)');
    await told; // the server cancelled its elicitation request (notifications/cancelled)
  });
});

describe('nuwa mcp with a client that supports sampling', () => {
  it('sends context.llm to the client’s model as createMessage and returns its text', async () => {
    const { run, sampled } = await serve({ sample: (request) => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: `summary of ${request.messages.length} message` } }) });
    expect(await run('PRINT(CALL summarise { text: "a long story" })')).toMatchObject({ ok: true, output: ['summary of 1 message'] });
    expect(sampled).toEqual([
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: a long story' } }],
        systemPrompt: 'Be brief.',
        maxTokens: 40,
      }),
    ]);
  });

  it('a reply that is not text is a ToolExecutionError', async () => {
    const { run } = await serve({ sample: () => ({ role: 'assistant', model: 'm', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }) });
    const result = await run('CALL summarise { text: "x" }');
    expect(result).toMatchObject({ ok: false, error: { kind: 'ToolExecutionError' } });
    expect(result.error!.message).toContain("context.llm: the client's model answered with image content, not text");
  });
});

describe('nuwa mcp with a client that supports neither', () => {
  it('context.ask and context.llm fail clearly, and approvals are denied', async () => {
    const { run } = await serve({});
    expect((await run('CALL ask_name {}')).error!.message).toContain('context.ask: the MCP client cannot be asked: it does not support elicitation');
    expect((await run('CALL summarise { text: "x" }')).error!.message).toContain('context.llm: the MCP client offers no model: it does not support sampling');
    const denied = await run('CALL delete_all {}');
    expect(denied.error).toMatchObject({ kind: 'ToolDeniedError' });
    expect(denied.error!.message).toContain('only when started with --yes, or when its client supports elicitation');
  });
});
