import { FixedClock } from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';
import { GatewayModule, IdentityService } from '@analyst/gateway';
import { START } from './gateway-fixture';

const PROXY = '10.1.2.3';
const BAD = { 'x-api-key': 'ak_unknown00.0123456789abcdefghij' };

async function gateway(env: Record<string, string>): Promise<{ t: TestApp; key: string }> {
  const t = await createTestApp({ modules: [GatewayModule], clock: new FixedClock(START), env });
  const identity = t.app.get(IdentityService);
  const ctx = { correlationId: 'test', teamId: null };
  const { teamId } = await identity.createTeam({ name: 'Proxy team', plan: 'growth' }, ctx);
  return { t, key: (await identity.createKey(teamId, { name: 'k', scopes: ['team:read'] }, ctx)).key };
}

/** Fails authentication `times` times from the socket peer `ip`, with X-Forwarded-For `forwarded`. */
async function fail(t: TestApp, times: number, ip: string, forwarded?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    const headers: Record<string, string> = {
      ...BAD,
      ...(forwarded ? { 'x-forwarded-for': forwarded } : {}),
    };
    statuses.push((await t.request('GET', '/analyst/v1/me', { headers, ip })).status);
  }
  return statuses;
}

describe('failed-auth limit behind trusted proxies (ANALYST_TRUST_PROXY)', () => {
  describe('with the proxy range trusted', () => {
    let t: TestApp;
    let key: string;
    beforeAll(async () => ({ t, key } = await gateway({ ANALYST_TRUST_PROXY: '10.0.0.0/8' })));
    afterAll(() => t.close());

    it('counts failures per forwarded client, so two clients behind one proxy have separate budgets', async () => {
      expect(await fail(t, 30, PROXY, '203.0.113.5')).toEqual(Array(30).fill(401));
      const blocked = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.5' },
        ip: PROXY,
      });
      expect(blocked.status).toBe(429);
      expect(blocked.headers['x-ratelimit-class']).toBe('auth_failures');
      // Another client through the same proxy, and the proxy itself, still have their whole budget.
      const other = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.9' },
        ip: PROXY,
      });
      expect(other.status).toBe(200);
      expect(await fail(t, 1, PROXY, '198.51.100.9')).toEqual([401]);
      expect(
        (await t.request('GET', '/analyst/v1/me', { headers: { authorization: `Bearer ${key}` }, ip: PROXY }))
          .status,
      ).toBe(200);
    });

    it('takes the rightmost untrusted hop, so a client cannot pick its address by prepending one', async () => {
      // The client sent "X-Forwarded-For: 192.0.2.77"; the trusted proxies appended the real client and themselves.
      expect(await fail(t, 30, PROXY, '192.0.2.77, 203.0.113.44, 10.9.9.9')).toEqual(Array(30).fill(401));
      const spoofing = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '192.0.2.1, 203.0.113.44' },
        ip: PROXY,
      });
      expect(spoofing.status).toBe(429);
      const theOneNamed = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '192.0.2.77' },
        ip: PROXY,
      });
      expect(theOneNamed.status).toBe(200);
    });

    it('ignores X-Forwarded-For from a peer outside the trusted ranges', async () => {
      expect(await fail(t, 30, '172.16.0.1', '203.0.113.200')).toEqual(Array(30).fill(401));
      const direct = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.201' },
        ip: '172.16.0.1',
      });
      expect(direct.status).toBe(429);
      const named = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.200' },
        ip: PROXY,
      });
      expect(named.status).toBe(200);
    });
  });

  describe('without ANALYST_TRUST_PROXY', () => {
    let t: TestApp;
    let key: string;
    beforeAll(async () => ({ t, key } = await gateway({})));
    afterAll(() => t.close());

    it('ignores X-Forwarded-For: every client behind the proxy shares the proxy address budget', async () => {
      expect(await fail(t, 15, PROXY, '203.0.113.5')).toEqual(Array(15).fill(401));
      expect(await fail(t, 15, PROXY, '198.51.100.9')).toEqual(Array(15).fill(401));
      const third = await t.request('GET', '/analyst/v1/me', {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '192.0.2.3' },
        ip: PROXY,
      });
      expect(third.status).toBe(429);
    });
  });
});
