import { SCOPES, ROUTE_POLICIES, type RoutePolicy } from '@analyst/contracts';
import { RATE_CLASSES, RATE_CLASS_IDS, type RateClassId } from '@analyst/domain-identity';
import { gatewayTest, type GatewayTest } from './gateway-fixture';
import { SpecRoutesModule } from './spec-routes';

function routeFor(rateClass: RateClassId): { method: 'GET' | 'POST'; url: string; body?: unknown } {
  if (rateClass === 'global') return { method: 'GET', url: '/analyst/v1/posts' };
  if (rateClass === 'analysis_search')
    return { method: 'POST', url: '/analyst/v1/analyses', body: { search: { query: 'q' } } };
  const policy = ROUTE_POLICIES.find((p) => p.rateClass === rateClass) as RoutePolicy;
  return {
    method: policy.method as 'GET' | 'POST',
    url: `/analyst/v1${policy.path.replace(/\{[^}]+\}/g, 'x_1')}`,
    body: policy.method === 'POST' ? {} : undefined,
  };
}

describe('daily budgets per UTC day (spec: Limits)', () => {
  let g: GatewayTest;
  beforeAll(async () => (g = await gatewayTest([SpecRoutesModule])));
  afterAll(() => g.t.close());

  it.each(RATE_CLASS_IDS.map((c) => [c, RATE_CLASSES[c].perDay] as const))(
    '%s: %i per day pass, the next gets 429 with Retry-After to UTC midnight',
    async (rateClass, perDay) => {
      const key = await g.key(await g.team('enterprise'), [...SCOPES]);
      const { perMinute } = RATE_CLASSES[rateClass];
      const route = routeFor(rateClass);
      const send = () =>
        g.t.request(route.method, route.url, {
          headers: { authorization: `Bearer ${key}` },
          body: route.body,
        });
      let at = Date.parse('2026-03-11T00:00:00.000Z');
      g.clock.set(new Date(at));
      for (let i = 0; i < perDay; i++) {
        if (i > 0 && i % perMinute === 0) g.clock.set(new Date((at += 60_000)));
        const response = await send();
        if (response.status >= 300)
          throw new Error(`request ${i + 1} of ${perDay} got ${response.status}: ${response.raw}`);
      }
      g.clock.set('2026-03-11T18:00:00.000Z');
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(6 * 3600));
      expect(refused.headers['x-ratelimit-class']).toBe(rateClass);
      expect(refused.body.error.message).toBe(
        `daily budget of rate class ${rateClass} exceeded (${perDay} requests per UTC day); retry in 21600 s`,
      );
      g.clock.set('2026-03-12T00:00:00.000Z');
      expect((await send()).status).toBeLessThan(300);
    },
  );
});
