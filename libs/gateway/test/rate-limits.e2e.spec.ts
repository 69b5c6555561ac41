import { RATE_CLASSES, RATE_CLASS_IDS, type RateClassId } from '@analyst/domain-identity';
import { ROUTE_POLICIES, type RoutePolicy, SCOPES } from '@analyst/contracts';
import { gatewayTest, type GatewayTest } from './gateway-fixture';
import { SpecRoutesModule } from './spec-routes';

/** One route per class, with the body that puts a POST /analyses into the class. */
function routeFor(rateClass: RateClassId): { method: 'GET' | 'POST'; url: string; body?: unknown } {
  if (rateClass === 'global') return { method: 'GET', url: '/analyst/v1/me' };
  if (rateClass === 'analysis_search')
    return { method: 'POST', url: '/analyst/v1/analyses', body: { search: { query: 'price' } } };
  const policy = ROUTE_POLICIES.find((p) => p.rateClass === rateClass) as RoutePolicy;
  return {
    method: policy.method as 'GET' | 'POST',
    url: `/analyst/v1${policy.path.replace(/\{[^}]+\}/g, 'x_1')}`,
    body: policy.method === 'POST' ? {} : undefined,
  };
}

describe('rate limits per UTC minute (spec: Limits)', () => {
  let g: GatewayTest;
  beforeAll(async () => (g = await gatewayTest([SpecRoutesModule])));
  afterAll(() => g.t.close());
  const freshKey = async () => g.key(await g.team('enterprise'), [...SCOPES]);
  const send = (key: string, rateClass: RateClassId) => {
    const r = routeFor(rateClass);
    return g.t.request(r.method, r.url, { headers: { authorization: `Bearer ${key}` }, body: r.body });
  };

  it.each(RATE_CLASS_IDS.map((c) => [c, RATE_CLASSES[c].perMinute] as const))(
    '%s: %i per minute pass, the next gets 429 with Retry-After to the next UTC minute',
    async (rateClass, cap) => {
      const key = await freshKey();
      g.clock.set('2026-03-10T12:00:23.000Z');
      for (let i = 1; i <= cap; i++) {
        const ok = await send(key, rateClass);
        expect(ok.status).toBeLessThan(300);
        expect(ok.headers['x-ratelimit-class']).toBe(rateClass);
        expect(ok.headers['x-ratelimit-class-limit']).toBe(String(cap));
        expect(ok.headers['x-ratelimit-class-remaining']).toBe(String(cap - i));
      }
      g.clock.set('2026-03-10T12:00:59.000Z');
      const refused = await send(key, rateClass);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['x-ratelimit-class']).toBe(rateClass);
      expect(refused.body.error.message).toBe(
        `burst cap of rate class ${rateClass} exceeded (${cap} requests per UTC minute); retry in 1 s`,
      );
      g.clock.set('2026-03-10T12:01:00.000Z');
      expect((await send(key, rateClass)).status).toBeLessThan(300);
    },
  );

  it('every request counts against the global budget, refused ones too; a refused one spends nothing of its route class', async () => {
    const key = await freshKey();
    g.clock.set('2026-03-10T13:00:00.000Z');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(key, 'analysis_search')).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const me = await g.get('/analyst/v1/me', key);
    // 5 searches (3 of them refused) and this /me itself.
    expect(me.body.data.rateLimit.remainingRequests).toBe(300 - 5 - 1);
    expect(me.body.data.rateLimit.routeClasses.analysis_search).toEqual({
      perMinute: 2,
      perDay: 10,
      remainingPerMinute: 0,
      remainingPerDay: 8,
    });
    expect(me.body.data.rateLimit.routeClasses.analysis_create.remainingPerDay).toBe(100);
  });

  it('POST /analyses counts as analysis_search with an AI search and as analysis_create otherwise', async () => {
    const key = await freshKey();
    const post = (body: unknown) =>
      g.t.request('POST', '/analyst/v1/analyses', { headers: { 'x-api-key': key }, body });
    expect((await post({})).headers['x-ratelimit-class']).toBe('analysis_create');
    expect((await post({ search: { query: 'x', mode: 'keyword' } })).headers['x-ratelimit-class']).toBe(
      'analysis_create',
    );
    expect((await post({ search: { query: 'x', mode: 'ai' } })).headers['x-ratelimit-class']).toBe(
      'analysis_search',
    );
    expect((await post({ search: { query: 'x' } })).headers['x-ratelimit-class']).toBe('analysis_search');
  });

  it('lets exactly 10 of 50 concurrent requests through a cap of 10', async () => {
    const key = await freshKey();
    g.clock.set('2026-03-10T14:00:00.000Z');
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(key, 'analysis_create')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });

  it('sends the rate headers and the IETF RateLimit fields on every admitted response', async () => {
    const key = await freshKey();
    g.clock.set('2026-03-10T15:00:20.000Z');
    const response = await send(key, 'analysis_read');
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '299',
      'x-ratelimit-reset': '40',
      'x-ratelimit-daily-limit': '10000',
      'x-ratelimit-daily-remaining': '9999',
      'x-ratelimit-class': 'analysis_read',
      'x-ratelimit-class-limit': '60',
      'x-ratelimit-class-remaining': '59',
      'x-ratelimit-class-daily-limit': '2000',
      'x-ratelimit-class-daily-remaining': '1999',
      'ratelimit-policy':
        '"global-minute";q=300;w=60, "global-day";q=10000;w=86400, "analysis_read-minute";q=60;w=60, "analysis_read-day";q=2000;w=86400',
      ratelimit:
        '"global-minute";r=299;t=40, "global-day";r=9999;t=32380, "analysis_read-minute";r=59;t=40, "analysis_read-day";r=1999;t=32380',
    });
  });

  it('answers alike whether the key was just read from the store or is decided from the cache', async () => {
    const key = await freshKey();
    g.clock.set('2026-03-10T15:30:20.000Z');
    // A key's first request reads its documents; the next ones are decided in the same turn.
    const [first, second] = [await send(key, 'analysis_read'), await send(key, 'analysis_read')];
    const names = (r: { headers: object }) =>
      Object.keys(r.headers).filter((n) => n !== 'date' && n !== 'x-correlation-id');
    expect(names(second)).toEqual(names(first));
    const counts = (r: { headers: Record<string, unknown> }, ...n: string[]) => n.map((h) => r.headers[h]);
    const varying = [
      'x-ratelimit-remaining',
      'x-ratelimit-daily-remaining',
      'x-ratelimit-class-remaining',
      'x-ratelimit-class-daily-remaining',
      'x-ratelimit-bytes-remaining',
    ];
    expect(counts(first, ...varying)).toEqual(['299', '9999', '59', '1999', '524288000']);
    // The first response's 11 bytes are spent by the second.
    expect(counts(second, ...varying)).toEqual(['298', '9998', '58', '1998', '524287989']);
    const fixed = names(first).filter((n) => !varying.includes(n) && n !== 'ratelimit');
    expect(counts(second, ...fixed)).toEqual(counts(first, ...fixed));

    const [me1, me2] = [await g.get('/analyst/v1/me', key), await g.get('/analyst/v1/me', key)];
    expect(names(me2)).toEqual(names(me1));
    expect(me2.body.data.rateLimit.remainingRequests).toBe(me1.body.data.rateLimit.remainingRequests - 1);
    const { rateLimit: r1, ...rest1 } = me1.body.data;
    const { rateLimit: r2, ...rest2 } = me2.body.data;
    expect(rest2).toEqual(rest1);
    expect(r2.routeClasses.analysis_read).toEqual(r1.routeClasses.analysis_read);
  });

  it('raises limits per team through the admin API', async () => {
    const team = await g.team('scale');
    const key = await g.key(team, [...SCOPES]);
    const raised = await g.t.admin('PUT', `/admin/v1/teams/${team}/limits`, {
      limits: { analysis_create: { perMinute: 15 } },
    });
    expect(raised.status).toBe(200);
    expect(raised.body.data.rateLimits).toEqual({ limits: { analysis_create: { perMinute: 15 } } });
    g.clock.set('2026-03-10T16:00:00.000Z');
    for (let i = 0; i < 15; i++) expect((await send(key, 'analysis_create')).status).toBe(201);
    const refused = await send(key, 'analysis_create');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('15 requests per UTC minute');
    const lowered = await g.t.admin('PUT', `/admin/v1/teams/${team}/limits`, {
      limits: { analysis_create: { perMinute: 5 } },
    });
    expect(lowered.status).toBe(400);
    expect(lowered.body.error.message).toContain(
      'limits.analysis_create.perMinute must be an integer of at least 10',
    );
  });
});
