import { verifyWebhookSignature } from '@analyst/client';
import { activeSigningSecrets, generateWebhookSecret, signWebhook, type EndpointSecret } from '../src';

const BODY = '{"id":"evt_1","type":"post.updated"}';
const T = 1_700_000_000;
/** HMAC-SHA256 of `1700000000.<BODY>`, computed with `openssl dgst -sha256 -hmac <secret>`. */
const KNOWN = 'f60cdd123661eeff5386e430ff5ceca794020b2e38425fcd07c91499a27cf5a2';
const KNOWN_OLD = 'a4dda076f166af9a4411fca6e214cbfd79b010a897b908452bc4c9534ada0082';

describe('signWebhook', () => {
  it('writes t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> (known answer from openssl)', () => {
    expect(signWebhook(BODY, ['whsec_known'], T)).toBe(`t=${T},v1=${KNOWN}`);
    expect(signWebhook(Buffer.from(BODY), ['whsec_known'], T)).toBe(`t=${T},v1=${KNOWN}`);
  });

  it('carries one v1 per active secret, in the order given', () => {
    expect(signWebhook(BODY, ['whsec_known', 'whsec_old'], T)).toBe(`t=${T},v1=${KNOWN},v1=${KNOWN_OLD}`);
  });

  it('refuses no secret and a time that is not whole seconds', () => {
    expect(() => signWebhook(BODY, [], T)).toThrow('at least one secret');
    expect(() => signWebhook(BODY, ['s'], 1_700_000_000_123.5)).toThrow('whole unix seconds');
  });
});

describe("signWebhook and the client's verifyWebhookSignature", () => {
  it('a delivery signed here verifies with either active secret, and with no other', async () => {
    const header = signWebhook(BODY, ['whsec_new', 'whsec_known'], T);
    const now = { nowSeconds: T + 10 };
    for (const secret of ['whsec_new', 'whsec_known'])
      await expect(verifyWebhookSignature(BODY, header, secret, now)).resolves.toEqual({
        ok: true,
        timestamp: T,
      });
    await expect(verifyWebhookSignature(BODY, header, 'whsec_other', now)).resolves.toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });
});

describe('signing secrets', () => {
  it('generates distinct prefixed secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('after a rotation both secrets sign for 24 hours, newest first, then only the new one', () => {
    const secrets: EndpointSecret[] = [
      { secret: 'old', createdAt: '2026-03-01T00:00:00.000Z', replacedAt: '2026-03-10T12:00:00.000Z' },
      { secret: 'new', createdAt: '2026-03-10T12:00:00.000Z', replacedAt: null },
    ];
    expect(activeSigningSecrets(secrets, new Date('2026-03-10T11:59:59.000Z'))).toEqual(['new', 'old']);
    expect(activeSigningSecrets(secrets, new Date('2026-03-11T11:59:59.999Z'))).toEqual(['new', 'old']);
    expect(activeSigningSecrets(secrets, new Date('2026-03-11T12:00:00.000Z'))).toEqual(['new']);
  });
});
