import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Secrets are 192 random bits, so a fast hash is enough: nothing can be guessed offline faster
 * than online. SHA-256, stored as hex, compared in constant time. `crypto.hash` is the one-shot
 * form (Node ≥ 20.12): it runs on every authenticated request and costs a third of `createHash`.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/**
 * The secret last verified against each cached key document. The hash was most of what a
 * repeated request from one key paid for authentication; a cached document lives for the identity
 * cache's TTL, so a rotation or revocation (a new document) is verified afresh.
 */
const VERIFIED = new WeakMap<object, Buffer>();

/** `secretMatches` for a key document, remembering a match for as long as the document is cached. */
export function keySecretMatches(key: { secretHash: string }, secret: string): boolean {
  const presented = Buffer.from(secret, 'utf8');
  const known = VERIFIED.get(key);
  if (known && known.length === presented.length && timingSafeEqual(known, presented)) return true;
  if (!secretMatches(secret, key.secretHash)) return false;
  VERIFIED.set(key, presented);
  return true;
}
