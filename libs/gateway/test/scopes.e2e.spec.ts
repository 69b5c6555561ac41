import { SCOPES, type Scope, ROUTE_POLICIES, type RoutePolicy } from '@analyst/contracts';
import { gatewayTest, type GatewayTest } from './gateway-fixture';
import { SpecRoutesModule } from './spec-routes';

function urlOf(policy: RoutePolicy): string {
  return `/analyst/v1${policy.path.replace(/\{[^}]+\}/g, 'x_1')}`;
}

describe('scopes (spec: Authentication, scope table)', () => {
  let g: GatewayTest;
  const keys = new Map<string, string>();
  beforeAll(async () => (g = await gatewayTest([SpecRoutesModule])));
  afterAll(() => g.t.close());

  async function keyWith(scopes: readonly Scope[]): Promise<string> {
    const id = [...scopes].sort().join(',');
    if (!keys.has(id)) keys.set(id, await g.key(await g.team('growth'), [...scopes]));
    return keys.get(id)!;
  }
  const call = (policy: RoutePolicy, key: string) =>
    g.t.request(policy.method, urlOf(policy), {
      headers: { authorization: `Bearer ${key}` },
      body: policy.method === 'POST' ? {} : undefined,
    });

  it('matches the contract table', () => {
    const scopesOf = (method: string, path: string) =>
      ROUTE_POLICIES.find((p) => p.method === method && p.path === path)?.scopes;
    expect(scopesOf('POST', '/analyses')).toEqual(['analyses:run']);
    expect(scopesOf('GET', '/analyses/{analysisId}/comments')).toEqual(['analyses:read', 'comments:read']);
    expect(scopesOf('GET', '/posts/{postId}/analysis/comments')).toEqual(['posts:read', 'comments:read']);
    expect(scopesOf('GET', '/content/jobs/{jobId}')).toEqual(['posts:read']);
    expect(scopesOf('GET', '/content/jobs')).toEqual(['posts:read']);
    expect(scopesOf('POST', '/content/posts/add')).toEqual(['posts:write']);
    expect(scopesOf('POST', '/content/posts/refresh')).toEqual(['posts:write']);
    expect(scopesOf('POST', '/content/accounts/add')).toEqual(['accounts:write']);
    expect(scopesOf('GET', '/team')).toEqual(['team:read']);
    expect(scopesOf('GET', '/insights')).toEqual(['insights:read']);
    expect(scopesOf('POST', '/webhooks')).toEqual(['webhooks:write']);
    expect(scopesOf('DELETE', '/webhooks/{webhookId}')).toEqual(['webhooks:write']);
    expect(scopesOf('GET', '/webhooks/{webhookId}/deliveries')).toEqual(['webhooks:read']);
    expect(scopesOf('GET', '/events')).toEqual(['webhooks:read']);
    // every scope of the contract guards at least one route
    expect(new Set(ROUTE_POLICIES.flatMap((p) => p.scopes))).toEqual(new Set(SCOPES));
  });

  const guarded = ROUTE_POLICIES.filter((p) => p.scopes.length > 0);
  it.each(guarded.map((p) => [`${p.method} ${p.path}`, p] as const))(
    '%s: allowed with exactly its scopes',
    async (_name, policy) => {
      const response = await call(policy, await keyWith(policy.scopes));
      expect(response.status).toBeLessThan(300);
      expect(response.body.data).toBeDefined();
    },
  );

  const denials = guarded.flatMap((p) =>
    p.scopes.map((s) => [`${p.method} ${p.path} without ${s}`, p, s] as const),
  );
  it.each(denials)('%s: 403 naming the scope', async (_name, policy, scope) => {
    const response = await call(policy, await keyWith(SCOPES.filter((s) => s !== scope)));
    expect(response.status).toBe(403);
    expect(response.body.error).toEqual({
      message: `this API key lacks the scope ${scope} required by ${policy.method} ${policy.path}`,
      code: 'missing_scope',
    });
  });

  it('names every missing scope at once', async () => {
    const response = await g.get('/analyst/v1/analyses/an_1/comments', await keyWith(['posts:read']));
    expect(response.status).toBe(403);
    expect(response.body.error.message).toBe(
      'this API key lacks the scopes analyses:read, comments:read required by GET /analyses/{analysisId}/comments',
    );
  });

  it('GET /me needs no scope', async () => {
    expect((await g.get('/analyst/v1/me', await keyWith([]))).status).toBe(200);
  });

  it('posts:write, accounts:write and the webhook scopes are off unless asked for at creation', async () => {
    const team = await g.team('growth');
    const created = await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, { name: 'default scopes' });
    expect(created.status).toBe(201);
    expect(created.body.data.scopes).toEqual([
      'analyses:run',
      'analyses:read',
      'comments:read',
      'posts:read',
      'collections:read',
      'team:read',
      'insights:read',
    ]);
    const hooks = await g.t.request('GET', '/analyst/v1/webhooks', {
      headers: { 'x-api-key': created.body.data.key },
    });
    expect(hooks.status).toBe(403);
    expect(hooks.body.error.code).toBe('missing_scope');
    const add = await g.t.request('POST', '/analyst/v1/content/posts/add', {
      headers: { 'x-api-key': created.body.data.key },
      body: {},
    });
    expect(add.status).toBe(403);
    const optIn = await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, {
      name: 'writer',
      scopes: ['posts:write', 'accounts:write'],
    });
    expect(optIn.body.data.scopes).toEqual(['posts:write', 'accounts:write']);
    const webhooks = await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, {
      name: 'webhooks',
      scopes: ['webhooks:read', 'webhooks:write'],
    });
    expect(webhooks.body.data.scopes).toEqual(['webhooks:read', 'webhooks:write']);
  });

  it('a route declaring its own scopes and class overrides the table', async () => {
    const denied = await g.get('/analyst/v1/declared', await keyWith(['team:read']));
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe(
      'this API key lacks the scope posts:write required by GET /declared',
    );
    const allowed = await g.get('/analyst/v1/declared', await keyWith(['team:read', 'posts:write']));
    expect(allowed.status).toBe(200);
    expect(allowed.headers['x-ratelimit-class']).toBe('content_refresh');
  });
});
