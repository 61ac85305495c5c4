// How MCP's tool model maps onto Nuwa's (TOOLS.md §9), as plain functions: names, risk levels and
// results. The client (mcp-client.ts) applies them; the server (cli/mcp-server.ts) maps back.
import { KEYWORDS } from '../syntax/tokens.js';
import type { JsonValue } from '../values/json.js';
import type { ConfirmLevel } from '../tools/types.js';

const RESERVED = new Set<string>([...KEYWORDS, 'true', 'false', 'null']);

/** A name CALL can use: every character other than letters, digits and `_` becomes `_` (`get-weather` → `get_weather`). */
export function toIdentifier(text: string): string {
  let name = text.replace(/[^A-Za-z0-9_]/g, '_');
  if (name === '' || /^[0-9]/.test(name)) name = `_${name}`;
  if (RESERVED.has(name)) name = `${name}_`;
  return name;
}

/** The hints of an MCP tool (`annotations`), as far as they decide a risk level. */
export interface RiskHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

/**
 * destructiveHint → destructive, readOnlyHint → read, otherwise `fallback` (write unless the host
 * says otherwise). A tool that claims both is taken at its more dangerous word.
 */
export function confirmFromHints(hints: RiskHints | undefined, fallback: ConfirmLevel = 'write'): ConfirmLevel {
  if (hints?.destructiveHint === true) return 'destructive';
  if (hints?.readOnlyHint === true) return 'read';
  return fallback;
}

/** The other way, for tools that Nuwa serves over MCP. */
export function hintsFromConfirm(confirm: ConfirmLevel): Required<RiskHints> {
  return { readOnlyHint: confirm === 'none' || confirm === 'read', destructiveHint: confirm === 'destructive' };
}

/** The part of an MCP `tools/call` result that decides the value. */
export interface McpToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * The value of a successful result: its structuredContent when present, else the text of a single
 * text item (parsed as JSON when it is JSON), else the list of content items.
 */
export function resultValue(result: McpToolResult): JsonValue {
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent as JsonValue;
  const content = Array.isArray(result.content) ? (result.content as JsonValue[]) : [];
  if (content.length === 1) {
    const text = textOf(content[0]);
    if (text !== undefined) return parseIfJson(text);
  }
  return content;
}

/** The message of a result flagged isError: the text of its text items. */
export function errorText(result: McpToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.map(textOf).filter((text): text is string => text !== undefined && text.trim() !== '');
  return texts.length > 0 ? texts.join('\n') : 'the MCP tool reported an error without a message';
}

function textOf(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const { type, text } = item as { type?: unknown; text?: unknown };
  return type === 'text' && typeof text === 'string' ? text : undefined;
}

function parseIfJson(text: string): JsonValue {
  const trimmed = text.trim();
  // Only structured JSON (an object, a list, a quoted string) or a JSON literal is taken as JSON;
  // prose that happens to start with a digit stays text.
  if (!/^[[{"]/.test(trimmed) && !/^(-?\d[\d.eE+-]*|true|false|null)$/.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return text;
  }
}
