// How the CLI shows a NuwaError: `file:line:col: Kind: message` and a code frame, one block per
// syntax error; and the JSON form of an error for --json. Whatever the script or a tool put into a
// message or a source line, control characters reach the terminal as escapes, never as themselves.
import pc from 'picocolors';
import type { NuwaError } from '../errors.js';
import { escapeControls, SourceLines } from '../syntax/source.js';
import { frameHighlighter } from './highlight.js';

export function formatError(error: NuwaError, source: string | undefined, fileName: string, color: boolean): string {
  const paint = pc.createColors(color);
  const problems =
    error.kind === 'SyntaxError' && error.errors && error.errors.length > 0
      ? error.errors
      : [{ line: error.line, column: error.column, message: error.message }];
  // The source's lines are found once for all the frames (a SyntaxError lists up to 50).
  const lines = source !== undefined && problems.some((p) => p.line !== undefined) ? new SourceLines(source) : undefined;
  const where = escapeControls(fileName);
  const highlight = color && lines ? frameHighlighter(source!) : (frame: string) => frame;
  const blocks = problems.map(({ line, column, message }) => {
    const at = line === undefined ? where : `${where}:${line}:${column ?? 1}`;
    const head = `${paint.bold(at)}: ${paint.red(paint.bold(error.kind))}: ${escapeControls(message)}`;
    const frame = line !== undefined && lines ? highlight(lines.frame(line, column ?? 1, { caret: (s) => paint.red(paint.bold(s)) })) : '';
    return frame ? `${head}\n${frame}` : head;
  });
  if (error.omittedErrors) blocks.push(`${paint.bold(where)}: ... and ${error.omittedErrors} more syntax error${error.omittedErrors === 1 ? '' : 's'} not shown`);
  return `${blocks.join('\n\n')}\n`;
}

export interface JsonError {
  kind: string;
  message: string;
  line?: number;
  column?: number;
  errors?: Array<{ message: string; line: number; column: number }>;
  /** Syntax errors found beyond those in `errors`. */
  omittedErrors?: number;
}

export function errorToJson(error: NuwaError): JsonError {
  const out: JsonError = { kind: error.kind, message: error.message };
  if (error.line !== undefined) out.line = error.line;
  if (error.column !== undefined) out.column = error.column;
  if (error.kind === 'SyntaxError' && error.errors) out.errors = error.errors.map(({ message, line, column }) => ({ message, line, column }));
  if (error.kind === 'SyntaxError' && error.omittedErrors) out.omittedErrors = error.omittedErrors;
  return out;
}
