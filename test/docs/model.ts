// The documentation's stand-in for a model client (```ts prelude=model, test/docs/README.md): it
// puts `callModel` on globalThis for the function-calling loop of docs/embedding.md, and answers an
// OpenAI-style chat request the way a model with native function calling would, deterministically.
// Asked a question, it calls the get_weather tool it was offered; given the tool's result, it answers.
// It checks what the loop sends, so a loop that passes the wrong shapes fails the test.

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
interface Message {
  role: 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export async function callModel(request: { messages: Message[]; tools: unknown[] }): Promise<Message> {
  const { messages, tools } = request;
  const offered = tools.map((tool) => {
    const t = tool as { type?: string; function?: { name?: string; parameters?: { type?: string } } };
    if (t.type !== 'function' || typeof t.function?.name !== 'string' || t.function.parameters?.type !== 'object') {
      throw new Error(`not an OpenAI tool: ${JSON.stringify(tool)}`);
    }
    return t.function.name;
  });
  const last = messages.at(-1)!;
  if (last.role === 'user') {
    if (!offered.includes('get_weather')) return { role: 'assistant', content: 'I cannot look that up.' };
    return {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }],
    };
  }
  if (last.role === 'tool') {
    const asked = messages.find((m) => m.tool_calls?.some((call) => call.id === last.tool_call_id));
    if (asked === undefined) throw new Error('a tool message must answer a tool call');
    const result = JSON.parse(last.content ?? '') as { success: boolean; data?: { temperature: number }; error?: string };
    return { role: 'assistant', content: result.success ? `It is ${result.data!.temperature}°C in Paris.` : `The tool failed: ${result.error}` };
  }
  throw new Error(`unexpected last message: ${JSON.stringify(last)}`);
}

(globalThis as { callModel?: typeof callModel }).callModel = callModel;
