// Syntax highlighting for the terminal, driven by the lexer's own tokens so that it never disagrees
// with the parser. Each token gets a class (keyword, string, tool name, ...); the same classes name
// the scopes of the editor grammar (grammar/nuwa.tmLanguage.json), and a test checks the two agree
// on every example script.
//
// Text is shown as what it is as written, not as what the parser made of it after recognising a
// mistake: `'single'` is a string, `&&` and `+=` are operators, `# note` and `/* note */` are
// comments, `.5` is a number, and a lowercase `if` is a name (which is what the language says it
// is; the error message tells the rest). A markdown fence is not Nuwa text at all, and characters
// the lexer rejects are marked invalid.
import pc from 'picocolors';
import type { IToken, TokenType } from '../syntax/chevrotain.js';
import { tokensAsWritten } from '../syntax/lexer.js';
import * as T from '../syntax/tokens.js';
import { BUILTINS } from '../runtime/builtins.js';

export type TokenClass =
  | 'keyword' // LET IF THEN ELSE END FOR IN DO CALL CALC
  | 'operator' // AND OR NOT == != < <= > >= = + - * / %, and other languages' && || ! === <> += ++
  | 'constant' // true false null
  | 'number' // 1.5e3, and .5
  | 'string' // "...", and the malformed, single-quoted and template strings the lexer recognises
  | 'comment' // // ..., and # ... and /* ... */
  | 'builtin' // a built-in function name before `(`
  | 'function' // any other name before `(` (an unknown function)
  | 'tool' // the (dotted) name after CALL
  | 'key' // an object key or argument name before `:`
  | 'property' // the name after `.`
  | 'variable'
  | 'punctuation' // ( ) [ ] { } , : .
  | 'invalid'; // a character the lexer rejects, or a markdown fence

/** A classified piece of the source: [start, end) offsets into the text. */
export interface Span {
  start: number;
  end: number;
  kind: TokenClass;
}

/** The class of each token type that has one whatever its neighbours; names and strings depend on them. */
const CLASS_OF_TYPE = new Map<TokenType, TokenClass>();
const classOf = (kind: TokenClass, types: TokenType[]) => types.forEach((type) => CLASS_OF_TYPE.set(type, kind));
classOf('keyword', [T.Let, T.Call, T.If, T.Then, T.Else, T.End, T.For, T.In, T.Do, T.Calc]);
classOf('constant', [T.True, T.False, T.Null]);
classOf('number', [T.NumberLiteral, T.LeadingDotNumber]);
classOf('string', [T.SingleQuotedString, T.TemplateString]);
classOf('comment', [T.BlockComment, T.HashComment]);
classOf('invalid', [T.Fence]);
classOf('punctuation', [T.LParen, T.RParen, T.LBracket, T.RBracket, T.LBrace, T.RBrace, T.Comma, T.Colon, T.Dot]);
// Every other token the lexer makes is an operator: AND OR NOT, the language's symbols, and the
// other languages' ones it recognises (&& || ! === <> ++ +=).

/** Classifies every token, comment and rejected character of `source`, in order. */
export function classify(source: string): Span[] {
  const bom = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const text = bom ? source.slice(1) : source;
  const tokens = tokensAsWritten(text);
  const spans: Span[] = [];
  let position = 0;
  let toolName: 'after-call' | 'after-name' | 'after-dot' | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const start = token.startOffset;
    const end = start + token.image.length;
    classifyGap(text, position, start, spans, bom);
    position = end;

    const type = token.tokenType;
    const next = tokens[i + 1]?.tokenType;
    let kind: TokenClass;
    if (toolName === 'after-call' || toolName === 'after-dot') {
      toolName = type === T.Identifier ? 'after-name' : undefined;
    } else if (toolName === 'after-name') {
      toolName = type === T.Dot && tokens[i + 1]?.tokenType === T.Identifier ? 'after-dot' : undefined;
    }
    if (toolName !== undefined) kind = 'tool';
    else if (type === T.Identifier) kind = identifierClass(token, tokens[i - 1]?.tokenType, next);
    else if (type === T.StringLiteral || type === T.BadString) kind = next === T.Colon && isClosedString(token.image) ? 'key' : 'string';
    else kind = CLASS_OF_TYPE.get(type) ?? 'operator';
    if (type === T.Call) toolName = 'after-call';
    spans.push({ start: start + bom, end: end + bom, kind });
  }
  classifyGap(text, position, text.length, spans, bom);
  return spans;
}

function identifierClass(token: IToken, previous: TokenType | undefined, next: TokenType | undefined): TokenClass {
  if (previous === T.Dot) return 'property';
  if (next === T.Colon) return 'key';
  if (next === T.LParen) return BUILTINS.has(token.image) ? 'builtin' : 'function';
  return 'variable';
}

/** A double-quoted string with its closing quote (a malformed one may have a bad escape, or no end). */
function isClosedString(image: string): boolean {
  return image.length >= 2 && image.endsWith('"') && /(?:^|[^\\])(?:\\\\)*"$/.test(image.slice(1));
}

/** Between tokens there is only white space, comments and characters the lexer rejected. */
function classifyGap(text: string, from: number, to: number, spans: Span[], shift: number): void {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      let end = i;
      while (end < to && text[end] !== '\n' && text[end] !== '\r') end++;
      spans.push({ start: i + shift, end: end + shift, kind: 'comment' });
      i = end;
    } else if (/\s/.test(text[i]!)) {
      i++;
    } else {
      const width = c >= 0xd800 && c <= 0xdbff ? 2 : 1;
      spans.push({ start: i + shift, end: i + width + shift, kind: 'invalid' });
      i += width;
    }
  }
}

type Paint = (text: string) => string;

// Always colours: the caller decides whether colour is on (src/cli/color.ts).
const c = pc.createColors(true);

/** How each class looks on a terminal; classes without an entry stay plain. */
const PALETTE: Partial<Record<TokenClass, Paint>> = {
  keyword: c.magenta,
  operator: c.magenta,
  constant: c.yellow,
  number: c.yellow,
  string: c.green,
  comment: c.gray,
  builtin: c.cyan,
  function: c.cyan,
  tool: (s) => c.bold(c.blue(s)),
  invalid: (s) => c.red(c.underline(s)),
};

/** The paint of one class (for other coloured output that should match the code, like values). */
export function paintFor(kind: TokenClass): Paint {
  return PALETTE[kind] ?? ((s) => s);
}

/** `source` with ANSI colours. */
export function highlight(source: string): string {
  return render(source, classify(source), 0, source.length);
}

function render(source: string, spans: Span[], from: number, to: number): string {
  let out = '';
  let position = from;
  for (const span of spans) {
    if (span.end <= from || span.start >= to) continue;
    const start = Math.max(span.start, from);
    const end = Math.min(span.end, to);
    out += source.slice(position, start) + paintFor(span.kind)(source.slice(start, end));
    position = end;
  }
  return out + source.slice(position, to);
}

// A code frame line: right-aligned line number, ` | `, then the text (see src/syntax/source.ts).
const FRAME_LINE = /^(\s*>?\s*)(\d+)( \| )(.*)$/;

/**
 * Colours the source lines of code frames. The source is lexed once, however many frames are then
 * coloured (a SyntaxError shows up to 50). Each frame is left as it is except for the text of each
 * numbered line, which is replaced by the same text highlighted with the classes of the whole
 * source (so a string that starts on an earlier line is still a string). A line the frame shows only
 * in part (a window of a very long line) is highlighted as that window; a line shown with escaped
 * control characters is left plain.
 */
export function frameHighlighter(source: string): (frame: string) => string {
  const text = source.replace(/^\uFEFF/, '');
  const starts = lineStarts(text);
  const spans = classify(text);
  return (frame) =>
    frame
      .split('\n')
      .map((frameLine) => {
        const match = FRAME_LINE.exec(frameLine);
        if (!match) return frameLine;
        const [, lead, number, bar, shown] = match as unknown as [string, string, string, string, string];
        const lineStart = starts[Number(number) - 1];
        if (lineStart === undefined) return frameLine;
        const lineEnd = lineEndOf(text, lineStart);
        const offset = text.slice(lineStart, lineEnd).indexOf(shown);
        if (offset < 0 || shown === '') return frameLine;
        return lead + number + bar + render(text, spans, lineStart + offset, lineStart + offset + shown.length);
      })
      .join('\n');
}

/** One frame, coloured when `enabled` (see frameHighlighter for many frames of one source). */
export function highlightFrame(frame: string, source: string, enabled: boolean): string {
  return !enabled || frame === '' ? frame : frameHighlighter(source)(frame);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  const breaks = /\r\n|\r|\n/g;
  for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) starts.push(match.index + match[0].length);
  return starts;
}

function lineEndOf(text: string, start: number): number {
  let end = start;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return end;
}
