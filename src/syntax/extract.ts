// The script inside a model's reply (TOOLS.md §10). Models wrap code in markdown fences, often with
// a sentence before and after; the interpreter wants only the script. Fences follow CommonMark: a
// line of three or more backticks or tildes, indented at most three spaces, opens a block that the
// next fence of the same character and at least the same length closes (or the end of the text).
import { NuwaError } from '../errors.js';

interface Fence {
  /** The block's text, without the fence lines. */
  body: string;
  /** The info string's first word, lowercased: `nuwa` in ```nuwa. */
  label: string;
}

const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/**
 * The first fenced block labelled `nuwa`, else the first fenced block, else the whole text.
 */
export function extractScript(reply: string): string {
  if (typeof reply !== 'string') {
    throw new NuwaError('TypeError', `extractScript(reply) needs the reply's text, not ${reply === null ? 'null' : typeof reply}`);
  }
  const fences = fencedBlocks(reply);
  return (fences.find((fence) => fence.label === 'nuwa') ?? fences[0])?.body ?? reply;
}

function fencedBlocks(text: string): Fence[] {
  const lines = text.split(/\r\n|\r|\n/);
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opening = OPENING.exec(lines[i]!);
    if (!opening) continue;
    const [, indent, marks, info] = opening as unknown as [string, string, string, string];
    if (marks[0] === '`' && info.includes('`')) continue; // an inline code span, not a fence
    const closing = new RegExp(`^ {0,3}${marks[0] === '`' ? '`' : '~'}{${marks.length},}[ \\t]*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !closing.test(lines[j]!); j++) body.push(stripIndent(lines[j]!, indent.length));
    fences.push({ body: body.join('\n'), label: (info.trim().split(/\s+/)[0] ?? '').toLowerCase() });
    i = j;
  }
  return fences;
}

/** A fence indented by n spaces takes up to n spaces off each line of its block. */
function stripIndent(line: string, n: number): string {
  let k = 0;
  while (k < n && line[k] === ' ') k++;
  return line.slice(k);
}
