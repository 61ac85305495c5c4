// The files `npm run grammar` generates, with their content: one list for the generator and for the
// test that fails when the committed copies are stale.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializedGrammar } from '../../src/syntax/parser.js';
import { renderDiagrams } from './diagrams.js';
import { languageGrammar } from './language.js';
import { renderTmLanguage } from './tmlanguage.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Path (relative to the repository, with /) → content. */
export function generatedFiles(): Record<string, string> {
  const tmLanguage = renderTmLanguage();
  return {
    // The language's rules only: the parser-only ones (WHILE, ELSEIF, ...) are not Nuwa Script.
    'grammar/syntax-diagrams.html': renderDiagrams(languageGrammar(serializedGrammar()).rules),
    'grammar/nuwa.tmLanguage.json': tmLanguage,
    'editors/vscode/syntaxes/nuwa.tmLanguage.json': tmLanguage,
  };
}
