import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Opaque tokens a client carries back unchanged (page cursors): AES-256-GCM over a JSON payload, with
 * a synthetic IV (an HMAC of the plaintext) so the same payload always seals to the same token. A
 * client can neither read nor forge one; `open` answers null for anything this sealer did not make.
 * Each `purpose` derives its own keys, so a token of one route never opens on another.
 */
export class SealedToken {
  private readonly encKey: Buffer;
  private readonly ivKey: Buffer;

  /** `secret` is shared by every replica (ANALYST_INTERNAL_SECRET); a random one per process otherwise. */
  constructor(secret: string | undefined, purpose: string) {
    const root = secret ?? randomBytes(32).toString('hex');
    this.encKey = createHash('sha256').update(`analyst-${purpose}-enc:${root}`).digest();
    this.ivKey = createHash('sha256').update(`analyst-${purpose}-iv:${root}`).digest();
  }

  seal(payload: unknown): string {
    const plain = Buffer.from(JSON.stringify(payload));
    const iv = createHmac('sha256', this.ivKey).update(plain).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The payload, or null when the token was not sealed here (forged, edited, truncated, another purpose). */
  open(token: string): unknown {
    const raw = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
    if (raw.length < 29) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(
        Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'),
      ) as unknown;
    } catch {
      return null;
    }
  }
}
