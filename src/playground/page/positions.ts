// From the 1-based line and column of a problem or an error to a range of the editor's text: the
// word, number, string or symbol that starts there, so that the underline covers what is meant.
import type { Text } from '@codemirror/state';

// `CALL` with the tool's name (the checker and the run report a call's problems at its CALL), a name
// (dotted tool names too), a number, a string up to its closing quote or the line's end, an
// operator, or one character.
const TOKEN_AT = /^(?:CALL\s+[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[=!]==|[=!<>]=|&&|\|\||\S)/;

/** The offset of `line`:`column` in `doc` (clamped into the text). */
export function offsetOf(doc: Text, line: number, column: number): number {
  if (line > doc.lines) return doc.length;
  const at = doc.line(Math.max(1, line));
  return Math.min(at.to, at.from + Math.max(0, column - 1));
}

/** The range of the token at `line`:`column` (empty at the end of a line or of the text). */
export function rangeAt(doc: Text, line: number, column: number): { from: number; to: number } {
  const from = offsetOf(doc, line, column);
  const rest = doc.sliceString(from, doc.lineAt(from).to);
  const match = TOKEN_AT.exec(rest);
  return { from, to: from + (match ? match[0].length : 0) };
}
