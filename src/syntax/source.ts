// Showing a position in source text: the code frame under an error message.

/** The line at `line` with a caret under `column`, plus the line before it for context. */
export function codeFrame(source: string, line: number, column: number, options: { caret?: (text: string) => string } = {}): string {
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const text = lines[line - 1];
  if (text === undefined) return '';
  const width = String(line).length;
  const gutter = (n: number | '') => `${String(n).padStart(width)} | `;
  const out: string[] = [];
  const previous = lines[line - 2];
  if (previous !== undefined && previous.trim() !== '') out.push(gutter(line - 1) + clip(previous, 0).text);
  const { text: shown, offset } = clip(text, column - 1);
  out.push(gutter(line) + shown);
  // Keep tabs under tabs so the caret lines up however the terminal renders them.
  const pad = shown.slice(0, Math.max(0, column - 1 - offset)).replace(/[^\t]/g, ' ');
  const caret = options.caret ?? ((s: string) => s);
  out.push(`${' '.repeat(width)} | ${pad}${caret('^')}`);
  return out.join('\n');
}

const MAX_WIDTH = 160;

/** Very long lines are shown as a window around the column. */
function clip(text: string, index: number): { text: string; offset: number } {
  if (text.length <= MAX_WIDTH) return { text, offset: 0 };
  const start = Math.max(0, Math.min(index - MAX_WIDTH / 2, text.length - MAX_WIDTH));
  return { text: text.slice(start, start + MAX_WIDTH), offset: start };
}
