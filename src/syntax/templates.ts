// JavaScript's template strings (`Hi ${user.name}`) and Python's f-strings (f"Hi {user.name}") as
// the FORMAT call that does the same in Nuwa Script, for the message that reports them: the same
// text, each interpolated expression a placeholder, and the values object that fills them in
// (`FORMAT("Hi {user.name}", { user: user })`, since FORMAT reads members of its values).
import { quote } from './print.js';

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Longer calls are shown as the general form instead. */
const LIMIT = 160;

/**
 * The FORMAT call for a template's text (`body`, without its quotes); undefined when it holds no
 * interpolation or the call would be too long to be a useful suggestion.
 */
export function formatCallFor(body: string, style: 'template' | 'f-string'): string | undefined {
  const parts = style === 'template' ? templateParts(body) : fStringParts(body);
  if (parts === undefined || !parts.some((part) => typeof part !== 'string')) return undefined;
  const values = new Map<string, string>();
  let text = '';
  let unnamed = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part.replace(/\{/g, '{{').replace(/\}/g, '}}');
      continue;
    }
    const expression = part.expression.trim();
    if (PATH.test(expression)) {
      const root = expression.split('.')[0]!;
      values.set(root, root);
      text += `{${expression}}`;
    } else {
      const key = `v${++unnamed}`;
      values.set(key, expression);
      text += `{${key}}`;
    }
  }
  const object = [...values].map(([key, value]) => `${key}: ${value}`).join(', ');
  const call = `FORMAT(${quote(style === 'template' ? text : unescapeQuotes(text))}, { ${object} })`;
  return call.length <= LIMIT ? call : undefined;
}

type Part = string | { expression: string };

/** `a ${x} b` → ['a ', {x}, ' b']; undefined when a `${` is not closed. */
function templateParts(body: string): Part[] | undefined {
  const parts: Part[] = [];
  let at = 0;
  for (let open = body.indexOf('${'); open >= 0; open = body.indexOf('${', at)) {
    const close = body.indexOf('}', open + 2);
    if (close < 0) return undefined;
    parts.push(body.slice(at, open), { expression: body.slice(open + 2, close) });
    at = close + 1;
  }
  parts.push(body.slice(at));
  return parts.filter((part) => part !== '');
}

/** `a {x:.2f} {{b}}` → ['a ', {x}, ' {b}']; a format spec after `:` or `!` is dropped. */
function fStringParts(body: string): Part[] | undefined {
  const parts: Part[] = [];
  let text = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if ((char === '{' || char === '}') && body[i + 1] === char) {
      text += char;
      i++;
      continue;
    }
    if (char !== '{') {
      text += char;
      continue;
    }
    const close = body.indexOf('}', i + 1);
    if (close < 0) return undefined;
    if (text !== '') parts.push(text);
    text = '';
    parts.push({ expression: body.slice(i + 1, close).split(/[:!]/)[0]! });
    i = close;
  }
  if (text !== '') parts.push(text);
  return parts;
}

/** The text of a double-quoted string body, which quote() escapes again. */
function unescapeQuotes(text: string): string {
  return text.replace(/\\"/g, '"');
}
