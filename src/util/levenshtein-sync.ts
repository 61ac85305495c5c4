// fastest-levenshtein, required on first use: what `#fastest-levenshtein` resolves to where Node can
// require() synchronously (the "module-sync" condition of package.json "imports", Node 20.19+ and
// 22.12+). Only a misspelt name needs an edit distance, and importing the CommonJS package from an
// ES module makes Node load its CommonJS export lexer as well: a few milliseconds of every
// `import 'nuwa-script'`. Elsewhere — older Node, bundlers, browsers — it is the package itself.
import { createRequire } from 'node:module';
import type * as Levenshtein from 'fastest-levenshtein';

const require = createRequire(import.meta.url);
let loaded: typeof Levenshtein.distance | undefined;

/** The edit distance between two strings; the package is required the first time it is asked for. */
export function distance(a: string, b: string): number {
  return (loaded ??= (require('fastest-levenshtein') as typeof Levenshtein).distance)(a, b);
}
