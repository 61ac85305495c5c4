// The code a message suggests ("write LET n = n + 1", "as in SUM(xs)"), picked out of its prose, so
// that the driver can check every suggestion is Nuwa: none may carry the mistake it replaces, or
// another language's construct (test/mistakes.test.ts).

/** Where a suggestion ends and prose goes on (outside a string). */
const BOUNDARIES = [', not ', ' alone', ' after the', ' with parentheses', ' (the built-ins', ' (usage:', ' (and ', ', and ', ', for every', ' with double quotes', '; ', ': ', ', or ', ' as the first line', ' before the loop', ' where it belongs', ' at the end of', ' in place of'];

/** Suggestions that start like code: a keyword or built-in, a bracket, a string, or a name used as a value. */
const CODE_START = /^(?:[A-Z]{2,}\b|[[{"(]|[A-Za-z_][A-Za-z0-9_]*(?:\[|\.[A-Za-z_]|\(| [=!<>]=? ))/;

export function suggestedCode(message: string): string[] {
  const out: string[] = [];
  for (const lead of message.matchAll(/(?:\bwrite|\bas in) /g)) {
    let i = lead.index + lead[0].length;
    let code = '';
    let inString = false;
    let depth = 0;
    for (; i < message.length; i++) {
      const char = message[i]!;
      if (inString) {
        code += char;
        if (char === '\\') code += message[++i] ?? '';
        else if (char === '"') inString = false;
        continue;
      }
      if (depth === 0 && BOUNDARIES.some((b) => message.startsWith(b, i))) break;
      if (char === '"') inString = true;
      else if ('([{'.includes(char)) depth++;
      else if (')]}'.includes(char)) depth--;
      if (depth < 0) break;
      code += char;
    }
    code = code.trim().replace(/^`(.*)`$/, '$1');
    // A placeholder (`...`) marks a pattern, not code to run; a lone keyword is named, not suggested.
    if (code.includes('...') || /^[A-Z]+$/.test(code) || !CODE_START.test(code)) continue;
    code = code.replace(/[.,]$/, '');
    out.push(code);
  }
  return out;
}
