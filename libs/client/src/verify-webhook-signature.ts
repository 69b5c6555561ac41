/**
 * A receiver's check of `Analyst-Signature`. Self-contained on purpose (no imports, Web Crypto
 * only), so the typed client can export it as is and it runs in Node 20+, Deno, Bun, browsers and
 * edge workers alike; that is why it is async (Web Crypto is).
 */

export interface VerifyWebhookSignatureOptions {
  /** How far the signed time may be from now, either way (default 300 s): older is a replay. */
  toleranceSeconds?: number;
  /** The receiver's clock in unix seconds (default: now). */
  nowSeconds?: number;
}

export type WebhookSignatureCheck =
  { ok: true; timestamp: number } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

const SIGNATURE_HEX = /^[0-9a-f]{64}$/;
const TIMESTAMP = /^\d{1,12}$/;

function parseHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !TIMESTAMP.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!SIGNATURE_HEX.test(value)) return null;
      signatures.push(value);
    }
    // Other schemes (a later v2) are skipped, so a receiver keeps working when one is added.
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

function hexToBytes(hex: string) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function concat(a: Uint8Array, b: Uint8Array) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Whether `rawBody` (the bytes received, before any JSON parsing) was signed with `secret` within
 * the tolerance. Each `v1` is checked with Web Crypto's HMAC verify, which compares in constant
 * time; any one matching is enough (after a rotation the header carries one per active secret).
 */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: string,
  options: VerifyWebhookSignatureOptions = {},
): Promise<WebhookSignatureCheck> {
  // A header repeated by a proxy arrives as a list: its values read as one comma-separated header.
  const value = typeof header === 'string' ? header : header?.join(',');
  if (value === undefined || value === '') return { ok: false, reason: 'missing' };
  const parsed = parseHeader(value);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: 'stale' };
  const encoder = new TextEncoder();
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const signed = concat(encoder.encode(`${parsed.timestamp}.`), body);
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  for (const signature of parsed.signatures) {
    if (await crypto.subtle.verify('HMAC', key, hexToBytes(signature), signed))
      return { ok: true, timestamp: parsed.timestamp };
  }
  return { ok: false, reason: 'mismatch' };
}
