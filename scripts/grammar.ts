// `npm run grammar`: regenerates the files derived from the parser and the language's metadata, and
// checks grammar/nuwa.ebnf against the parser. Run it after changing src/syntax/ (tokens, rules) or
// the built-ins; test/unit/grammar/generated.test.ts fails while the committed files are stale.
//   grammar/syntax-diagrams.html                  railroad diagrams, from the parser's grammar (the
//                                                 language's part: scripts/grammar/language.ts)
//   grammar/nuwa.tmLanguage.json                  the TextMate grammar (keywords, built-ins)
//   editors/vscode/syntaxes/nuwa.tmLanguage.json  the same, inside the VS Code extension
import { readFileSync, writeFileSync } from 'node:fs';
import { generatedFiles, ROOT } from './grammar/files.js';
import { checkEbnf } from './grammar/ebnf.js';
import { serializedGrammar } from '../src/syntax/parser.js';
import path from 'node:path';

let changed = 0;
for (const [file, content] of Object.entries(generatedFiles())) {
  const target = path.join(ROOT, file);
  let current: string | undefined;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  writeFileSync(target, content);
  changed++;
  console.log(`wrote ${file}`);
}
if (changed === 0) console.log('the generated grammar files are up to date');

const problems = checkEbnf(readFileSync(path.join(ROOT, 'grammar', 'nuwa.ebnf'), 'utf8'), serializedGrammar());
if (problems.length > 0) {
  console.error(`grammar/nuwa.ebnf disagrees with the parser (src/syntax/grammar.ts); edit the EBNF (or the tables of scripts/grammar/language.ts), then run \`npm run grammar\` again:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('grammar/nuwa.ebnf agrees with the parser');
}
