// Chevrotain, loaded fast. The package's entry point pulls in some 700 small ES modules (lodash-es
// among them), which costs about 300 ms on every start of the `nuwa` command; the package also
// ships the same library as one self-contained file, which loads in about 20 ms. Use that file when
// it is there, and the regular entry point otherwise. Types always come from the package itself.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Chevrotain from 'chevrotain';

function bundledFile(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('chevrotain'); // .../chevrotain/lib/src/api.js
    const bundle = path.resolve(path.dirname(entry), '..', 'chevrotain.mjs');
    return existsSync(bundle) ? pathToFileURL(bundle).href : undefined;
  } catch {
    return undefined;
  }
}

const chevrotain = (await import(bundledFile() ?? 'chevrotain')) as typeof Chevrotain;

export const { createToken, EmbeddedActionsParser, EOF, Lexer } = chevrotain;
export type { IOrAlt, IParserErrorMessageProvider, IToken, TokenType } from 'chevrotain';
