import { randomBytes } from 'node:crypto';

/** After a rotation the old secret keeps signing this long, so receivers can switch without losing a delivery. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** A new endpoint secret: 32 random bytes, base64url, behind a prefix that says what it is. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export interface EndpointSecret {
  secret: string;
  createdAt: string;
  /** When a rotation replaced it; null for the current secret. */
  replacedAt: string | null;
}

/**
 * The secrets that sign at `now`, newest first: the current one, and each replaced one for 24 hours
 * after its replacement.
 */
export function activeSigningSecrets(secrets: readonly EndpointSecret[], now: Date): string[] {
  const at = now.getTime();
  return secrets
    .filter((s) => s.replacedAt === null || at < Date.parse(s.replacedAt) + SECRET_ROTATION_OVERLAP_MS)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .map((s) => s.secret);
}
