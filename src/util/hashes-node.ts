// SHA-256 and HMAC-SHA256 from node:crypto, required on first use: what `#hashes` resolves to under
// Node and in bundles made for Node (package.json "imports", "module-sync" and "node"). Most
// processes never hash anything (a hash is for the identity of a checked plan and the signature of a
// checkpoint), and loading node:crypto at start-up would cost every `import 'nuwa-script'`; being a
// built-in, it adds nothing to a host's bundle either. Browsers get hashes.ts (@noble/hashes).
// Strings are hashed as UTF-8, lone surrogates as U+FFFD, exactly as hashes.ts does.
import { nodeRequire } from './node-require.js';
import type * as Crypto from 'node:crypto';
import type { Digests } from './hashes.js';

let crypto: typeof Crypto | undefined;
const load = (): typeof Crypto => (crypto ??= nodeRequire('node:crypto') as typeof Crypto);

const digests: Digests = {
  sha256Hex: (text) => load().createHash('sha256').update(text, 'utf8').digest('hex'),
  sha256Stream() {
    const hash = load().createHash('sha256');
    return { update: (text) => void hash.update(text, 'utf8'), hex: () => hash.digest('hex') };
  },
  hmacSha256Hex: (key, text) => load().createHmac('sha256', key).update(text, 'utf8').digest('hex'),
};

/** The digest functions; node:crypto is required the first time one of them runs. */
export function loadDigests(): Digests {
  return digests;
}
