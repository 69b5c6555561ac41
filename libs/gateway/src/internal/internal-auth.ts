import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Principal } from '@analyst/platform';

/** Header the gateway adds to every forwarded request; services accept nothing without it. */
export const INTERNAL_AUTH_HEADER = 'x-analyst-internal-auth';

/** How long a signature stays valid: enough for a forward, too short to replay later. */
export const INTERNAL_AUTH_TTL_MS = 60_000;

export interface InternalClaims {
  principal: Principal;
  requestId: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/** `<base64url(JSON claims)>.<base64url(HMAC-SHA256)>` */
export function signInternalAuth(
  secret: string,
  principal: Principal,
  requestId: string,
  now: number,
): string {
  const claims: InternalClaims = { principal, requestId, exp: now + INTERNAL_AUTH_TTL_MS };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

export type InternalAuthResult = { ok: true; claims: InternalClaims } | { ok: false; reason: string };

export function verifyInternalAuth(
  secret: string,
  header: string | undefined,
  now: number,
): InternalAuthResult {
  if (!header) return { ok: false, reason: 'missing internal auth header' };
  const dot = header.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed internal auth header' };
  const payload = header.slice(0, dot);
  const given = Buffer.from(header.slice(dot + 1), 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad internal auth signature' };
  }
  let claims: InternalClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as InternalClaims;
  } catch {
    return { ok: false, reason: 'malformed internal auth claims' };
  }
  if (typeof claims.exp !== 'number' || claims.exp < now)
    return { ok: false, reason: 'expired internal auth header' };
  return { ok: true, claims };
}
