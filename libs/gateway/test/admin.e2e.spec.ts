import { EVENT_STORE, type EventStore } from '@analyst/platform';
import { createTestApp, TEST_ADMIN_TOKEN } from '@analyst/testing';
import { GatewayModule } from '@analyst/gateway';
import { gatewayTest, type GatewayTest } from './gateway-fixture';

describe('admin API (/admin/v1)', () => {
  let g: GatewayTest;
  beforeAll(async () => (g = await gatewayTest()));
  afterAll(() => g.t.close());

  it('is opened only by the admin token, never by an API key', async () => {
    const team = await g.team('growth');
    const key = await g.key(team);
    expect((await g.t.request('GET', `/admin/v1/teams/${team}`)).status).toBe(401);
    const withKey = await g.t.request('GET', `/admin/v1/teams/${team}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withKey.status).toBe(401);
    expect(withKey.headers['x-ratelimit-class']).toBeUndefined();
    expect((await g.t.admin('GET', `/admin/v1/teams/${team}`)).status).toBe(200);
    expect(withKey.body.error.code).toBe('invalid_admin_token');
  });

  it('refuses an address after 30 wrong admin tokens in a minute, even with the right one; other addresses are unaffected', async () => {
    const team = await g.team('growth');
    const from = (ip: string, token: string) =>
      g.t.request('GET', `/admin/v1/teams/${team}`, { headers: { authorization: `Bearer ${token}` }, ip });
    for (let i = 0; i < 30; i++)
      expect((await from('10.9.9.9', `wrong-token-${i}-0123456789`)).status).toBe(401);
    const right = await from('10.9.9.9', TEST_ADMIN_TOKEN);
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe('admin_auth_attempts_exceeded');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('10.9.9.10', TEST_ADMIN_TOKEN)).status).toBe(200);
  });

  it('creates teams and sub-teams, validating the body and naming the field', async () => {
    const created = await g.t.admin('POST', '/admin/v1/teams', { name: 'Acme', plan: 'enterprise' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Acme',
      plan: 'enterprise',
      parentTeamId: null,
      monthlyMapAllotment: 10000,
    });
    const sub = await g.t.admin('POST', '/admin/v1/teams', {
      name: 'Acme EU',
      plan: 'growth',
      parentTeamId: created.body.data.id,
    });
    expect(sub.status).toBe(201);
    const parent = await g.t.admin('GET', `/admin/v1/teams/${created.body.data.id}`);
    expect(parent.body.data.subTeams).toEqual([{ id: sub.body.data.id, name: 'Acme EU', plan: 'growth' }]);
    const bad = await g.t.admin('POST', '/admin/v1/teams', { name: '', plan: 'gold' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('plan must be one of the following values');
    expect(bad.body.error.message).toContain('name must be longer than or equal to 1 characters');
    const nested = await g.t.admin('POST', '/admin/v1/teams', {
      name: 'x',
      plan: 'growth',
      parentTeamId: sub.body.data.id,
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.code).toBe('parent_plan_without_sub_teams');
    expect(
      (await g.t.admin('POST', '/admin/v1/teams', { name: 'x', plan: 'growth', parentTeamId: 'tm_missing' }))
        .status,
    ).toBe(404);
  });

  it('creates keys with the secret shown once, allows at most 3 active keys, and frees a slot on revoke', async () => {
    const team = await g.team('scale');
    const keys: { id: string; secret: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, {
        name: `k${i}`,
        scopes: ['team:read'],
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.stringMatching(/^ak_/),
        name: `k${i}`,
        teamId: team,
        secret: expect.any(String),
        scopes: ['team:read'],
        key: `${created.body.data.id}.${created.body.data.secret}`,
      });
      keys.push(created.body.data);
    }
    const fourth = await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, { name: 'k3' });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error).toEqual({
      message: 'a team may have at most 3 active keys; revoke one first',
      code: 'key_limit_reached',
    });
    const listed = await g.t.admin('GET', `/admin/v1/teams/${team}/keys`);
    expect(listed.body.data).toHaveLength(3);
    expect(JSON.stringify(listed.body)).not.toContain(keys[0].secret);
    expect(listed.body.data[0]).not.toHaveProperty('secretHash');
    await g.t.admin('POST', `/admin/v1/keys/${keys[0].id}/revoke`);
    expect((await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, { name: 'k3' })).status).toBe(201);
    expect((await g.t.admin('POST', `/admin/v1/teams/${team}/keys`, { name: 'k4' })).status).toBe(409);
  });

  it('holds the 3-key limit under concurrent creation', async () => {
    const team = await g.team('growth');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        g.t.admin('POST', `/admin/v1/teams/${team}/keys`, { name: `c${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
  });

  it('refuses keys for a team whose plan has no API, and scopes outside the contract', async () => {
    const starter = await g.team('starter');
    const refused = await g.t.admin('POST', `/admin/v1/teams/${starter}/keys`, { name: 'k' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('plan_without_api');
    const growth = await g.team('growth');
    const badScope = await g.t.admin('POST', `/admin/v1/teams/${growth}/keys`, {
      name: 'k',
      scopes: ['posts:delete'],
    });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error.message).toContain('each value in scopes must be one of the following values');
  });

  it('changes analysis settings, plan and MAP allotment as team events the ledger can consume', async () => {
    const team = await g.team('growth');
    const key = await g.key(team);
    const settings = await g.t.admin('PUT', `/admin/v1/teams/${team}/analysis-settings`, {
      scoreVersion: 2,
      engagementWeight: 2.5,
    });
    expect(settings.status).toBe(200);
    expect((await g.get('/analyst/v1/team', key)).body.data.analysisSettings).toEqual({
      scoreVersion: 2,
      engagementWeight: 2.5,
    });
    expect(
      (
        await g.t.admin('PUT', `/admin/v1/teams/${team}/analysis-settings`, {
          scoreVersion: 5,
          engagementWeight: 1,
        })
      ).status,
    ).toBe(400);
    const plan = await g.t.admin('PUT', `/admin/v1/teams/${team}/plan`, { plan: 'scale' });
    expect(plan.body.data).toMatchObject({ plan: 'scale', monthlyMapAllotment: 2000 });
    const allotment = await g.t.admin('PUT', `/admin/v1/teams/${team}/map-allotment`, {
      monthlyMapAllotment: 750,
    });
    expect(allotment.body.data.monthlyMapAllotment).toBe(750);
    expect((await g.get('/analyst/v1/team', key)).body.data.plan).toMatchObject({
      id: 'scale',
      monthlyMapAllotment: 750,
    });
    const events = await g.t.app.get<EventStore>(EVENT_STORE).readStream(`team-${team}`);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'TeamCreated',
        { teamId: team, name: 'Team growth', plan: 'growth', parentTeamId: null, monthlyMapAllotment: 500 },
      ],
      ['TeamAnalysisSettingsChanged', { teamId: team, scoreVersion: 2, engagementWeight: 2.5 }],
      ['TeamPlanChanged', { teamId: team, plan: 'scale', monthlyMapAllotment: 2000 }],
      ['TeamMapAllotmentSet', { teamId: team, monthlyMapAllotment: 750 }],
    ]);
    expect((await g.t.admin('PUT', '/admin/v1/teams/tm_missing/plan', { plan: 'scale' })).status).toBe(404);
  });

  it('reports usage per key per UTC day for the last 30 days', async () => {
    const team = await g.team('growth');
    const created = await g.identity.createKey(team, { name: 'usage' }, { correlationId: 't', teamId: team });
    g.clock.set('2026-03-20T10:00:00.000Z');
    const a = await g.get('/analyst/v1/me', created.key);
    const b = await g.get('/analyst/v1/team', created.key);
    g.clock.set('2026-03-21T10:00:00.000Z');
    const c = await g.get('/analyst/v1/nowhere', created.key);
    const usage = await g.t.admin('GET', `/admin/v1/teams/${team}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body.data).toMatchObject({ teamId: team, from: '2026-02-20', to: '2026-03-21' });
    const [row] = usage.body.data.keys;
    expect(row.id).toBe(created.id);
    expect(row.days).toHaveLength(30);
    expect(row.days[0]).toEqual({ day: '2026-03-21', requests: 1, bytes: Buffer.byteLength(c.raw) });
    expect(row.days[1]).toEqual({
      day: '2026-03-20',
      requests: 2,
      bytes: Buffer.byteLength(a.raw) + Buffer.byteLength(b.raw),
    });
    expect(row.totals).toEqual({
      requests: 3,
      bytes: Buffer.byteLength(a.raw) + Buffer.byteLength(b.raw) + Buffer.byteLength(c.raw),
    });
  });

  it('does not exist without ANALYST_ADMIN_TOKEN', async () => {
    const t = await createTestApp({ modules: [GatewayModule], adminToken: null });
    try {
      const response = await t.request('POST', '/admin/v1/teams', {
        headers: { authorization: 'Bearer anything-at-all-here' },
        body: { name: 'x', plan: 'growth' },
      });
      expect(response.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
