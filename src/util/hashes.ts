// SHA-256 and HMAC from @noble/hashes, imported statically: what `#hashes` resolves to where Node
// cannot require() synchronously, and in bundlers and browsers (package.json "imports", "default").
// On Node 20.19+ and 22.12+, `#hashes` is hashes-sync.ts, which loads them on first use.
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

export interface Hashes {
  hmac: typeof hmac;
  sha256: typeof sha256;
  bytesToHex: typeof bytesToHex;
  utf8ToBytes: typeof utf8ToBytes;
}

const hashes: Hashes = { hmac, sha256, bytesToHex, utf8ToBytes };

/** The hash functions digest.ts uses. */
export function noble(): Hashes {
  return hashes;
}
