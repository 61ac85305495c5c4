// SHA-256 and HMAC-SHA256 as hex, for the identities of scripts and the signatures of checkpoints.
// Behind `#hashes`: node:crypto under Node (hashes-node.ts, loaded when first used), a small audited
// library in browsers (hashes.ts), whose WebCrypto cannot hash synchronously as check/hash.ts needs.
import { loadDigests } from '#hashes';

export function sha256Hex(text: string): string {
  return loadDigests().sha256Hex(text);
}

/** A SHA-256 fed piece by piece (a big program's text is not built as one string). */
export function sha256Stream(): { update(text: string): void; hex(): string } {
  return loadDigests().sha256Stream();
}

export function hmacSha256Hex(key: string | Uint8Array, text: string): string {
  return loadDigests().hmacSha256Hex(key, text);
}

/** Compares two hex digests in constant time (a signature check must not leak where they differ). */
export function sameDigest(a: string, b: string): boolean {
  let different = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) different |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return different === 0;
}
