import { readTeamCredits, readOutstandingReservations } from '@analyst/ledger';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

const ctx = (teamId: string) => ({ correlationId: 'corr-1', teamId });

describe('LedgerService (standalone platform)', () => {
  let k: LedgerKit;
  beforeEach(async () => {
    k = await ledgerKit();
  });
  afterEach(async () => k.close());

  it('grants the plan allotment as MAPs for the current month when a team is created', async () => {
    await k.createTeam('team_a', 'growth', 500);
    expect(await k.ledger.balances('team_a')).toEqual({ maps: 500, adhoc: 0, reserved: 0 });
    expect((await k.ledgerEvents('team_a')).map((e) => e.type)).toEqual(['MapsReset', 'MapAllotmentSet']);
  });

  it('reserves MAPs first, settles, refunds, and a repeated command id returns the first answer without writing', async () => {
    await k.createTeam('team_a', 'growth', 3);
    await k.ledger.grant(
      'team_a',
      { commandId: 'g1', pool: 'adhoc', amount: 10, reason: 'purchase' },
      ctx('team_a'),
    );
    const reserved = await k.ledger.reserve(
      'team_a',
      { commandId: 'r1', reservationId: 'res1', units: 5, unitCost: 1, source: 'auto' },
      ctx('team_a'),
    );
    expect(reserved).toEqual({ reservationId: 'res1', fundedUnits: 5, amount: 5, fromMaps: 3, fromAdhoc: 2 });
    const before = (await k.ledgerEvents('team_a')).length;
    await k.ledger.grant(
      'team_a',
      { commandId: 'g-more', pool: 'adhoc', amount: 100, reason: 'purchase' },
      ctx('team_a'),
    );
    expect(
      await k.ledger.reserve(
        'team_a',
        { commandId: 'r1', reservationId: 'res1', units: 5, unitCost: 1, source: 'auto' },
        ctx('team_a'),
      ),
    ).toEqual(reserved);
    expect((await k.ledgerEvents('team_a')).length).toBe(before + 1);

    const settled = await k.ledger.settle(
      'team_a',
      { commandId: 'ev_ingest_7', reservationId: 'res1', consumed: 4 },
      ctx('team_a'),
    );
    expect(settled).toEqual({
      reservationId: 'res1',
      consumedUnits: 4,
      charged: { maps: 3, adhoc: 1 },
      returned: { maps: 0, adhoc: 1 },
      expiredOnReturn: 0,
    });
    expect(
      await k.ledger.settle(
        'team_a',
        { commandId: 'ev_ingest_7', reservationId: 'res1', consumed: 4 },
        ctx('team_a'),
      ),
    ).toEqual(settled);
    await expect(
      k.ledger.settle(
        'team_a',
        { commandId: 'ev_ingest_8', reservationId: 'res1', consumed: 4 },
        ctx('team_a'),
      ),
    ).rejects.toMatchObject({ code: 'reservation_already_settled' });
    await expect(
      k.ledger.refund(
        'team_a',
        { commandId: 'ev_ingest_9', reservationId: 'res1', reason: 'failed' },
        ctx('team_a'),
      ),
    ).rejects.toMatchObject({ code: 'reservation_already_settled' });

    await k.ledger.caughtUp();
    expect(await readTeamCredits(k.store, 'team_a')).toEqual({ maps: 0, adhoc: 109, reserved: 0 });
    expect(await readTeamCredits(k.store, 'nobody')).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
  });

  it('keeps outstanding reservations in a read model until they resolve', async () => {
    await k.createTeam('team_a', 'growth', 20);
    await k.ledger.reserve(
      'team_a',
      { commandId: 'r1', reservationId: 'post_1', units: 1, unitCost: 5, source: 'auto' },
      ctx('team_a'),
    );
    await k.ledger.reserve(
      'team_a',
      { commandId: 'r2', reservationId: 'post_2', units: 1, unitCost: 1, source: 'auto' },
      ctx('team_a'),
    );
    await k.ledger.refund(
      'team_a',
      { commandId: 'f1', reservationId: 'post_1', reason: 'unreachable' },
      ctx('team_a'),
    );
    await k.ledger.caughtUp();
    expect(
      (await readOutstandingReservations(k.store, 'team_a')).map((r) => [r.reservationId, r.amount]),
    ).toEqual([['post_2', 1]]);
    expect(await k.ledger.balances('team_a')).toEqual({ maps: 19, adhoc: 0, reserved: 1 });
  });

  it('records a rejected reservation when nothing can be funded', async () => {
    await k.createTeam('team_a', 'growth', 0);
    const answer = await k.ledger.reserve(
      'team_a',
      { commandId: 'r1', reservationId: 'post_1', units: 3, unitCost: 1, source: 'auto' },
      ctx('team_a'),
    );
    expect(answer).toEqual({ reservationId: 'post_1', fundedUnits: 0, amount: 0, fromMaps: 0, fromAdhoc: 0 });
    expect((await k.ledgerEvents('team_a')).at(-1)?.type).toBe('CreditsReservationRejected');
  });

  it('serves ReserveCredits, SettleCredits, RefundCredits and GrantCredits over request-reply, with typed error replies', async () => {
    await k.createTeam('team_b', 'growth', 10);
    expect(
      await k.request('GrantCredits', {
        teamId: 'team_b',
        commandId: 'g1',
        pool: 'adhoc',
        amount: 5,
        reason: 'bought',
      }),
    ).toEqual({ pool: 'adhoc', amount: 5 });
    expect(
      await k.request('ReserveCredits', {
        teamId: 'team_b',
        commandId: 'r1',
        reservationId: 'res1',
        units: 4,
        unitCost: 5,
        source: 'auto',
      }),
    ).toEqual({
      reservationId: 'res1',
      fundedUnits: 3,
      amount: 15,
      fromMaps: 10,
      fromAdhoc: 5,
    });
    expect(
      await k.request('SettleCredits', {
        teamId: 'team_b',
        commandId: 'ev1',
        reservationId: 'res1',
        consumed: 9,
      }),
    ).toEqual({
      error: { code: 'settle_exceeds_reservation', message: expect.stringContaining('only 3 were funded') },
    });
    expect(
      await k.request('RefundCredits', {
        teamId: 'team_b',
        commandId: 'ev2',
        reservationId: 'res1',
        reason: 'create_failed',
      }),
    ).toMatchObject({ returned: { maps: 10, adhoc: 5 } });
    expect(
      await k.request('SettleCredits', {
        teamId: 'team_b',
        commandId: 'ev3',
        reservationId: 'res1',
        consumed: 1,
      }),
    ).toMatchObject({ error: { code: 'reservation_already_refunded' } });
    expect(
      await k.request('ReserveCredits', {
        teamId: 'team_b',
        commandId: 'r2',
        reservationId: 'res2',
        units: 0,
        unitCost: 1,
        source: 'auto',
      }),
    ).toMatchObject({ error: { code: 'invalid_command' } });
  });

  it('follows plan changes and operator overrides mid-month, and resets idle teams when the month turns', async () => {
    await k.createTeam('team_c', 'growth', 500);
    await k.ledger.reserve(
      'team_c',
      { commandId: 'r1', reservationId: 'res1', units: 100, unitCost: 1, source: 'auto' },
      ctx('team_c'),
    );
    await k.teamEvent('team_c', {
      type: 'TeamPlanChanged',
      data: { teamId: 'team_c', plan: 'scale', monthlyMapAllotment: 2000 },
    });
    expect(await k.ledger.balances('team_c')).toEqual({ maps: 1900, adhoc: 0, reserved: 100 });
    await k.teamEvent('team_c', {
      type: 'TeamMapAllotmentSet',
      data: { teamId: 'team_c', monthlyMapAllotment: 50 },
    });
    expect(await k.ledger.balances('team_c')).toEqual({ maps: 0, adhoc: 0, reserved: 100 });

    k.clock.set('2026-04-01T00:03:00.000Z');
    const scheduler = k.t.app.get((await import('@analyst/ledger')).MonthlyResetScheduler);
    expect(await scheduler.runOnce()).toBe(1);
    expect(await scheduler.runOnce()).toBe(0);
    await k.ledger.caughtUp();
    expect(await k.ledger.balances('team_c')).toEqual({ maps: 50, adhoc: 0, reserved: 100 });
    // The March reservation's MAPs cannot come back in April: they expire on refund.
    expect(
      await k.ledger.refund(
        'team_c',
        { commandId: 'f1', reservationId: 'res1', reason: 'failed' },
        ctx('team_c'),
      ),
    ).toEqual({
      reservationId: 'res1',
      returned: { maps: 0, adhoc: 0 },
      expiredOnReturn: 100,
    });
  });
});

describe('LedgerService with every bus message delivered twice', () => {
  it('grants a team its MAPs once', async () => {
    const k = await ledgerKit({ duplicateDelivery: true });
    try {
      await k.createTeam('team_d', 'growth', 500);
      await new Promise((r) => setTimeout(r, 50));
      await k.ledger.caughtUp();
      expect(await k.ledger.balances('team_d')).toEqual({ maps: 500, adhoc: 0, reserved: 0 });
      expect((await k.ledgerEvents('team_d')).filter((e) => e.type === 'MapAllotmentSet')).toHaveLength(1);
    } finally {
      await k.close();
    }
  });
});
