// Prints what the first run of each corpus script reports (or of the files given), to see the
// messages while writing a case:   npx tsx test/mistakes/show.ts [file.nuwa ...]
import { readCorpus, readScript, score } from './corpus.js';

const files = process.argv.slice(2);
const scripts = files.length > 0 ? files.map((file) => readScript(file.replace(/^.*\//, ''))) : readCorpus();
for (const script of scripts) {
  const result = await score(script);
  console.log(`== ${script.file}: ${script.task}`);
  for (const problem of script.problems) console.log(`  (malformed) ${problem}`);
  for (const e of result.errors) console.log(`  ${e.line}:${e.column} ${e.kind}: ${e.message}`);
  for (const mark of script.marks.filter((m) => !result.named.some((n) => n.mark === m))) console.log(`  MISSED line ${mark.line}: no error names "${mark.fix}"`);
  for (const e of result.followOn) console.log(`  FOLLOW-ON ${e.line}:${e.column}: no mark accounts for this error`);
}
