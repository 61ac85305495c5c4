// Nuwa Script for CodeMirror 6: a stream tokenizer that reads a line at a time, as the TextMate
// grammar (grammar/nuwa.tmLanguage.json) does, with the same rules in the same order, so that the
// playground colours code as editors and the terminal do (test/unit/playground/language.test.ts
// tokenizes every example, case and mistakes-corpus file with both and compares the classes).
// Keywords and built-ins come from the lexer and the built-ins' catalogue, as the grammar's do.
//
// Each token is named after its class in src/cli/highlight.ts (keyword, tool, key, ...); the page
// gives each class a CSS class of its own (`nuwa-keyword`, ...), through tags made here.
//
// Besides colours, the state counts open blocks (THEN, DO, brackets) for indentation.
import type { StreamParser, StringStream } from '@codemirror/language';
import { Tag, tags } from '@lezer/highlight';
import { BUILTIN_NAMES } from '../../syntax/functions.js';
import { KEYWORDS } from '../../syntax/tokens.js';
import type { TokenClass } from '../../cli/highlight.js';

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const END_OF_WORD = '(?![A-Za-z0-9_])';
const LITERALS = ['true', 'false', 'null'];
/** Keywords that are operators (and coloured as operators). */
const LOGICAL: readonly string[] = ['AND', 'OR', 'NOT'];

function words(list: readonly string[]): string {
  return `(?:${[...list].sort((a, b) => b.length - a.length || a.localeCompare(b)).join('|')})`;
}

/** A name the lexer would read as a keyword or literal is not a name. */
const NOT_RESERVED = `(?!${words([...KEYWORDS, ...LITERALS])}${END_OF_WORD})`;
const TOOL_PATH = `${NOT_RESERVED}${NAME}(?:\\s*\\.\\s*${NOT_RESERVED}${NAME})*`;

// The grammar's rules, anchored at the current position (a TextMate grammar takes the first rule
// that matches at the earliest position; every non-blank character starts a match of some rule, so
// that is always the current one).
const RULES = {
  lineComment: /^\/\/.*$/,
  blockCommentStart: /^\/\*/,
  hashComment: /^#.*$/,
  fence: /^(?:```|~~~).*$/,
  stringKey: /^"(?:[^"\\]|\\.)*"\s*(?=:)/,
  nameKey: new RegExp(`^${NOT_RESERVED}${NAME}\\s*(?=:)`),
  unterminatedString: /^"(?:[^"\\]|\\.)*\\?$/,
  string: /^"(?:[^"\\]|\\.)*"/,
  singleQuoted: /^'(?:[^'\\]|\\.)*'?/,
  call: new RegExp(`^CALL${END_OF_WORD}`),
  toolAfterCall: new RegExp(`^\\s+${TOOL_PATH}`),
  toolPath: new RegExp(`^${TOOL_PATH}`),
  keyword: new RegExp(`^${words(KEYWORDS.filter((k) => k !== 'CALL' && !LOGICAL.includes(k)))}${END_OF_WORD}`),
  logical: new RegExp(`^${words(LOGICAL)}${END_OF_WORD}`),
  constant: new RegExp(`^${words(LITERALS)}${END_OF_WORD}`),
  number: /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  leadingDotNumber: /^\.\d+(?:[eE][+-]?\d+)?/,
  builtinCall: new RegExp(`^${words(BUILTIN_NAMES)}${END_OF_WORD}(?=\\s*\\()`),
  functionCall: new RegExp(`^${NAME}(?=\\s*\\()`),
  propertyAfterDot: new RegExp(`^\\.\\s*${NOT_RESERVED}${NAME}`),
  name: new RegExp(`^${NAME}`),
  property: new RegExp(`^${NAME}`),
  // In the lexer's order, so that the longest operator is taken.
  operator: /^(?:[=!]==|==|!=|<>|<=|>=|<|>|\+\+|[-+*/%]=|=|[-+*/%]|&&?|\|\|?|!)/,
  punctuation: /^[,:.()[\]{}]/,
};

/** Words that open a block (indent the lines after) and that close one. */
const OPENS_BLOCK = new Set(['THEN', 'DO']);
const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);
const DEDENTED_LINE = /^\s*(?:END|ELSE)(?![A-Za-z0-9_])|^\s*[)\]}]/;

export interface NuwaState {
  /** Inside a /* comment, or a `template string`, that started on an earlier line. */
  inside: 'block-comment' | 'template' | null;
  /** The next token is the tool name after CALL (same line only, as in the grammar). */
  toolNext: boolean;
  /** The next token is the property name after a `.`. */
  propertyNext: boolean;
  /** Blocks and brackets open at the end of what was read: the indentation of the next line. */
  depth: number;
}

function readToken(stream: StringStream, state: NuwaState): TokenClass | null {
  if (stream.sol()) {
    state.toolNext = false;
    state.propertyNext = false;
  }
  if (state.inside === 'block-comment') {
    if (stream.skipTo('*/')) {
      stream.pos += 2;
      state.inside = null;
    } else stream.skipToEnd();
    return 'comment';
  }
  if (state.inside === 'template') {
    if (stream.skipTo('`')) {
      stream.pos += 1;
      state.inside = null;
    } else stream.skipToEnd();
    return 'string';
  }
  if (stream.eatSpace()) return null;

  if (state.toolNext) {
    state.toolNext = false;
    if (stream.match(RULES.toolPath)) return 'tool';
  }
  if (state.propertyNext) {
    state.propertyNext = false;
    if (stream.match(RULES.property)) return 'property';
  }
  if (stream.match(RULES.lineComment) || stream.match(RULES.hashComment)) return 'comment';
  if (stream.match(RULES.blockCommentStart)) {
    state.inside = 'block-comment';
    return readToken(stream, state) ?? 'comment';
  }
  if (stream.match(RULES.fence)) return 'invalid';
  if (stream.match(RULES.stringKey) || stream.match(RULES.nameKey)) return 'key';
  if (stream.match(RULES.unterminatedString) || stream.match(RULES.string) || stream.match(RULES.singleQuoted)) return 'string';
  if (stream.peek() === '`') {
    stream.next();
    state.inside = 'template';
    return readToken(stream, state) ?? 'string';
  }
  if (stream.match(RULES.call)) {
    state.toolNext = stream.match(RULES.toolAfterCall, false) !== null;
    return 'keyword';
  }
  const keyword = stream.match(RULES.keyword) as RegExpMatchArray | null;
  if (keyword) {
    if (OPENS_BLOCK.has(keyword[0])) state.depth++;
    else if (keyword[0] === 'END') state.depth = Math.max(0, state.depth - 1);
    return 'keyword';
  }
  if (stream.match(RULES.logical)) return 'operator';
  if (stream.match(RULES.constant)) return 'constant';
  if (stream.match(RULES.number) || stream.match(RULES.leadingDotNumber)) return 'number';
  if (stream.match(RULES.builtinCall)) return 'builtin';
  if (stream.match(RULES.functionCall)) return 'function';
  if (stream.match(RULES.propertyAfterDot, false)) {
    stream.next();
    state.propertyNext = true;
    return 'punctuation';
  }
  if (stream.match(RULES.name)) return 'variable';
  // The language's symbols, and those of other languages the lexer recognises (and reports).
  if (stream.match(RULES.operator)) return 'operator';
  const punctuation = stream.match(RULES.punctuation) as RegExpMatchArray | null;
  if (punctuation) {
    if (OPENERS.has(punctuation[0])) state.depth++;
    else if (CLOSERS.has(punctuation[0])) state.depth = Math.max(0, state.depth - 1);
    return 'punctuation';
  }
  // Any other character is not part of the language (a whole surrogate pair is one character).
  const code = stream.next()!.charCodeAt(0);
  if (code >= 0xd800 && code <= 0xdbff && !stream.eol()) stream.next();
  return 'invalid';
}

/** The CodeMirror tag of each class: a tag of its own (for the page's CSS classes), under a standard one (a modified tag cannot be a parent). */
export const CLASS_TAGS: Record<TokenClass, Tag> = {
  keyword: Tag.define(tags.keyword),
  operator: Tag.define(tags.operator),
  constant: Tag.define(tags.atom),
  number: Tag.define(tags.number),
  string: Tag.define(tags.string),
  comment: Tag.define(tags.comment),
  builtin: Tag.define(tags.variableName),
  function: Tag.define(tags.variableName),
  tool: Tag.define(tags.variableName),
  key: Tag.define(tags.propertyName),
  property: Tag.define(tags.propertyName),
  variable: Tag.define(tags.variableName),
  punctuation: Tag.define(tags.punctuation),
  invalid: Tag.define(tags.invalid),
};

// CodeMirror reads some token names (variable, builtin, property, ...) as its own legacy names
// before the parser's table: each class is given under a name of its own.
const tokenName = (kind: TokenClass) => `nuwa-${kind}`;
const TOKEN_NAMES = Object.fromEntries((Object.keys(CLASS_TAGS) as TokenClass[]).map((kind) => [kind, tokenName(kind)])) as Record<TokenClass, string>;

/** The stream parser: `StreamLanguage.define(nuwaStreamParser)` makes the CodeMirror language. */
export const nuwaStreamParser: StreamParser<NuwaState> = {
  name: 'nuwa',
  startState: () => ({ inside: null, toolNext: false, propertyNext: false, depth: 0 }),
  token: (stream, state) => {
    const kind = readToken(stream, state);
    return kind === null ? null : TOKEN_NAMES[kind];
  },
  indent(state, textAfter, context) {
    const depth = state.depth - (DEDENTED_LINE.test(textAfter) ? 1 : 0);
    return Math.max(0, depth) * context.unit;
  },
  tokenTable: Object.fromEntries((Object.entries(CLASS_TAGS) as Array<[TokenClass, Tag]>).map(([kind, tag]) => [tokenName(kind), tag])),
  languageData: {
    commentTokens: { line: '//' },
    closeBrackets: { brackets: ['(', '[', '{', '"'] },
    indentOnInput: /^\s*(?:END|ELSE|[)\]}])$/,
  },
};

/** A classified piece of one line (for tests and tools that want the classes without an editor). */
export interface LineToken {
  line: number; // 1-based
  start: number; // 0-based column
  end: number;
  kind: TokenClass;
}

/**
 * Tokenizes a whole text with the stream parser, line by line as CodeMirror does. `StringStream` is
 * passed in (it comes from @codemirror/language) so that this module needs nothing of it at run time.
 */
export function tokenizeLines(text: string, Stream: new (line: string, tabSize: number, indentUnit: number) => StringStream): LineToken[] {
  const state = nuwaStreamParser.startState!(2);
  const out: LineToken[] = [];
  text.split(/\r\n|\r|\n/).forEach((lineText, index) => {
    const stream = new Stream(lineText, 4, 2);
    while (!stream.eol()) {
      const kind = readToken(stream, state);
      if (stream.pos <= stream.start) throw new Error(`the tokenizer did not advance at ${index + 1}:${stream.start}`);
      if (kind !== null) out.push({ line: index + 1, start: stream.start, end: stream.pos, kind });
      stream.start = stream.pos;
    }
  });
  return out;
}
