// Builds the playground page (src/playground/page) with esbuild for browsers: one minified script
// (the editor, the interpreter and the examples) and one stylesheet, loading nothing from the
// network. The examples gallery and the static build's tools are made here from examples/.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { ASSETS, pageHtml } from '../../src/playground/html.js';
import { browserTwins } from './browser-twins.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = path.join(ROOT, 'src', 'playground', 'page');
const EXAMPLES = path.join(ROOT, 'examples');

/** The tools modules the static page runs, and the state it starts with (as `--tools ... --state ...`). */
const STATIC_TOOLS = ['examples/tools.mjs', 'examples/todo-tools.mjs', 'examples/errors/tools.mjs'];
const STATIC_STATE = 'examples/todo-state.json';

export interface BuildResult {
  /** The files written, with their sizes in bytes. */
  files: Array<{ file: string; bytes: number }>;
  metafile: Metafile;
}

/**
 * Writes `outDir/assets/playground.js` and `.css`; with `standalone`, also `outDir/index.html`: the
 * static page, which runs the example tools itself.
 */
export async function buildPlayground(outDir: string, options: { standalone?: boolean } = {}): Promise<BuildResult> {
  rmSync(path.join(outDir, 'assets'), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: path.join(PAGE, 'main.ts'), out: 'playground' },
      { in: path.join(PAGE, 'style.css'), out: 'playground' },
    ],
    outdir: path.join(outDir, path.dirname(ASSETS.script)),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    plugins: [examplesModule(), staticToolsModule(), browserTwins(ROOT)],
  });
  if (options.standalone) writeFileSync(path.join(outDir, 'index.html'), pageHtml({ mode: 'static' }));
  const files = Object.keys(result.metafile.outputs).map((file) => ({ file: path.relative(ROOT, path.resolve(ROOT, file)), bytes: result.metafile.outputs[file]!.bytes }));
  if (options.standalone) files.push({ file: path.relative(ROOT, path.join(outDir, 'index.html')), bytes: readFileSync(path.join(outDir, 'index.html')).length });
  return { files, metafile: result.metafile };
}

/** `nuwa:examples`: the gallery, examples/*.nuwa in the order examples/README.md teaches them, then the errors. */
function examplesModule(): Plugin {
  return virtualModule('nuwa:examples', () => {
    const readme = readFileSync(path.join(EXAMPLES, 'README.md'), 'utf8');
    const taught = [...readme.matchAll(/\[`([\w-]+\.nuwa)`\]/g)].map((match) => match[1]!);
    const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.nuwa'));
    const course = [...new Set([...taught.filter((file) => files.includes(file)), ...files.sort()])];
    const errors = readdirSync(path.join(EXAMPLES, 'errors')).filter((file) => file.endsWith('.nuwa')).sort();
    const example = (file: string, group: 'course' | 'errors') => {
      const source = readFileSync(path.join(EXAMPLES, file), 'utf8');
      const title = /^\/\/\s*(.*)$/m.exec(source)?.[1] ?? '';
      return { path: `examples/${file}`, title, group, source };
    };
    const list = [...course.map((file) => example(file, 'course')), ...errors.map((file) => example(`errors/${file}`, 'errors'))];
    return { contents: `export default ${JSON.stringify(list)};`, watchFiles: [...course, ...errors.map((f) => `errors/${f}`)].map((f) => path.join(EXAMPLES, f)) };
  });
}

/** `nuwa:static-tools`: the examples' tools modules and initial state, for the static page. */
function staticToolsModule(): Plugin {
  return virtualModule('nuwa:static-tools', () => {
    const imports = STATIC_TOOLS.map((file, i) => `import tools${i} from ${JSON.stringify(path.join(ROOT, file))};`).join('\n');
    const state = readFileSync(path.join(ROOT, STATIC_STATE), 'utf8');
    return {
      contents: `${imports}\nexport const toolModules = [${STATIC_TOOLS.map((_, i) => `tools${i}`).join(', ')}];\nexport const initialState = ${state.trim()};`,
      watchFiles: [path.join(ROOT, STATIC_STATE)],
    };
  });
}

function virtualModule(name: string, load: () => { contents: string; watchFiles: string[] }): Plugin {
  const namespace = `virtual-${name.replace(/\W/g, '-')}`;
  return {
    name,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, namespace }));
      build.onLoad({ filter: /.*/, namespace }, () => ({ ...load(), loader: 'js', resolveDir: ROOT }));
    },
  };
}

/** Makes sure a folder exists (for the static build's output). */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}
