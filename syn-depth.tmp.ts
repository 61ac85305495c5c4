import { tokenize } from './src/syntax/lexer.ts';
import { parseTokens } from './src/syntax/parser.ts';
function tryDepth(make: (n: number) => string) {
  let lo = 1, hi = 1000;
  // find max depth parse succeeds
  let best = 0;
  for (const n of [10,20,40,60,80,100,150,200,300,400,600,800,1000]) {
    try { const t = tokenize(make(n)); parseTokens(t.tokens); best = n; } catch (e) { return `${best} (fail at ${n}: ${(e as Error).message.slice(0,40)})`; }
  }
  return best;
}
const paren = (n: number) => `LET x = ${'('.repeat(n)}1${')'.repeat(n)}`;
const list = (n: number) => `LET x = ${'['.repeat(n)}${']'.repeat(n)}`;
const ifs = (n: number) => `${'IF true THEN '.repeat(n)}PRINT(1)${' END'.repeat(n)}`;
console.log('paren', tryDepth(paren));
console.log('list', tryDepth(list));
console.log('if', tryDepth(ifs));
console.log('paren warm', tryDepth(paren));
