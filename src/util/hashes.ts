// SHA-256 and HMAC-SHA256 from @noble/hashes, imported statically: what `#hashes` resolves to in
// browsers and browser bundles (package.json "imports", "default"), where node:crypto does not exist
// and WebCrypto cannot hash synchronously (a program's hash, check/hash.ts, is needed at once).
// Under Node, and in bundles made for Node, `#hashes` is hashes-node.ts.
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** The digests digest.ts offers, each as lowercase hex. */
export interface Digests {
  sha256Hex(text: string): string;
  /** A SHA-256 fed piece by piece (a big program's text is not built as one string). */
  sha256Stream(): { update(text: string): void; hex(): string };
  hmacSha256Hex(key: string | Uint8Array, text: string): string;
}

const digests: Digests = {
  sha256Hex: (text) => bytesToHex(sha256(utf8ToBytes(text))),
  sha256Stream() {
    const hash = sha256.create();
    return { update: (text) => void hash.update(utf8ToBytes(text)), hex: () => bytesToHex(hash.digest()) };
  },
  hmacSha256Hex: (key, text) => bytesToHex(hmac(sha256, typeof key === 'string' ? utf8ToBytes(key) : key, utf8ToBytes(text))),
};

/** The digest functions. */
export function loadDigests(): Digests {
  return digests;
}
