// The function-calling wire formats (TOOLS.md §5), one call away from a registry: what a host passes
// as `tools` to a model API with native tool calling. Names are the exported spelling (`math.add` →
// `math__add`), which `registry.execute` accepts back.
import type { FunctionSchema, ToolRegistry } from './registry.js';
import type { JsonSchemaObject } from './types.js';

/** OpenAI's Chat Completions / Responses tool form. */
export interface OpenAITool {
  type: 'function';
  function: FunctionSchema;
}

/** Anthropic's Messages API tool form. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
}

/** `[{ type: 'function', function: { name, description, parameters } }]` for every tool. */
export function toOpenAITools(registry: ToolRegistry): OpenAITool[] {
  return registry.schemas.map((schema) => ({ type: 'function', function: schema }));
}

/** `[{ name, description, input_schema }]` for every tool. */
export function toAnthropicTools(registry: ToolRegistry): AnthropicTool[] {
  return registry.schemas.map(({ name, description, parameters }) => ({ name, description, input_schema: parameters }));
}
