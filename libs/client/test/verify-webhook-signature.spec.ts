import { createHmac } from 'node:crypto';
import { verifyWebhookSignature } from '@analyst/client';

const BODY = '{"id":"evt_1","type":"post.updated"}';
const T = 1_700_000_000;
/** HMAC-SHA256 of `1700000000.<BODY>` with `whsec_known`, computed with `openssl dgst -sha256 -hmac`. */
const KNOWN = 'f60cdd123661eeff5386e430ff5ceca794020b2e38425fcd07c91499a27cf5a2';

/** The header as the server writes it, made here with node:crypto (the verifier uses Web Crypto). */
function sign(secrets: string[], body = BODY, t = T): string {
  const v1 = secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${body}`).digest('hex')}`);
  return [`t=${t}`, ...v1].join(',');
}

it('signs the known answer the way the server does (the helper below is right)', () => {
  expect(sign(['whsec_known'])).toBe(`t=${T},v1=${KNOWN}`);
});

describe('verifyWebhookSignature', () => {
  const now = { nowSeconds: T + 10 };

  it('accepts the signature of the raw body, string or bytes, within the tolerance', async () => {
    const header = sign(['whsec_known']);
    await expect(verifyWebhookSignature(BODY, header, 'whsec_known', now)).resolves.toEqual({
      ok: true,
      timestamp: T,
    });
    await expect(
      verifyWebhookSignature(new TextEncoder().encode(BODY), header, 'whsec_known', now),
    ).resolves.toEqual({ ok: true, timestamp: T });
  });

  it('after a rotation a receiver holding either secret verifies the same delivery', async () => {
    const header = sign(['whsec_new', 'whsec_known']);
    for (const secret of ['whsec_new', 'whsec_known'])
      await expect(verifyWebhookSignature(BODY, header, secret, now)).resolves.toMatchObject({ ok: true });
    await expect(verifyWebhookSignature(BODY, header, 'whsec_other', now)).resolves.toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a forged body, a forged signature and a wrong secret', async () => {
    const header = sign(['whsec_known']);
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
    const header = sign(['whsec_known']);
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
