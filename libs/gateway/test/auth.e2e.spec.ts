import { EVENT_STORE, FixedClock, type EventStore, locationOf, relativePathOf } from '@analyst/platform';
import { gatewayTest, type GatewayTest } from './gateway-fixture';

describe('gateway authentication (spec: Authentication)', () => {
  let g: GatewayTest;
  let teamId: string;
  let key: string;
  beforeAll(async () => {
    g = await gatewayTest();
    teamId = await g.team('growth');
    key = await g.key(teamId);
  });
  afterAll(() => g.t.close());
  beforeEach(() => g.clock.advance(60_000)); // a fresh failed-auth minute for every test

  it('accepts Authorization: Bearer and X-Api-Key', async () => {
    const bearer = await g.t.request('GET', '/analyst/v1/me', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.body.data.team).toEqual({ id: teamId, name: 'Team growth', plan: 'growth' });
    const header = await g.t.request('GET', '/analyst/v1/me', { headers: { 'x-api-key': key } });
    expect(header.status).toBe(200);
    expect(header.body.data.key.id).toBe(key.split('.')[0]);
  });

  it.each([
    ['no credentials', {}, 'missing_api_key', /missing API key/],
    ['an empty bearer', { authorization: 'Bearer ' }, 'invalid_api_key', /invalid API key/],
    ['a malformed key', { authorization: 'Bearer not-a-key' }, 'invalid_api_key', /invalid API key/],
    [
      'an unknown key id',
      { 'x-api-key': 'ak_unknown00.0123456789abcdefghij' },
      'invalid_api_key',
      /invalid API key/,
    ],
  ])('answers 401 for %s, in the envelope', async (_name, headers, code, message) => {
    const response = await g.t.request('GET', '/analyst/v1/me', {
      headers: headers as Record<string, string>,
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { message: expect.stringMatching(message), code } });
    expect(response.headers['www-authenticate']).toBe('Bearer realm="analyst"');
    expect(response.headers['x-ratelimit-class']).toBeUndefined();
  });

  it('answers 401 for a known key id with the wrong secret', async () => {
    const [id] = key.split('.');
    const response = await g.t.request('GET', '/analyst/v1/me', {
      headers: { authorization: `Bearer ${id}.wrongwrongwrongwrongwrong` },
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_api_key');
  });

  it('authenticates before routing: an unknown route needs a key, and with one is 404 carrying the rate headers', async () => {
    expect((await g.t.request('GET', '/analyst/v1/nowhere')).status).toBe(401);
    const missing = await g.get('/analyst/v1/nowhere', key);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('/analyst/v1/nowhere');
    expect(missing.headers['x-ratelimit-class']).toBe('global');
    expect(missing.headers['x-ratelimit-daily-limit']).toBe('10000');
  });

  it('limits failed attempts to 30 per minute per IP: the 31st gets 429 even with a valid key, until the next minute', async () => {
    g.clock.set('2026-03-10T13:00:15.000Z');
    for (let i = 0; i < 30; i++) {
      const failed = await g.t.request('GET', '/analyst/v1/me', {
        headers: { 'x-api-key': 'bad' },
        ip: '10.0.0.1',
      });
      expect(failed.status).toBe(401);
    }
    const blocked = await g.get('/analyst/v1/me', key, '10.0.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBe('45');
    expect(blocked.body.error.message).toMatch(/failed authentication attempts.*30 per minute/);
    expect(
      (await g.t.request('GET', '/analyst/v1/me', { headers: { 'x-api-key': 'bad' }, ip: '10.0.0.1' }))
        .status,
    ).toBe(429);
    expect((await g.get('/analyst/v1/me', key, '10.0.0.2')).status).toBe(200);
    g.clock.set('2026-03-10T13:01:00.000Z');
    expect((await g.get('/analyst/v1/me', key, '10.0.0.1')).status).toBe(200);
  });

  it('takes the failed-attempt limit from ANALYST_AUTH_FAILURES_PER_MINUTE: with 3, the fourth request from the address is 429', async () => {
    const strict = await gatewayTest([], new FixedClock('2026-03-10T13:00:15.000Z'), {
      ANALYST_AUTH_FAILURES_PER_MINUTE: '3',
    });
    try {
      const own = await strict.key(await strict.team(), ['team:read']);
      for (let i = 0; i < 3; i++)
        expect(
          (
            await strict.t.request('GET', '/analyst/v1/me', {
              headers: { 'x-api-key': 'bad' },
              ip: '10.0.0.9',
            })
          ).status,
        ).toBe(401);
      const blocked = await strict.get('/analyst/v1/me', own, '10.0.0.9');
      expect([blocked.status, blocked.body.error.code]).toEqual([429, 'auth_attempts_exceeded']);
      expect(blocked.body.error.message).toMatch(/limit 3 per minute/);
      expect((await strict.get('/analyst/v1/me', own, '10.0.0.10')).status).toBe(200);
    } finally {
      await strict.t.close();
    }
  });

  it('a rotated key: the new secret works at once and the old one is dead at once', async () => {
    const created = await g.identity.createKey(
      teamId,
      { name: 'rotating', scopes: ['team:read'] },
      { correlationId: 't', teamId },
    );
    expect((await g.get('/analyst/v1/team', created.key)).status).toBe(200);
    const rotated = await g.t.admin('POST', `/admin/v1/keys/${created.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toEqual({
      id: created.id,
      name: 'rotating',
      teamId,
      secret: expect.any(String),
      scopes: ['team:read'],
      key: `${created.id}.${rotated.body.data.secret}`,
    });
    expect((await g.get('/analyst/v1/team', created.key)).status).toBe(401);
    expect((await g.get('/analyst/v1/team', rotated.body.data.key)).status).toBe(200);
    const revoked = await g.t.admin('POST', `/admin/v1/keys/${created.id}/revoke`);
    expect(revoked.body.data).toEqual({ id: created.id, teamId, status: 'revoked' });
    const after = await g.get('/analyst/v1/team', rotated.body.data.key);
    expect(after.status).toBe(401);
    expect(after.body.error).toEqual({
      message: expect.stringContaining('revoked'),
      code: 'revoked_api_key',
    });
    expect((await g.t.admin('POST', `/admin/v1/keys/${created.id}/rotate`)).status).toBe(409);
  });

  it('stores only a hash of the secret', async () => {
    const created = await g.identity.createKey(teamId, { name: 'hashed' }, { correlationId: 't', teamId });
    const events = await g.t.app.get<EventStore>(EVENT_STORE).readStream(`apikey-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['ApiKeyCreated']);
    expect(JSON.stringify(events)).not.toContain(created.secret);
    expect((events[0].data as { secretHash: string }).secretHash).toMatch(/^[0-9a-f]{64}$/);
    await g.t.admin('POST', `/admin/v1/keys/${created.id}/revoke`);
  });

  it('a team moved to a plan without the API gets 403 on every route, and again 200 when moved back', async () => {
    const other = await g.team('scale');
    const otherKey = await g.key(other);
    expect((await g.get('/analyst/v1/team', otherKey)).status).toBe(200);
    expect((await g.t.admin('PUT', `/admin/v1/teams/${other}/plan`, { plan: 'starter' })).status).toBe(200);
    for (const url of ['/analyst/v1/me', '/analyst/v1/team', '/analyst/v1/posts', '/analyst/v1/unknown']) {
      const response = await g.get(url, otherKey);
      expect(response.status).toBe(403);
      expect(response.body.error).toEqual({
        message: "the team's starter plan does not include API access",
        code: 'plan_without_api',
      });
    }
    await g.t.admin('PUT', `/admin/v1/teams/${other}/plan`, { plan: 'growth' });
    expect((await g.get('/analyst/v1/me', otherKey)).status).toBe(200);
  });

  it('serves the same routes under /v1/client (deprecated) as under /analyst/v1', async () => {
    const current = await g.get('/analyst/v1/team', key);
    const legacy = await g.get('/v1/client/team', key);
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(current.body);
    expect(legacy.headers.deprecation).toBe('true');
    expect(legacy.headers['x-ratelimit-class']).toBe('global');
    expect((await g.t.request('GET', '/v1/client/me')).status).toBe(401);
  });

  it('builds Location values with the prefix and body paths without it', () => {
    expect(locationOf('/content/jobs/cj_1')).toBe('/analyst/v1/content/jobs/cj_1');
    expect(relativePathOf('analyses', 'an_1', 'comments')).toBe('/analyses/an_1/comments');
  });
});

describe('Enterprise sub-team targeting (spec: Authentication 5)', () => {
  let g: GatewayTest;
  beforeAll(async () => (g = await gatewayTest()));
  afterAll(() => g.t.close());

  it('lets an Enterprise key target its own sub-teams with teamId, and nothing else (404)', async () => {
    const enterprise = await g.team('enterprise');
    const sub = await g.team('growth', enterprise);
    const otherEnterprise = await g.team('enterprise');
    const foreignSub = await g.team('scale', otherEnterprise);
    const key = await g.key(enterprise);

    const own = await g.get('/analyst/v1/team', key);
    expect(own.body.data.subTeams).toEqual([{ id: sub, name: 'Team growth', plan: 'growth' }]);
    const targeted = await g.get(`/analyst/v1/team?teamId=${sub}`, key);
    expect(targeted.status).toBe(200);
    expect(targeted.body.data).toMatchObject({ id: sub, parentTeamId: enterprise, subTeams: null });
    const me = await g.get(`/analyst/v1/me?teamId=${sub}`, key);
    expect(me.body.data.targetTeamId).toBe(sub);
    expect(me.body.data.team.id).toBe(enterprise);
    expect((await g.get(`/analyst/v1/team?teamId=${enterprise}`, key)).status).toBe(200);

    for (const teamId of [foreignSub, otherEnterprise, 'tm_nope']) {
      const response = await g.get(`/analyst/v1/team?teamId=${teamId}`, key);
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual({ message: `team ${teamId} not found`, code: 'team_not_found' });
    }
    const subKey = await g.key(sub);
    expect((await g.get(`/analyst/v1/team?teamId=${enterprise}`, subKey)).status).toBe(404);
  });

  it('refuses a sub-team whose plan has no API with 403', async () => {
    const enterprise = await g.team('enterprise');
    const starterSub = await g.team('starter', enterprise);
    const key = await g.key(enterprise);
    const response = await g.get(`/analyst/v1/team?teamId=${starterSub}`, key);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('plan_without_api');
  });

  it('refuses a teamId from a non-Enterprise key with 404, even for its own parent', async () => {
    const growth = await g.team('growth');
    const key = await g.key(growth);
    expect((await g.get(`/analyst/v1/team?teamId=tm_00000001`, key)).status).toBe(404);
  });
});
