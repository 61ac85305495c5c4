// Ajv, required when the first validator is compiled: what `#ajv` resolves to under Node (the
// "module-sync" and "node" conditions of package.json "imports"), also in a host's bundle made for
// Node, which then does not carry it. Loading Ajv takes longer than starting Node itself, and tools
// described by a parameter list or a flat schema are checked without it (validate.ts,
// flat-schema.ts), so `nuwa run` and most hosts never load it. In browsers and browser bundles
// `#ajv` is the package itself, imported statically.
import { nodeRequire } from '../util/node-require.js';
import type * as AjvPackage from 'ajv';

let loaded: typeof AjvPackage.Ajv | undefined;

function LazyAjv(options?: AjvPackage.Options): AjvPackage.Ajv {
  loaded ??= (nodeRequire('ajv') as typeof AjvPackage).Ajv;
  return new loaded(options);
}

/** Ajv's class, as `new Ajv(options)`: the package is required the first time an instance is made. */
export const Ajv = LazyAjv as unknown as typeof AjvPackage.Ajv;
