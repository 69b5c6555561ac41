import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, FixedClock, READ_STORE, type EventStore, type ReadStore } from '@analyst/platform';
import { createTestApp, eventually } from '@analyst/testing';
import {
  auditLedger,
  LedgerModule,
  LedgerService,
  MonthlyResetScheduler,
  readTeamCredits,
  readTeamCreditsAt,
} from '@analyst/ledger';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

const ctx = (teamId: string) => ({ correlationId: 'corr-months', teamId });

describe('ledger months: every reader sees the month the clock is in', () => {
  let k: LedgerKit;
  beforeEach(async () => {
    k = await ledgerKit();
    k.clock.set('2025-12-10T12:00:00.000Z');
  });
  afterEach(async () => k.close());

  /** A growth team (500 MAPs) that has reserved every one of its December MAPs, plus 3 Ad Hoc. */
  async function decemberTeamWithNoMapsLeft(teamId: string): Promise<void> {
    await k.createTeam(teamId, 'growth', 500);
    await k.ledger.grant(
      teamId,
      { commandId: 'g-adhoc', pool: 'adhoc', amount: 3, reason: 'purchase' },
      ctx(teamId),
    );
    await k.ledger.reserve(
      teamId,
      { commandId: 'r-all', reservationId: 'res-all', units: 500, unitCost: 1, source: 'auto' },
      ctx(teamId),
    );
    await k.ledger.settle(
      teamId,
      { commandId: 's-all', reservationId: 'res-all', consumed: 500 },
      ctx(teamId),
    );
    await k.ledger.caughtUp();
    expect(await k.ledger.balances(teamId)).toEqual({ maps: 0, adhoc: 3, reserved: 0 });
  }

  it('in January, before any reset is written, the balances already show January’s MAPs', async () => {
    await decemberTeamWithNoMapsLeft('team_m');
    const eventsBefore = (await k.ledgerEvents('team_m')).length;
    k.clock.set('2026-01-01T00:00:01.000Z');
    expect(await k.ledger.balances('team_m')).toEqual({ maps: 500, adhoc: 3, reserved: 0 });
    expect(await readTeamCreditsAt(k.store, 'team_m', k.clock.now())).toEqual({
      maps: 500,
      adhoc: 3,
      reserved: 0,
    });
    // The stored figures (what the audit compares a replay with) are untouched: nothing was written.
    expect(await readTeamCredits(k.store, 'team_m')).toEqual({ maps: 0, adhoc: 3, reserved: 0 });
    expect((await k.ledgerEvents('team_m')).length).toBe(eventsBefore);
  });

  it('the reserve command itself writes the reset before it reserves', async () => {
    await decemberTeamWithNoMapsLeft('team_m');
    k.clock.set('2026-01-01T00:00:01.000Z');
    const answer = await k.ledger.reserve(
      'team_m',
      { commandId: 'r-jan', reservationId: 'res-jan', units: 2, unitCost: 5, source: 'auto' },
      ctx('team_m'),
    );
    expect(answer).toEqual({
      reservationId: 'res-jan',
      fundedUnits: 2,
      amount: 10,
      fromMaps: 10,
      fromAdhoc: 0,
    });
    expect((await k.ledgerEvents('team_m')).slice(-2)).toEqual([
      {
        type: 'MapsReset',
        data: {
          commandId: 'maps-reset-2026-01',
          month: '2026-01',
          previousMonth: '2025-12',
          expired: 0,
          granted: 500,
        },
      },
      {
        type: 'CreditsReserved',
        data: {
          commandId: 'r-jan',
          month: '2026-01',
          reservationId: 'res-jan',
          source: 'auto',
          requestedUnits: 2,
          fundedUnits: 2,
          unitCost: 5,
          amount: 10,
          fromMaps: 10,
          fromAdhoc: 0,
        },
      },
    ]);
    await k.ledger.caughtUp();
    expect(await readTeamCredits(k.store, 'team_m')).toEqual({ maps: 490, adhoc: 3, reserved: 10 });
  });

  it('growth 500 with 465 spent → starter → growth ends at 35 MAPs, through plan changes and the operator override', async () => {
    await k.createTeam('team_p', 'growth', 500);
    await k.ledger.reserve(
      'team_p',
      { commandId: 'r1', reservationId: 'res1', units: 465, unitCost: 1, source: 'auto' },
      ctx('team_p'),
    );
    await k.ledger.settle('team_p', { commandId: 's1', reservationId: 'res1', consumed: 465 }, ctx('team_p'));
    await k.teamEvent('team_p', {
      type: 'TeamPlanChanged',
      data: { teamId: 'team_p', plan: 'starter', monthlyMapAllotment: 100 },
    });
    expect(await k.ledger.balances('team_p')).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    await k.teamEvent('team_p', {
      type: 'TeamPlanChanged',
      data: { teamId: 'team_p', plan: 'growth', monthlyMapAllotment: 500 },
    });
    expect(await k.ledger.balances('team_p')).toEqual({ maps: 35, adhoc: 0, reserved: 0 });
    // The operator override follows the same rule, as many times as it is flipped.
    for (const allotment of [100, 500, 100, 500]) {
      await k.teamEvent('team_p', {
        type: 'TeamMapAllotmentSet',
        data: { teamId: 'team_p', monthlyMapAllotment: allotment },
      });
    }
    expect(await k.ledger.balances('team_p')).toEqual({ maps: 35, adhoc: 0, reserved: 0 });
    const adjustments = (await k.ledgerEvents('team_p'))
      .filter((e) => e.type === 'MapAllotmentSet')
      .map((e) => [
        (e.data as { allotment: number }).allotment,
        (e.data as { adjustment: number }).adjustment,
      ]);
    expect(adjustments).toEqual([
      [500, 500],
      [100, -35],
      [500, 35],
      [100, -35],
      [500, 35],
      [100, -35],
      [500, 35],
    ]);
  });

  it('the audit passes on the log these rules write: a refund capped after a downgrade, cycles, a month turn', async () => {
    await k.createTeam('team_q', 'growth', 500);
    await k.ledger.reserve(
      'team_q',
      { commandId: 'r1', reservationId: 'res1', units: 465, unitCost: 1, source: 'auto' },
      ctx('team_q'),
    );
    await k.teamEvent('team_q', {
      type: 'TeamPlanChanged',
      data: { teamId: 'team_q', plan: 'starter', monthlyMapAllotment: 100 },
    });
    // Nothing was spent after all: with starter in force the month holds 100 MAPs; the other 365 expire on return.
    expect(
      await k.ledger.refund(
        'team_q',
        { commandId: 'f1', reservationId: 'res1', reason: 'failed' },
        ctx('team_q'),
      ),
    ).toEqual({
      reservationId: 'res1',
      returned: { maps: 100, adhoc: 0 },
      expiredOnReturn: 365,
    });
    await k.teamEvent('team_q', {
      type: 'TeamPlanChanged',
      data: { teamId: 'team_q', plan: 'growth', monthlyMapAllotment: 500 },
    });
    expect(await k.ledger.balances('team_q')).toEqual({ maps: 500, adhoc: 0, reserved: 0 });
    await k.ledger.reserve(
      'team_q',
      { commandId: 'r2', reservationId: 'res2', units: 20, unitCost: 5, source: 'auto' },
      ctx('team_q'),
    );
    k.clock.set('2026-01-01T00:00:01.000Z');
    await k.ledger.settle('team_q', { commandId: 's2', reservationId: 'res2', consumed: 10 }, ctx('team_q'));
    await k.ledger.caughtUp();
    const report = await auditLedger(k.events, { liveReadModels: k.store, charges: false });
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    const q = report.teams.find((t) => t.teamId === 'team_q')!;
    expect(q.balances).toEqual(await readTeamCredits(k.store, 'team_q'));
    expect(q.balances).toEqual({ maps: 500, adhoc: 0, reserved: 0 });
  });
});

describe('MonthlyResetScheduler: runs at start-up and at the month boundary', () => {
  it('resets a team left in an earlier month as soon as the app has started, without any command', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-months-'));
    try {
      const december = await ledgerKit({ dataDir });
      december.clock.set('2025-12-20T08:00:00.000Z');
      await december.createTeam('team_s', 'growth', 500);
      await december.ledger.reserve(
        'team_s',
        { commandId: 'r1', reservationId: 'res1', units: 120, unitCost: 1, source: 'auto' },
        ctx('team_s'),
      );
      await december.close();

      const clock = new FixedClock('2026-01-02T09:00:00.000Z');
      const t = await createTestApp({ modules: [LedgerModule], clock, dataDir });
      try {
        await t.app.init();
        const events = t.app.get<EventStore>(EVENT_STORE);
        await eventually(
          async () =>
            (await events.readStream('ledger-team_s')).some(
              (e) => e.type === 'MapsReset' && (e.data as { month: string }).month === '2026-01',
            ),
          5000,
        );
        const reset = (await events.readStream('ledger-team_s')).at(-1);
        expect(reset).toMatchObject({
          type: 'MapsReset',
          data: { month: '2026-01', previousMonth: '2025-12', expired: 380, granted: 500 },
        });
        const ledger = t.app.get(LedgerService);
        await ledger.caughtUp();
        expect(await ledger.balances('team_s')).toEqual({ maps: 500, adhoc: 0, reserved: 120 });
      } finally {
        await t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('resets idle teams once the clock passes the first instant of the next month', async () => {
    const clock = new FixedClock('2026-03-31T23:59:59.700Z');
    const t = await createTestApp({ modules: [LedgerModule], clock });
    try {
      await t.app.init();
      const ledger = t.app.get(LedgerService);
      const events = t.app.get<EventStore>(EVENT_STORE);
      await ledger.setMapAllotment('team_b', { commandId: 'created', allotment: 40 }, ctx('team_b'));
      await ledger.caughtUp();
      const scheduler = t.app.get(MonthlyResetScheduler);
      const runOnce = jest.spyOn(scheduler, 'runOnce');
      clock.set('2026-04-01T00:00:00.050Z');
      await eventually(
        async () =>
          (await events.readStream('ledger-team_b')).some(
            (e) => e.type === 'MapsReset' && (e.data as { month: string }).month === '2026-04',
          ),
        5000,
      );
      expect(runOnce).toHaveBeenCalled();
      await ledger.caughtUp();
      expect(await readTeamCredits(t.app.get<ReadStore>(READ_STORE), 'team_b')).toEqual({
        maps: 40,
        adhoc: 0,
        reserved: 0,
      });
    } finally {
      await t.close();
    }
  });
});
