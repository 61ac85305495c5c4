// Builds the playground page (scripts/playground/build.ts):
//   tsx scripts/playground.ts            dist/playground/assets/: what `nuwa playground` serves (npm run build
//                                        builds it too, through scripts/build.ts)
//   tsx scripts/playground.ts --static   playground-dist/: the static page with the example tools in it
//                                        (npm run playground:build; --static DIR writes elsewhere)
import path from 'node:path';
import { buildPlayground, ensureDir, ROOT } from './playground/build.js';

const args = process.argv.slice(2);
const standalone = args[0] === '--static';
const outDir = path.resolve(ROOT, standalone ? (args[1] ?? 'playground-dist') : path.join('dist', 'playground'));
ensureDir(outDir);
try {
  const { files } = await buildPlayground(outDir, { standalone });
  for (const { file, bytes } of files) console.log(`${file}  ${(bytes / 1024).toFixed(1)} KB`);
  if (standalone) console.log(`The static playground is in ${path.relative(process.cwd(), outDir) || '.'}: serve that folder with any web server.`);
} catch (error) {
  console.error(`the playground page did not build: ${(error as Error).message}`);
  process.exit(1);
}
