import { createHmac } from 'node:crypto';

/** The header a delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one v1 per secret. */
export const SIGNATURE_HEADER = 'Analyst-Signature';

/** The signed content: the timestamp, a dot, and the body exactly as sent (so a receiver must verify the raw bytes). */
export function signedPayload(timestamp: number, rawBody: string | Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), Buffer.from(rawBody)]);
}

/**
 * The `Analyst-Signature` value for one attempt: one `v1` per active secret (both, during the
 * 24 hours after a rotation), so a receiver holding either secret can verify. The secret's UTF-8
 * bytes are the HMAC key, as a receiver in any language would use the string it was shown.
 */
export function signWebhook(
  rawBody: string | Uint8Array,
  secrets: readonly string[],
  nowSeconds: number,
): string {
  if (secrets.length === 0) throw new Error('signWebhook needs at least one secret');
  if (!Number.isSafeInteger(nowSeconds) || nowSeconds < 0)
    throw new Error(`signWebhook needs whole unix seconds, got ${nowSeconds}`);
  const payload = signedPayload(nowSeconds, rawBody);
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(payload).digest('hex')}`,
  );
  return [`t=${nowSeconds}`, ...signatures].join(',');
}
