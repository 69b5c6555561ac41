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
