// Chevrotain's single-file bundle, loaded synchronously: what `#chevrotain` resolves to on the Node
// versions that can require() an ES module (20.19+, 22.12+; the "module-sync" condition, see
// package.json "imports"). The package's entry point pulls in some 700 small modules (lodash-es
// among them), about 300 ms on a cold start; the bundle next to it loads in about 20 ms, and its
// minified form (the same code) in a little less again. Elsewhere — older Node, bundlers —
// `#chevrotain` is the package itself, imported statically.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Chevrotain from 'chevrotain';

const require = createRequire(import.meta.url);
const entry = require.resolve('chevrotain'); // .../chevrotain/lib/src/api.js
const bundle = ['chevrotain.min.mjs', 'chevrotain.mjs'].map((name) => path.resolve(path.dirname(entry), '..', name)).find(existsSync);
const chevrotain = require(bundle ?? entry) as typeof Chevrotain;

export const { createToken, EmbeddedActionsParser, EOF, getLookaheadPaths, Lexer, LLkLookaheadStrategy, serializeGrammar, tokenMatcher } = chevrotain;
