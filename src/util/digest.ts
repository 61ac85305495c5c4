// SHA-256 and HMAC-SHA256 as hex, for the identities of scripts and the signatures of checkpoints.
// From a small audited library rather than node:crypto, so that the same code runs in browsers: a
// program's hash (check/hash.ts) is needed synchronously, which the browser's WebCrypto cannot give.
// The library is behind `#hashes` (hashes.ts, hashes-sync.ts), so that Node loads it when first used.
import { noble } from '#hashes';

export function sha256Hex(text: string): string {
  const { bytesToHex, sha256, utf8ToBytes } = noble();
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** A SHA-256 fed piece by piece (a big program's text is not built as one string). */
export function sha256Stream(): { update(text: string): void; hex(): string } {
  const { bytesToHex, sha256, utf8ToBytes } = noble();
  const hash = sha256.create();
  return {
    update: (text) => void hash.update(utf8ToBytes(text)),
    hex: () => bytesToHex(hash.digest()),
  };
}

export function hmacSha256Hex(key: string | Uint8Array, text: string): string {
  const { bytesToHex, hmac, sha256, utf8ToBytes } = noble();
  return bytesToHex(hmac(sha256, typeof key === 'string' ? utf8ToBytes(key) : key, utf8ToBytes(text)));
}

/** Compares two hex digests in constant time (a signature check must not leak where they differ). */
export function sameDigest(a: string, b: string): boolean {
  let different = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) different |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return different === 0;
}
