// Reading Markdown the way the documentation tests need it: fenced code blocks with their info
// strings, and links with the headings they may point at (GitHub's anchors).

export interface Block {
  /** The language, first word of the info string (`ts`, `nuwa`, `console`, ...). */
  language: string;
  /** The `key=value` words after the language (`error=TypeError`, `prelude=model`, `file=...`). */
  options: Record<string, string>;
  /** Words after the language without `=`, such as the old `test` marker. */
  flags: string[];
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The heading the block is under. */
  heading: string;
}

/** The fenced code blocks of a Markdown text, with the heading each one is under. */
export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const open = /^ *(`{3,})(.*)$/.exec(line);
    if (!open) continue;
    const fence = open[1]!;
    // A fence indented in a list item: its lines lose that indentation.
    const indent = new RegExp(`^ {0,${line.indexOf('`')}}`);
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence); i++) body.push(lines[i]!.replace(indent, ''));
    const [language = '', ...words] = open[2]!.trim().split(/\s+/).filter(Boolean);
    const options: Record<string, string> = {};
    const flags: string[] = [];
    for (const word of words) {
      const eq = word.indexOf('=');
      if (eq > 0) options[word.slice(0, eq)] = word.slice(eq + 1);
      else flags.push(word);
    }
    blocks.push({ language, options, flags, body: body.join('\n'), line: start + 1, heading });
  }
  return blocks;
}

/** The lines of a Markdown text with its fenced blocks blanked out, and its inline code too unless kept. */
function prose(markdown: string, keepInlineCode = false): string[] {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const open = /^ *(`{3,})/.exec(line);
    if (fence !== undefined) {
      if (open && open[1]!.startsWith(fence)) fence = undefined;
      return '';
    }
    if (open) {
      fence = open[1]!;
      return '';
    }
    return keepInlineCode ? line : line.replace(/(`+)[^`]*?\1/g, '');
  });
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links `[text](target)`, images, reference definitions `[x]: target` and `<a href>`s. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1]!, line: index + 1 });
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (definition) found.push({ target: definition[1]!, line: index + 1 });
    for (const match of line.matchAll(/<a\s[^>]*href="([^"]+)"/g)) found.push({ target: match[1]!, line: index + 1 });
  });
  return found;
}

/** The anchors GitHub gives a document's headings (`## 7. Calling tools` → `7-calling-tools`). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(markdown, true)) {
    const heading = /^#{1,6} +(.*?) *#* *$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'); // a link in a heading keeps its text
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}
