import { ledgerKit, type LedgerKit } from './ledger-test-kit';

const ADMIN = 'Bearer test-admin-token-0123456789';

describe('Idempotency-Key / command id reused with different content', () => {
  let k: LedgerKit;
  beforeEach(async () => {
    k = await ledgerKit();
    await k.createTeam('team_a', 'growth', 500);
  });
  afterEach(async () => k.close());

  const grant = (key: string, body: unknown) =>
    k.t.request('POST', '/admin/v1/teams/team_a/credits', {
      headers: { authorization: ADMIN, 'idempotency-key': key },
      body,
    });

  it('refuses POST /admin/v1/teams/:id/credits with a reused key and another body: 409 idempotency_key_reused, nothing written', async () => {
    const first = await grant('ops-2026-03-10', { pool: 'adhoc', amount: 10, reason: 'invoice 42' });
    expect(first.status).toBe(201);
    const before = await k.events.headPosition();

    const reused = await grant('ops-2026-03-10', { pool: 'map', amount: 7000, reason: 'quarterly top-up' });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(reused.body.error.message).toContain(
      'admin-grant-ops-2026-03-10 was already used for a grant with different content',
    );
    expect(reused.body.error.message).toContain('"amount":7000');
    expect(await k.events.headPosition()).toBe(before);
    expect(await k.ledger.balances('team_a')).toEqual({ maps: 500, adhoc: 10, reserved: 0 });

    // The identical retry still answers as the first request did, and the operator's grant goes through with a new key.
    const retried = await grant('ops-2026-03-10', { pool: 'adhoc', amount: 10, reason: 'invoice 42' });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toEqual({
      teamId: 'team_a',
      pool: 'adhoc',
      amount: 10,
      balances: { maps: 500, adhoc: 10, reserved: 0 },
    });
    const fresh = await grant('ops-2026-03-10-b', { pool: 'map', amount: 7000, reason: 'quarterly top-up' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.balances).toEqual({ maps: 7500, adhoc: 10, reserved: 0 });
    expect(
      (await k.ledgerEvents('team_a')).filter((e) => e.type === 'CreditsGranted').map((e) => e.data),
    ).toEqual([
      {
        commandId: 'admin-grant-ops-2026-03-10',
        month: '2026-03',
        pool: 'adhoc',
        amount: 10,
        reason: 'invoice 42',
      },
      {
        commandId: 'admin-grant-ops-2026-03-10-b',
        month: '2026-03',
        pool: 'map',
        amount: 7000,
        reason: 'quarterly top-up',
      },
    ]);
  });

  it('answers a reused command id with other content on the bus with an idempotency_key_reused error reply', async () => {
    expect(
      await k.request('ReserveCredits', {
        teamId: 'team_a',
        commandId: 'r1',
        reservationId: 'res1',
        units: 2,
        unitCost: 1,
        source: 'auto',
      }),
    ).toMatchObject({ fundedUnits: 2 });
    expect(
      await k.request('ReserveCredits', {
        teamId: 'team_a',
        commandId: 'r1',
        reservationId: 'res1',
        units: 2,
        unitCost: 1,
        source: 'auto',
      }),
    ).toMatchObject({ fundedUnits: 2 });
    expect(
      await k.request('ReserveCredits', {
        teamId: 'team_a',
        commandId: 'r1',
        reservationId: 'res1',
        units: 2,
        unitCost: 5,
        source: 'auto',
      }),
    ).toEqual({
      error: {
        code: 'idempotency_key_reused',
        message: expect.stringContaining(
          'command id r1 was already used for a reserve with different content',
        ),
      },
    });
    await k.ledger.caughtUp();
    expect(await k.ledger.balances('team_a')).toEqual({ maps: 498, adhoc: 0, reserved: 2 });
  });

  it('a redelivered team event (same id, same allotment) stays a no-op', async () => {
    const before = (await k.ledgerEvents('team_a')).length;
    const created = (await k.ledgerEvents('team_a')).find((e) => e.type === 'MapAllotmentSet')!.data as {
      commandId: string;
    };
    await k.ledger.setMapAllotment(
      'team_a',
      { commandId: created.commandId, allotment: 500 },
      { correlationId: 'c', teamId: 'team_a' },
    );
    expect((await k.ledgerEvents('team_a')).length).toBe(before);
  });
});
