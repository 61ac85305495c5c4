// Regenerates the "common mistakes" table of docs/language.md from the mistakes corpus.
//   npm run docs:mistakes
import { readFileSync, writeFileSync } from 'node:fs';
import { mistakesTable, readCorpus, score, TABLE_END, TABLE_START } from './corpus.js';

const docsFile = new URL('../../docs/language.md', import.meta.url);
const docs = readFileSync(docsFile, 'utf8');
const start = docs.indexOf(TABLE_START);
const end = docs.indexOf(TABLE_END);
if (start < 0 || end < start) {
  console.error(`docs/language.md: the markers of the generated table are missing:\n${TABLE_START}\n${TABLE_END}`);
  process.exit(1);
}
const scores = [];
for (const script of readCorpus()) scores.push(await score(script));
writeFileSync(docsFile, docs.slice(0, start) + mistakesTable(scores) + docs.slice(end + TABLE_END.length));
console.log(`docs/language.md: common mistakes table regenerated from ${scores.length} scripts`);
