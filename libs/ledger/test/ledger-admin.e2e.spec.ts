import { ProjectionRuntime, MemoryReadStore } from '@analyst/platform';
import { ledgerProjectors, readTeamCredits } from '@analyst/ledger';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

describe('admin API: POST /admin/v1/teams/:teamId/credits', () => {
  let k: LedgerKit;
  beforeEach(async () => {
    k = await ledgerKit();
    await k.createTeam('team_a', 'growth', 500);
  });
  afterEach(async () => k.close());

  it('grants Ad Hoc credits and answers 201 with the new balances', async () => {
    const res = await k.t.admin('POST', '/admin/v1/teams/team_a/credits', {
      pool: 'adhoc',
      amount: 250,
      reason: 'invoice 42',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        teamId: 'team_a',
        pool: 'adhoc',
        amount: 250,
        balances: { maps: 500, adhoc: 250, reserved: 0 },
      },
    });
  });

  it('grants MAP credits for the current month', async () => {
    const res = await k.t.admin('POST', '/admin/v1/teams/team_a/credits', {
      pool: 'map',
      amount: 5,
      reason: 'goodwill',
    });
    expect(res.body.data.balances).toEqual({ maps: 505, adhoc: 0, reserved: 0 });
  });

  it('treats a retried request with the same Idempotency-Key as one grant', async () => {
    const send = () =>
      k.t.request('POST', '/admin/v1/teams/team_a/credits', {
        headers: { authorization: 'Bearer test-admin-token-0123456789', 'idempotency-key': 'inv-42' },
        body: { pool: 'adhoc', amount: 10, reason: 'invoice 42' },
      });
    await send();
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.body.data.balances).toEqual({ maps: 500, adhoc: 10, reserved: 0 });
  });

  it.each([
    [{ pool: 'adhoc', amount: 0, reason: 'x' }, 'amount must be a positive integer'],
    [{ pool: 'adhoc', amount: 2.5, reason: 'x' }, 'amount must be a positive integer'],
    [{ pool: 'adhoc', amount: '10', reason: 'x' }, 'amount must be a positive integer'],
    [{ pool: 'gold', amount: 10, reason: 'x' }, 'pool must be one of: map, adhoc'],
    [{ pool: 'adhoc', amount: 10 }, 'reason must be a string'],
    [{ pool: 'adhoc', amount: 10, reason: 'x', extra: true }, 'extra'],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const before = await k.events.headPosition();
    const res = await k.t.admin('POST', '/admin/v1/teams/team_a/credits', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await k.events.headPosition()).toBe(before);
  });

  it('answers 404 for an unknown team and 401 without the admin token', async () => {
    const unknown = await k.t.admin('POST', '/admin/v1/teams/team_zz/credits', {
      pool: 'adhoc',
      amount: 1,
      reason: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ message: 'team team_zz not found', code: 'team_not_found' });
    const anonymous = await k.t.request('POST', '/admin/v1/teams/team_a/credits', {
      body: { pool: 'adhoc', amount: 1, reason: 'x' },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('admin API: GET /admin/v1/teams/:teamId/ledger', () => {
  let k: LedgerKit;
  beforeAll(async () => {
    k = await ledgerKit();
    await k.createTeam('team_s', 'growth', 30);
    const ctx = { correlationId: 'c', teamId: 'team_s' };
    await k.ledger.grant('team_s', { commandId: 'g1', pool: 'adhoc', amount: 200, reason: 'purchase' }, ctx);
    // 2 opening events + 1 grant + 3 × 50 = 153 lines: the statement crosses a storage chunk.
    for (let i = 0; i < 50; i++) {
      await k.ledger.reserve(
        'team_s',
        { commandId: `r${i}`, reservationId: `p${i}`, units: 1, unitCost: i % 2 ? 5 : 1, source: 'auto' },
        ctx,
      );
      await k.ledger.settle(
        'team_s',
        { commandId: `s${i}`, reservationId: `p${i}`, consumed: i % 3 === 0 ? 0 : 1 },
        ctx,
      );
      await k.ledger.grant('team_s', { commandId: `gg${i}`, pool: 'map', amount: 1, reason: 'top-up' }, ctx);
    }
    await k.ledger.caughtUp();
  });
  afterAll(async () => k.close());

  it('pages the whole statement with an opaque cursor; the last line shows the live balances', async () => {
    const lines: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: {
        status: number;
        body: { data: unknown[]; meta: { nextCursor: string | null; hasMore: boolean } };
      } = await k.t.admin(
        'GET',
        `/admin/v1/teams/team_s/ledger?limit=40${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      lines.push(...res.body.data);
      cursor = res.body.meta.nextCursor;
      expect(res.body.meta.hasMore).toBe(cursor !== null);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(lines).toHaveLength(153);
    expect(lines.map((l) => l.revision)).toEqual([...Array(153).keys()]);
    expect(lines[0]).toMatchObject({
      teamId: 'team_s',
      type: 'MapsReset',
      change: { maps: 0, adhoc: 0, reserved: 0 },
    });
    expect(lines[2]).toMatchObject({
      type: 'CreditsGranted',
      commandId: 'g1',
      note: 'granted 200 Ad Hoc credits: purchase',
      balances: { maps: 30, adhoc: 200, reserved: 0 },
    });
    expect(lines.at(-1).balances).toEqual(await readTeamCredits(k.store, 'team_s'));
  });

  it('refuses a bad limit or cursor with 400', async () => {
    expect((await k.t.admin('GET', '/admin/v1/teams/team_s/ledger?limit=0')).status).toBe(400);
    expect((await k.t.admin('GET', '/admin/v1/teams/team_s/ledger?limit=abc')).status).toBe(400);
    const bad = await k.t.admin('GET', '/admin/v1/teams/team_s/ledger?cursor=nonsense');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('cursor');
  });

  it('replaying the log from zero into fresh read models gives exactly the live balances', async () => {
    const fresh = new MemoryReadStore();
    const runtime = new ProjectionRuntime(fresh, ledgerProjectors);
    await runtime.rebuild(k.events);
    expect(await readTeamCredits(fresh, 'team_s')).toEqual(await readTeamCredits(k.store, 'team_s'));
    expect(await readTeamCredits(fresh, 'team_s')).toEqual(await k.ledger.balances('team_s'));
  });
});
