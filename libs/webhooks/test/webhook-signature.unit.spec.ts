import {
  activeSigningSecrets,
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  type EndpointSecret,
} from '../src';

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

describe('verifyWebhookSignature', () => {
  const now = { nowSeconds: T + 10 };

  it('accepts the signature of the raw body, string or bytes, within the tolerance', async () => {
    const header = signWebhook(BODY, ['whsec_known'], T);
    await expect(verifyWebhookSignature(BODY, header, 'whsec_known', now)).resolves.toEqual({
      ok: true,
      timestamp: T,
    });
    await expect(
      verifyWebhookSignature(new TextEncoder().encode(BODY), header, 'whsec_known', now),
    ).resolves.toEqual({ ok: true, timestamp: T });
  });

  it('after a rotation a receiver holding either secret verifies the same delivery', async () => {
    const header = signWebhook(BODY, ['whsec_new', 'whsec_known'], T);
    for (const secret of ['whsec_new', 'whsec_known'])
      await expect(verifyWebhookSignature(BODY, header, secret, now)).resolves.toMatchObject({ ok: true });
    await expect(verifyWebhookSignature(BODY, header, 'whsec_other', now)).resolves.toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a forged body, a forged signature and a wrong secret', async () => {
    const header = signWebhook(BODY, ['whsec_known'], T);
    const forgedBody = BODY.replace('post.updated', 'analysis.ready');
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    const resigned = `t=${T + 5},v1=${KNOWN}`; // a fresher time under the old signature
    for (const [body, h, secret] of [
      [forgedBody, header, 'whsec_known'],
      [BODY, flipped, 'whsec_known'],
      [BODY, header, 'whsec_wrong'],
      [BODY, resigned, 'whsec_known'],
    ])
      await expect(verifyWebhookSignature(body, h, secret, now)).resolves.toEqual({
        ok: false,
        reason: 'mismatch',
      });
  });

  it('rejects a stale or future time outside the tolerance (default 300 s, or the one asked)', async () => {
    const header = signWebhook(BODY, ['whsec_known'], T);
    const at = (nowSeconds: number, toleranceSeconds?: number) =>
      verifyWebhookSignature(BODY, header, 'whsec_known', { nowSeconds, toleranceSeconds });
    await expect(at(T + 300)).resolves.toMatchObject({ ok: true });
    await expect(at(T + 301)).resolves.toEqual({ ok: false, reason: 'stale' });
    await expect(at(T - 301)).resolves.toEqual({ ok: false, reason: 'stale' });
    await expect(at(T + 60, 30)).resolves.toEqual({ ok: false, reason: 'stale' });
    await expect(at(T + 3600, 7200)).resolves.toMatchObject({ ok: true });
  });

  it('rejects a missing or malformed header', async () => {
    const v1 = `v1=${KNOWN}`;
    await expect(verifyWebhookSignature(BODY, undefined, 's', now)).resolves.toEqual({
      ok: false,
      reason: 'missing',
    });
    await expect(verifyWebhookSignature(BODY, '', 's', now)).resolves.toEqual({
      ok: false,
      reason: 'missing',
    });
    for (const header of [
      'garbage',
      v1, // no time
      `t=${T}`, // no signature
      `t=abc,${v1}`,
      `t=${T},t=${T},${v1}`,
      `t=${T},v1=${KNOWN.slice(2)}`, // short
      `t=${T},v1=${KNOWN.toUpperCase()}`,
      `t=${T},v1=${'z'.repeat(64)}`,
      `t=${T},,${v1}`,
    ])
      await expect(verifyWebhookSignature(BODY, header, 'whsec_known', now)).resolves.toEqual({
        ok: false,
        reason: 'malformed',
      });
  });

  it('skips schemes it does not know and reads a header repeated by a proxy', async () => {
    const header = `t=${T},v0=abc,v1=${KNOWN}`;
    await expect(verifyWebhookSignature(BODY, header, 'whsec_known', now)).resolves.toMatchObject({
      ok: true,
    });
    await expect(
      verifyWebhookSignature(BODY, [`t=${T}`, `v1=${KNOWN}`], 'whsec_known', now),
    ).resolves.toMatchObject({ ok: true });
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
