// Tokenizes Nuwa text with the committed TextMate grammar, as VS Code does (vscode-textmate with
// the Oniguruma regular expressions of vscode-oniguruma).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import oniguruma from 'vscode-oniguruma';
import textmate from 'vscode-textmate';
import type { TokenClass } from '../../src/cli/highlight.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ScopedToken {
  line: number; // 1-based
  start: number; // 0-based column
  end: number;
  text: string;
  scopes: string[];
}

let grammarPromise: Promise<textmate.IGrammar> | undefined;

function loadGrammar(): Promise<textmate.IGrammar> {
  grammarPromise ??= (async () => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName: string) => {
        if (scopeName !== 'source.nuwa') return null;
        const file = path.join(ROOT, 'grammar', 'nuwa.tmLanguage.json');
        return textmate.parseRawGrammar(readFileSync(file, 'utf8'), file);
      },
    });
    const grammar = await registry.loadGrammar('source.nuwa');
    if (!grammar) throw new Error('grammar/nuwa.tmLanguage.json did not load');
    return grammar;
  })();
  return grammarPromise;
}

export async function tokenizeText(text: string): Promise<ScopedToken[]> {
  const grammar = await loadGrammar();
  const out: ScopedToken[] = [];
  let stack = textmate.INITIAL;
  text.split(/\r\n|\r|\n/).forEach((lineText, index) => {
    const result = grammar.tokenizeLine(lineText, stack);
    for (const token of result.tokens) {
      const end = Math.min(token.endIndex, lineText.length);
      if (end <= token.startIndex) continue;
      out.push({ line: index + 1, start: token.startIndex, end, text: lineText.slice(token.startIndex, end), scopes: token.scopes });
    }
    stack = result.ruleStack;
  });
  return out;
}

/** What a highlighter class (src/cli/highlight.ts) requires of the TextMate scopes of each character of the token. */
export const SCOPE_OF_CLASS: Record<TokenClass, (scope: string) => boolean> = {
  keyword: (s) => s.startsWith('keyword.') && !s.startsWith('keyword.operator.'),
  operator: (s) => s.startsWith('keyword.operator.'),
  constant: (s) => s.startsWith('constant.language.'),
  number: (s) => s.startsWith('constant.numeric.'),
  string: (s) => s.startsWith('string.quoted.'),
  comment: (s) => s.startsWith('comment.'),
  builtin: (s) => s.startsWith('support.function.builtin.'),
  function: (s) => s.startsWith('variable.function.'),
  tool: (s) => s.startsWith('entity.name.function.tool.'),
  key: (s) => s.startsWith('support.type.property-name.'),
  property: (s) => s.startsWith('variable.other.property.'),
  variable: (s) => s.startsWith('variable.other.readwrite.'),
  punctuation: (s) => s.startsWith('punctuation.'),
  invalid: (s) => s.startsWith('invalid.'),
};

/** Every example, case and mistakes-corpus script: the texts the highlighters are compared on. */
export function nuwaFiles(): string[] {
  const list = (dir: string) => readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.nuwa')).map((f) => path.join(dir, f));
  return [...list('examples'), ...list('test/cases'), ...list('test/mistakes')];
}
