// A require() for the modules Nuwa loads on first use under Node (Ajv, node:crypto). These modules
// also end up in hosts' bundles made for Node, which leave such a require() to run then: in an ES
// module bundle it resolves from import.meta.url, in a CommonJS one (where esbuild empties
// import.meta) from the bundle's __filename.
import { createRequire } from 'node:module';

export const nodeRequire: NodeJS.Require = createRequire(import.meta.url ?? __filename);
