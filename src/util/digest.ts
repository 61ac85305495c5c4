// SHA-256 and HMAC-SHA256 as hex, for the identities of scripts and the signatures of checkpoints.
// From a small audited library rather than node:crypto, so that the same code runs in browsers: a
// program's hash (check/hash.ts) is needed synchronously, which the browser's WebCrypto cannot give.
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** A SHA-256 fed piece by piece (a big program's text is not built as one string). */
export function sha256Stream(): { update(text: string): void; hex(): string } {
  const hash = sha256.create();
  return {
    update: (text) => void hash.update(utf8ToBytes(text)),
    hex: () => bytesToHex(hash.digest()),
  };
}

export function hmacSha256Hex(key: string | Uint8Array, text: string): string {
  return bytesToHex(hmac(sha256, typeof key === 'string' ? utf8ToBytes(key) : key, utf8ToBytes(text)));
}

/** Compares two hex digests in constant time (a signature check must not leak where they differ). */
export function sameDigest(a: string, b: string): boolean {
  let different = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) different |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return different === 0;
}
