// SHA-256 and HMAC from @noble/hashes, required on first use: what `#hashes` resolves to where Node
// can require() synchronously (the "module-sync" condition of package.json "imports", Node 20.19+
// and 22.12+). Most processes never hash anything (a hash is for the identity of a checked plan and
// the signature of a checkpoint), and loading the library and node:crypto with it cost a tenth of
// `import 'nuwa-script'`. Elsewhere — older Node, bundlers, browsers — `#hashes` is hashes.ts.
import { createRequire } from 'node:module';
import type { Hashes } from './hashes.js';

const require = createRequire(import.meta.url);
let loaded: Hashes | undefined;

/** The hash functions digest.ts uses, loaded the first time they are asked for. */
export function noble(): Hashes {
  return (loaded ??= {
    hmac: (require('@noble/hashes/hmac') as typeof import('@noble/hashes/hmac')).hmac,
    sha256: (require('@noble/hashes/sha256') as typeof import('@noble/hashes/sha256')).sha256,
    ...(require('@noble/hashes/utils') as Pick<Hashes, 'bytesToHex' | 'utf8ToBytes'>),
  });
}
