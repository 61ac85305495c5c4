// Showing a position in source text: the code frame under an error message, with control
// characters made visible; and telling text from binary data before trying to read it as a script.
import type { SyntaxProblem } from '../errors.js';

// C0 controls except tab, DEL, C1 controls, and the bidirectional overrides that can make a line
// read differently from what it is ("Trojan Source"). A terminal would act on these, not show them.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase()}`;
}

/** `text` with every control character written as an escape (`\x07`, `\u202E`); tabs stay. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** One character as a message shows it. */
export function showCharacter(char: string): string {
  return escapeControls(char);
}

/**
 * A source text's lines, found once: frames for any number of errors then cost only their own
 * lines, however large the text (building each frame by splitting the whole text again made a
 * megabyte of junk take minutes to report).
 */
export class SourceLines {
  private readonly text: string;
  /** Offset of the start of each line; lines end at \n, \r\n or \r, as the lexer counts them. */
  private readonly starts: number[] = [0];

  constructor(source: string) {
    this.text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    const text = this.text;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10) this.starts.push(i + 1);
      else if (code === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  /** The text of line `line` (1-based), without its line break; undefined past the end. */
  line(line: number): string | undefined {
    if (!Number.isInteger(line) || line < 1 || line > this.starts.length) return undefined;
    const start = this.starts[line - 1]!;
    let end = line < this.starts.length ? this.starts[line]! : this.text.length;
    if (line < this.starts.length) {
      end--;
      if (this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    }
    return this.text.slice(start, end);
  }

  /** The line at `line` with a caret under `column`, plus the line before it for context. */
  frame(line: number, column: number, options: { caret?: (text: string) => string } = {}): string {
    const text = this.line(line);
    if (text === undefined) return '';
    const width = String(line).length;
    const gutter = (n: number) => `${String(n).padStart(width)} | `;
    const out: string[] = [];
    const previous = this.line(line - 1);
    if (previous !== undefined && previous.trim() !== '') out.push(gutter(line - 1) + escapeControls(clip(previous, 0).text));
    const { text: shown, offset } = clip(text, column - 1);
    out.push(gutter(line) + escapeControls(shown));
    // Keep tabs under tabs so the caret lines up however the terminal renders them; an escaped
    // control character is as wide as its escape.
    const pad = escapeControls(shown.slice(0, Math.max(0, column - 1 - offset))).replace(/[^\t]/g, ' ');
    const caret = options.caret ?? ((s: string) => s);
    out.push(`${' '.repeat(width)} | ${pad}${caret('^')}`);
    return out.join('\n');
  }
}

/** The frame of one position; for many positions in one text, build a SourceLines once. */
export function codeFrame(source: string, line: number, column: number, options: { caret?: (text: string) => string } = {}): string {
  return new SourceLines(source).frame(line, column, options);
}

const MAX_WIDTH = 160;

/** Very long lines are shown as a window around the column. */
function clip(text: string, index: number): { text: string; offset: number } {
  if (text.length <= MAX_WIDTH) return { text, offset: 0 };
  const start = Math.max(0, Math.min(index - MAX_WIDTH / 2, text.length - MAX_WIDTH));
  return { text: text.slice(start, start + MAX_WIDTH), offset: start };
}

const SAMPLE = 8192;
// Controls that never appear in text (tab, line breaks and form feed do), and U+FFFD, which is what
// bytes that are not UTF-8 become when a file is read as text.
const BINARY_CHARACTER = /[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/g;

/** A problem when `source` is evidently not text (a NUL, or many control or non-UTF-8 bytes). */
export function notTextProblem(source: string): SyntaxProblem | undefined {
  const nul = source.indexOf('\u0000');
  const sample = source.length > SAMPLE ? source.slice(0, SAMPLE) : source;
  const odd = sample.match(BINARY_CHARACTER)?.length ?? 0;
  if (nul < 0 && (odd < 4 || odd < sample.length / 10)) return undefined;
  const at = nul >= 0 ? nul : sample.search(BINARY_CHARACTER);
  const before = source.slice(0, at);
  const line = (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
  const column = at - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  const what = nul >= 0 ? 'it contains NUL bytes' : 'it is mostly control characters or bytes that are not UTF-8';
  return { line, column, message: `this is not a text file (${what}): a script is UTF-8 text` };
}
