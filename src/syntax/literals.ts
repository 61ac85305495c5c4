// The values of literal tokens, for the grammar's actions.
import type { IToken } from './chevrotain.js';

export const numberValue = (token: IToken): number => Number(token.image);
export const trueValue = (): boolean => true;
export const falseValue = (): boolean => false;
export const nullValue = (): null => null;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The value of a string literal. Not JSON.parse: a raw tab is legal in a Nuwa string. */
export function stringValue(token: IToken): string {
  if (token.isInsertedInRecovery || token.image.length < 2) return '';
  const body = token.image.slice(1, -1);
  if (!body.includes('\\')) return body;
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => (escape.length === 5 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : (ESCAPES[escape] ?? escape)));
}
