/**
 * A presented key is `<keyId>.<secret>`: the id (`ak_...`) finds the stored hash, the secret is
 * compared against it. Ids and secrets are URL-safe base64 characters, so the first `.` splits them.
 */
export const KEY_ID_PREFIX = 'ak_';
const KEY_ID = /^ak_[A-Za-z0-9_-]{8,64}$/;
const SECRET = /^[A-Za-z0-9_-]{16,128}$/;

export function formatApiKey(keyId: string, secret: string): string {
  return `${keyId}.${secret}`;
}

export function parseApiKey(presented: string): { keyId: string; secret: string } | null {
  const dot = presented.indexOf('.');
  if (dot < 0) return null;
  const keyId = presented.slice(0, dot);
  const secret = presented.slice(dot + 1);
  return isKeyId(keyId) && isKeySecret(secret) ? { keyId, secret } : null;
}

export function isKeyId(value: string): boolean {
  return KEY_ID.test(value);
}

export function isKeySecret(value: string): boolean {
  return SECRET.test(value);
}
