// Ajv, loaded when the first validator is compiled: what `#ajv` resolves to where Node can require()
// synchronously (the "module-sync" condition of package.json "imports", Node 20.19+ and 22.12+).
// Loading Ajv takes longer than starting Node itself, and tools described by a parameter list or a
// flat schema are checked without it (validate.ts), so `nuwa run` and most hosts never load it.
// Elsewhere — older Node, bundlers — `#ajv` is the package itself, imported statically.
import { createRequire } from 'node:module';
import type * as AjvPackage from 'ajv';

const require = createRequire(import.meta.url);
let loaded: typeof AjvPackage.Ajv | undefined;

function LazyAjv(options?: AjvPackage.Options): AjvPackage.Ajv {
  loaded ??= (require('ajv') as typeof AjvPackage).Ajv;
  return new loaded(options);
}

/** Ajv's class, as `new Ajv(options)`: the package is required the first time an instance is made. */
export const Ajv = LazyAjv as unknown as typeof AjvPackage.Ajv;
