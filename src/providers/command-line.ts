// `--mcp "<command> [args]"`: one string split into a command and its arguments by a few quoting
// rules, never by a shell (nothing is expanded, globbed, piped or redirected):
//   - words are separated by spaces and tabs;
//   - '...' keeps everything inside as it is;
//   - "..." keeps everything inside, except that \" and \\ stand for " and \;
//   - outside quotes, \ makes the next character an ordinary one (`a\ b` is one word);
//   - quoted parts and plain text next to each other form one word (`--root="my dir"`).

/** Splits a command line into words; throws an Error naming the problem (an unclosed quote, ...). */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`the single quote at character ${i + 1} is never closed`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) j++;
        word += text[j];
      }
      if (j >= text.length) throw new Error(`the double quote at character ${i + 1} is never closed`);
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new Error('the command ends with a lone \\');
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new Error('the command is empty');
  return words;
}
