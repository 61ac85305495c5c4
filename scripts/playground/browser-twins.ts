// The page is built from the sources (src/**/*.ts), not from dist/, so the package.json `browser`
// field, which names the built files (`./dist/tools/sandbox.js` → `./dist/tools/sandbox-browser.js`),
// is applied here to their sources: each Node-only module is replaced by its browser twin, as a
// bundler does for a host that imports the package. Any Node built-in that still reaches the page
// fails the build (esbuild --platform=browser cannot resolve it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'esbuild';

export function browserTwins(root: string): Plugin {
  const { browser } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { browser: Record<string, string> };
  const source = (built: string) => path.join(root, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
  const twins = new Map(Object.entries(browser).map(([node, twin]) => [source(node), source(twin)]));
  return {
    name: 'nuwa-browser-twins',
    setup(build) {
      build.onResolve({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith('.')) return undefined;
        const twin = twins.get(path.resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts'));
        return twin === undefined ? undefined : { path: twin };
      });
    },
  };
}
