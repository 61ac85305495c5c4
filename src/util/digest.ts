// SHA-256 and HMAC-SHA256 as hex, for the identities of scripts and the signatures of checkpoints.
// In one place, so that the hash behind them is chosen once.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function hmacSha256Hex(key: string | Uint8Array, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time (a signature check must not leak where they differ). */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
