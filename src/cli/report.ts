// How the CLI shows a NuwaError: `file:line:col: Kind: message` and a code frame, one block per
// syntax error; and the JSON form of an error for --json.
import pc from 'picocolors';
import type { NuwaError } from '../errors.js';
import { codeFrame } from '../syntax/source.js';
import { highlightFrame } from './highlight.js';

export function formatError(error: NuwaError, source: string | undefined, fileName: string, color: boolean): string {
  const paint = color ? pc : pc.createColors(false);
  const problems =
    error.kind === 'SyntaxError' && error.errors && error.errors.length > 0
      ? error.errors
      : [{ line: error.line, column: error.column, message: error.message }];
  const blocks = problems.map(({ line, column, message }) => {
    const where = line === undefined ? fileName : `${fileName}:${line}:${column ?? 1}`;
    const head = `${paint.bold(where)}: ${paint.red(paint.bold(error.kind))}: ${message}`;
    const frame = line !== undefined && source !== undefined ? highlightFrame(codeFrame(source, line, column ?? 1, { caret: (s) => paint.red(paint.bold(s)) }), source, color) : '';
    return frame ? `${head}\n${frame}` : head;
  });
  return `${blocks.join('\n\n')}\n`;
}

export interface JsonError {
  kind: string;
  message: string;
  line?: number;
  column?: number;
  errors?: Array<{ message: string; line: number; column: number }>;
}

export function errorToJson(error: NuwaError): JsonError {
  const out: JsonError = { kind: error.kind, message: error.message };
  if (error.line !== undefined) out.line = error.line;
  if (error.column !== undefined) out.column = error.column;
  if (error.kind === 'SyntaxError' && error.errors) out.errors = error.errors.map(({ message, line, column }) => ({ message, line, column }));
  return out;
}
