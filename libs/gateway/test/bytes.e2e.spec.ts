import { DAILY_RESPONSE_BYTES, MAX_RESPONSE_BYTES } from '@analyst/domain-identity';
import { gatewayTest, type GatewayTest } from './gateway-fixture';
import { SpecRoutesModule } from './spec-routes';

describe('response-size cap and daily byte cap (spec: Limits, Errors)', () => {
  let g: GatewayTest;
  beforeAll(async () => (g = await gatewayTest([SpecRoutesModule])));
  afterAll(() => g.t.close());

  it('uses the contract numbers: 5 MB per response, 500 MB per key per day', () => {
    expect(MAX_RESPONSE_BYTES).toBe(5 * 1024 * 1024);
    expect(DAILY_RESPONSE_BYTES).toBe(500 * 1024 * 1024);
  });

  it('sends a 5 MB body, and answers 413 suggesting a smaller limit for one byte more', async () => {
    const key = await g.key(await g.team('growth'));
    const exact = await g.get(`/analyst/v1/blob?size=${MAX_RESPONSE_BYTES}`, key);
    expect(exact.status).toBe(200);
    expect(exact.raw.length).toBe(MAX_RESPONSE_BYTES);
    const over = await g.get(`/analyst/v1/blob?size=${MAX_RESPONSE_BYTES + 1}`, key);
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('response_too_large');
    expect(over.body.error.message).toContain('smaller `limit`');
    expect(over.headers['x-ratelimit-class']).toBe('global');
    expect(over.headers['content-length']).toBe(String(Buffer.byteLength(over.raw)));
  });

  it('counts the bytes actually sent (a 413 counts its envelope, not the refused body)', async () => {
    const key = await g.key(await g.team('growth'));
    const first = await g.get('/analyst/v1/me', key);
    const before = first.body.data.rateLimit.remainingBytes;
    const blob = await g.get('/analyst/v1/blob?size=1000', key);
    const refused = await g.get(`/analyst/v1/blob?size=${MAX_RESPONSE_BYTES + 1}`, key);
    const after = await g.get('/analyst/v1/me', key);
    expect(after.body.data.rateLimit.remainingBytes).toBe(
      before - Buffer.byteLength(first.raw) - blob.raw.length - Buffer.byteLength(refused.raw),
    );
  });

  it('stops a key at 500 MB per UTC day: never sends a body past the cap, then 429 with Retry-After to midnight', async () => {
    const key = await g.key(await g.team('growth'));
    g.clock.set('2026-03-10T20:00:00.000Z');
    for (let i = 0; i < 99; i++) {
      const response = await g.get(`/analyst/v1/blob?size=${MAX_RESPONSE_BYTES}`, key);
      if (response.status !== 200) throw new Error(`response ${i + 1} got ${response.status}`);
    }
    expect((await g.get(`/analyst/v1/blob?size=${MAX_RESPONSE_BYTES - 100}`, key)).status).toBe(200);
    // 100 bytes left: a 1,000-byte body is replaced by the 429 (whose own bytes use up the rest)
    const pushing = await g.get('/analyst/v1/blob?size=1000', key);
    expect(pushing.status).toBe(429);
    expect(pushing.headers['retry-after']).toBe(String(4 * 3600));
    expect(pushing.headers['x-ratelimit-class']).toBe('response_bytes');
    expect(pushing.body.error.message).toBe(
      `daily response byte cap of ${DAILY_RESPONSE_BYTES} bytes reached (this response is 1000 bytes); retry in 14400 s`,
    );
    g.clock.set('2026-03-10T21:00:00.000Z');
    const capped = await g.get('/analyst/v1/blob?size=10', key);
    expect(capped.status).toBe(429);
    expect(capped.headers['retry-after']).toBe(String(3 * 3600));
    expect(capped.headers['x-ratelimit-class']).toBe('response_bytes');
    expect(capped.body.error.message).toBe(
      `daily response byte cap of ${DAILY_RESPONSE_BYTES} bytes reached; retry in 10800 s`,
    );
    g.clock.set('2026-03-11T00:00:00.000Z');
    expect((await g.get('/analyst/v1/blob?size=10', key)).status).toBe(200);
  });
});
