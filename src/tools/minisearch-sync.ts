// MiniSearch, loaded when the first index is built: what `#minisearch` resolves to where Node can
// require() synchronously (the "module-sync" condition of package.json "imports"). Most runs never
// search, and should not load the index at start-up; but a keyword search must be able to answer
// synchronously (sdkwork's `search(query)`), so the package is required, not imported, on first use.
// Elsewhere — older Node, bundlers — `#minisearch` is the package itself, imported statically.
import { createRequire } from 'node:module';
import type MiniSearchClass from 'minisearch';

const require = createRequire(import.meta.url);
let loaded: typeof MiniSearchClass | undefined;

const load = (): typeof MiniSearchClass => (loaded ??= require('minisearch') as typeof MiniSearchClass);

function LazyMiniSearch(this: unknown, options: ConstructorParameters<typeof MiniSearchClass>[0]): MiniSearchClass {
  return new (load())(options);
}

/** MiniSearch's class, as `new MiniSearch(options)`: the package is required the first time an index is made. */
export default LazyMiniSearch as unknown as typeof MiniSearchClass;
