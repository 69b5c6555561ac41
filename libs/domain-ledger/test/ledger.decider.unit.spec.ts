import type { LedgerEvent } from '@analyst/contracts';
import {
  answerOf,
  balancesAt,
  decideLedger,
  evolveLedger,
  initialLedgerState,
  ledgerDecider,
  type LedgerCommand,
  type LedgerState,
} from '@analyst/domain-ledger';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

/** No mocks, only the ledger decider's pure functions. */
const given = (events: LedgerEvent[]) => DeciderSpecification.for(ledgerDecider).given(events);

const AT = '2026-03-10T12:00:00.000Z';
const APRIL = '2026-04-01T00:00:05.000Z';

const opened = (
  month = '2026-03',
  granted = 0,
  expired = 0,
  previousMonth: string | null = null,
): LedgerEvent => ({
  type: 'MapsReset',
  data: { commandId: `maps-reset-${month}`, month, previousMonth, expired, granted },
});
const allotted = (allotment: number, previous = 0, adjustment = allotment - previous): LedgerEvent => ({
  type: 'MapAllotmentSet',
  data: { commandId: `team-ev-${allotment}`, month: '2026-03', allotment, previous, adjustment },
});
const granted = (pool: 'map' | 'adhoc', amount: number, commandId = `g-${pool}-${amount}`): LedgerEvent => ({
  type: 'CreditsGranted',
  data: { commandId, month: '2026-03', pool, amount, reason: 'purchase' },
});
const reserved = (
  reservationId: string,
  fromMaps: number,
  fromAdhoc: number,
  opts: {
    units?: number;
    unitCost?: number;
    requested?: number;
    source?: 'auto' | 'adhoc';
    month?: string;
  } = {},
): LedgerEvent => {
  const unitCost = opts.unitCost ?? 1;
  const amount = fromMaps + fromAdhoc;
  return {
    type: 'CreditsReserved',
    data: {
      commandId: `r-${reservationId}`,
      month: opts.month ?? '2026-03',
      reservationId,
      source: opts.source ?? 'auto',
      requestedUnits: opts.requested ?? amount / unitCost,
      fundedUnits: amount / unitCost,
      unitCost,
      amount,
      fromMaps,
      fromAdhoc,
    },
  };
};

const reserve = (
  reservationId: string,
  units: number,
  unitCost = 1,
  source: 'auto' | 'adhoc' = 'auto',
  at = AT,
): LedgerCommand => ({
  type: 'ReserveCredits',
  data: { commandId: `r-${reservationId}`, reservationId, units, unitCost, source, at },
});
const settle = (
  reservationId: string,
  consumed: number,
  commandId = `s-${reservationId}`,
  at = AT,
): LedgerCommand => ({
  type: 'SettleCredits',
  data: { commandId, reservationId, consumed, at },
});
const refund = (reservationId: string, commandId = `f-${reservationId}`, at = AT): LedgerCommand => ({
  type: 'RefundCredits',
  data: { commandId, reservationId, reason: 'post failed', at },
});

describe('ledger decider: grant', () => {
  it('opens the month first on a new ledger, then grants', () => {
    given([])
      .when({
        type: 'GrantCredits',
        data: { commandId: 'g1', pool: 'adhoc', amount: 50, reason: 'purchase', at: AT },
      })
      .then([
        opened(),
        {
          type: 'CreditsGranted',
          data: { commandId: 'g1', month: '2026-03', pool: 'adhoc', amount: 50, reason: 'purchase' },
        },
      ]);
  });

  it.each([
    ['a zero amount', 'adhoc', 0],
    ['a fractional amount', 'map', 1.5],
    ['an unknown pool', 'gold', 1],
  ] as const)('rejects a grant of %s with a typed error', (_case, pool, amount) => {
    given([opened()])
      .when({
        type: 'GrantCredits',
        data: { commandId: 'g1', pool: pool as never, amount, reason: 'x', at: AT },
      })
      .thenFails('invalid_command');
  });

  it('treats a repeated command id with the same content as a no-op and keeps the first answer', () => {
    const first = granted('adhoc', 50, 'g1');
    const g = given([opened(), first]);
    g.when({
      type: 'GrantCredits',
      data: { commandId: 'g1', pool: 'adhoc', amount: 50, reason: 'purchase', at: APRIL },
    }).then([]);
    expect(answerOf(g.state, 'g1')).toMatchObject({ kind: 'grant', result: { pool: 'adhoc', amount: 50 } });
    expect(g.state.adhoc).toBe(50);
  });

  it('refuses a repeated command id with different content (idempotency_key_reused), naming both, and writes nothing', () => {
    const g = given([opened(), granted('adhoc', 50, 'admin-grant-inv-42')]);
    for (const data of [
      { pool: 'map' as const, amount: 7000, reason: 'purchase' },
      { pool: 'adhoc' as const, amount: 51, reason: 'purchase' },
      { pool: 'adhoc' as const, amount: 50, reason: 'another invoice' },
    ]) {
      g.when({ type: 'GrantCredits', data: { commandId: 'admin-grant-inv-42', ...data, at: AT } }).thenFails(
        'idempotency_key_reused',
      );
    }
    expect(() =>
      decideLedger(
        {
          type: 'GrantCredits',
          data: { commandId: 'admin-grant-inv-42', pool: 'map', amount: 7000, reason: 'purchase', at: AT },
        },
        g.state,
      ),
    ).toThrow(
      'command id admin-grant-inv-42 was already used for a grant with different content (first {"pool":"adhoc","amount":50,"reason":"purchase"}, now {"pool":"map","amount":7000,"reason":"purchase"}); nothing was applied',
    );
  });

  it('refuses a command id reused for a different kind of command', () => {
    given([opened(), granted('adhoc', 50, 'x1')])
      .when(settle('nope', 0, 'x1'))
      .thenFails('command_id_conflict');
  });
});

describe('ledger decider: reserve', () => {
  it('takes MAPs first, then Ad Hoc, with source auto', () => {
    given([opened(), allotted(3), granted('adhoc', 10)])
      .when(reserve('p1', 5))
      .then([reserved('p1', 3, 2)]);
  });

  it('takes only Ad Hoc with source adhoc', () => {
    given([opened(), allotted(3), granted('adhoc', 10)])
      .when(reserve('p1', 5, 1, 'adhoc'))
      .then([reserved('p1', 0, 5, { source: 'adhoc' })]);
  });

  it('funds as many whole units as the balances allow, 5 credits each with fullRead', () => {
    // 3 MAPs + 9 Ad Hoc = 12 credits: two units of 5, the second drawing on both pools.
    given([opened(), allotted(3), granted('adhoc', 9)])
      .when(reserve('p1', 4, 5))
      .then([reserved('p1', 3, 7, { unitCost: 5, requested: 4 })]);
  });

  describe('a reservation nothing can fund', () => {
    const g = given([opened(), granted('adhoc', 4)]);

    it('is recorded as rejected', () => {
      g.when(reserve('p1', 1, 5)).then([
        {
          type: 'CreditsReservationRejected',
          data: {
            commandId: 'r-p1',
            month: '2026-03',
            reservationId: 'p1',
            source: 'auto',
            requestedUnits: 1,
            unitCost: 5,
            reason: 'insufficient_credits',
            available: { maps: 0, adhoc: 4 },
          },
        },
      ]);
    });

    it('holds nothing, and answers with nothing funded', () => {
      const after = g
        .when(reserve('p1', 1, 5))
        .events()
        .reduce(evolveLedger, g.state);
      expect(after.reservations.has('p1')).toBe(false);
      expect(answerOf(after, 'r-p1')).toMatchObject({
        kind: 'reserve',
        result: { reservationId: 'p1', fundedUnits: 0, amount: 0, fromMaps: 0, fromAdhoc: 0 },
      });
    });

    // A retry of the rejected reserve gets the rejection back; the same id asking for other units is refused.
    it('answers a retry with the rejection', () => {
      given([opened(), granted('adhoc', 4), ...g.when(reserve('p1', 1, 5)).events()])
        .when(reserve('p1', 1, 5))
        .then([]);
    });

    it('refuses its command id asking for other units', () => {
      given([opened(), granted('adhoc', 4), ...g.when(reserve('p1', 1, 5)).events()])
        .when(reserve('p1', 1, 1))
        .thenFails('idempotency_key_reused');
    });
  });

  it('refuses a second reservation with the same id', () => {
    given([opened(), granted('adhoc', 10), reserved('p1', 0, 1)])
      .when({
        type: 'ReserveCredits',
        data: { commandId: 'other', reservationId: 'p1', units: 1, unitCost: 1, source: 'auto', at: AT },
      })
      .thenFails('reservation_exists');
  });

  it('answers a repeated reserve command with the first answer, even after balances changed', () => {
    const g = given([opened(), granted('adhoc', 10), reserved('p1', 0, 4), granted('adhoc', 100, 'g2')]);
    g.when(reserve('p1', 4)).then([]);
    expect(answerOf(g.state, 'r-p1')).toMatchObject({
      kind: 'reserve',
      result: { reservationId: 'p1', fundedUnits: 4, amount: 4, fromMaps: 0, fromAdhoc: 4 },
    });
  });

  it.each([
    ['units', reserve('p1', 5)],
    ['cost', reserve('p1', 4, 5)],
    ['source', reserve('p1', 4, 1, 'adhoc')],
    [
      'reservation',
      {
        type: 'ReserveCredits',
        data: { commandId: 'r-p1', reservationId: 'p2', units: 4, unitCost: 1, source: 'auto', at: AT },
      } as const,
    ],
  ])('refuses a repeated reserve command id that asks for other %s', (_field, command) => {
    given([opened(), granted('adhoc', 10), reserved('p1', 0, 4)])
      .when(command)
      .thenFails('idempotency_key_reused');
  });

  it('holds the reserved credits out of both balances', () => {
    const { state } = given([opened(), allotted(3), granted('adhoc', 10), reserved('p1', 3, 2)]);
    expect({ maps: state.maps, adhoc: state.adhoc, reserved: state.reserved }).toEqual({
      maps: 0,
      adhoc: 8,
      reserved: 5,
    });
  });
});

describe('ledger decider: settle', () => {
  const history = [opened(), allotted(3), granted('adhoc', 10), reserved('p1', 3, 2)];

  it('charges MAPs first and returns the unused part (Ad Hoc first)', () => {
    given(history)
      .when(settle('p1', 4))
      .then([
        {
          type: 'CreditsSettled',
          data: {
            commandId: 's-p1',
            month: '2026-03',
            reservationId: 'p1',
            consumedUnits: 4,
            charged: { maps: 3, adhoc: 1 },
            returned: { maps: 0, adhoc: 1 },
            expiredOnReturn: 0,
          },
        },
      ]);
  });

  it('settling zero units returns everything', () => {
    given(history)
      .when(settle('p1', 0))
      .then([
        {
          type: 'CreditsSettled',
          data: {
            commandId: 's-p1',
            month: '2026-03',
            reservationId: 'p1',
            consumedUnits: 0,
            charged: { maps: 0, adhoc: 0 },
            returned: { maps: 3, adhoc: 2 },
            expiredOnReturn: 0,
          },
        },
      ]);
  });

  it('refuses to settle more than was reserved', () => {
    given(history).when(settle('p1', 6)).thenFails('settle_exceeds_reservation');
  });

  it('refuses a second settle with a typed error', () => {
    const first = decideLedger(settle('p1', 5), given(history).state);
    given([...history, ...first])
      .when(settle('p1', 5, 's-again'))
      .thenFails('reservation_already_settled');
  });

  describe('a repeated settle command id (idempotent by ingest event id)', () => {
    const first = decideLedger(settle('p1', 5, 'ev_ingest_1'), given(history).state);
    const g = given([...history, ...first]);

    it('writes nothing', () => {
      g.when(settle('p1', 5, 'ev_ingest_1')).then([]);
    });

    it('keeps the first answer', () => {
      expect(answerOf(g.state, 'ev_ingest_1')?.kind).toBe('settle');
    });

    it('is refused for another amount', () => {
      g.when(settle('p1', 4, 'ev_ingest_1')).thenFails('idempotency_key_reused');
    });
  });

  it('refuses a settle after a refund', () => {
    const first = decideLedger(refund('p1'), given(history).state);
    given([...history, ...first])
      .when(settle('p1', 1))
      .thenFails('reservation_already_refunded');
  });

  it('refuses to settle an unknown reservation', () => {
    given(history).when(settle('p9', 1)).thenFails('reservation_not_found');
  });
});

describe('ledger decider: refund', () => {
  const history = [opened(), allotted(3), granted('adhoc', 10), reserved('p1', 3, 2)];

  it('returns every credit to the pool it came from', () => {
    const g = given(history);
    g.when(refund('p1')).then([
      {
        type: 'CreditsRefunded',
        data: {
          commandId: 'f-p1',
          month: '2026-03',
          reservationId: 'p1',
          reason: 'post failed',
          returned: { maps: 3, adhoc: 2 },
          expiredOnReturn: 0,
        },
      },
    ]);
  });

  it('leaves nothing reserved after a refund', () => {
    const g = given(history);
    const after = g.when(refund('p1')).events().reduce(evolveLedger, g.state);
    expect({ maps: after.maps, adhoc: after.adhoc, reserved: after.reserved }).toEqual({
      maps: 3,
      adhoc: 10,
      reserved: 0,
    });
  });

  it('answers a repeated refund command id with the first answer', () => {
    const first = decideLedger(refund('p1'), given(history).state);
    given([...history, ...first])
      .when(refund('p1'))
      .then([]);
  });

  it('refuses a repeated refund command id with another reason', () => {
    const first = decideLedger(refund('p1'), given(history).state);
    given([...history, ...first])
      .when({
        type: 'RefundCredits',
        data: { commandId: 'f-p1', reservationId: 'p1', reason: 'unreachable', at: AT },
      })
      .thenFails('idempotency_key_reused');
  });

  it('refuses a refund after a settle', () => {
    const settled = decideLedger(settle('p1', 1), given(history).state);
    given([...history, ...settled])
      .when(refund('p1'))
      .thenFails('reservation_already_settled');
  });

  it('refuses a second refund', () => {
    const refunded = decideLedger(refund('p1'), given(history).state);
    given([...history, ...refunded])
      .when(refund('p1', 'f-2'))
      .thenFails('reservation_already_refunded');
  });
});

describe('ledger decider: months', () => {
  const march = [opened('2026-03'), allotted(10), granted('adhoc', 5), reserved('p1', 4, 0)];

  it('resets on the first command of a new month: leftover MAPs expire, the allotment is granted', () => {
    given(march)
      .when(reserve('p2', 1, 1, 'auto', APRIL))
      .then([opened('2026-04', 10, 6, '2026-03'), reserved('p2', 1, 0, { month: '2026-04' })]);
  });

  it('expires the MAP part of a March reservation that is refunded in April', () => {
    const april = [...march, opened('2026-04', 10, 6, '2026-03')];
    given(april)
      .when(refund('p1', 'f-p1', APRIL))
      .then([
        {
          type: 'CreditsRefunded',
          data: {
            commandId: 'f-p1',
            month: '2026-04',
            reservationId: 'p1',
            reason: 'post failed',
            returned: { maps: 0, adhoc: 0 },
            expiredOnReturn: 4,
          },
        },
      ]);
  });

  it('an explicit ResetMaps is a no-op inside the same month', () => {
    given(march)
      .when({ type: 'ResetMaps', data: { at: '2026-03-31T23:59:59.999Z' } })
      .then([]);
  });

  it('never resets backwards when a command carries an earlier month', () => {
    const april = [...march, opened('2026-04', 10, 6, '2026-03')];
    given(april)
      .when({ type: 'ResetMaps', data: { at: '2026-03-15T00:00:00.000Z' } })
      .then([]);
  });

  it('a mid-month allotment change moves this month’s MAPs by the difference', () => {
    given(march)
      .when({ type: 'SetMapAllotment', data: { commandId: 'plan-1', allotment: 30, at: AT } })
      .then([
        {
          type: 'MapAllotmentSet',
          data: { commandId: 'plan-1', month: '2026-03', allotment: 30, previous: 10, adjustment: 20 },
        },
      ]);
  });

  it('a mid-month allotment cut never takes MAPs below zero', () => {
    // 6 MAPs left: a cut from 10 to 0 can only take those 6.
    given(march)
      .when({ type: 'SetMapAllotment', data: { commandId: 'plan-2', allotment: 0, at: AT } })
      .then([
        {
          type: 'MapAllotmentSet',
          data: { commandId: 'plan-2', month: '2026-03', allotment: 0, previous: 10, adjustment: -6 },
        },
      ]);
  });

  it('a new team gets its allotment for the current month', () => {
    const events = decideLedger(
      { type: 'SetMapAllotment', data: { commandId: 'ev_team_created', allotment: 500, at: AT } },
      initialLedgerState(),
    );
    const state = events.reduce(evolveLedger, initialLedgerState());
    expect(state).toMatchObject({ month: '2026-03', allotment: 500, maps: 500, adhoc: 0, reserved: 0 });
  });
});

describe('ledger decider: allotment changes within a month', () => {
  const DEC = '2025-12-10T09:00:00.000Z';
  const setAllotment = (commandId: string, allotment: number, at = DEC): LedgerCommand => ({
    type: 'SetMapAllotment',
    data: { commandId, allotment, at },
  });
  const run = (state: LedgerState, command: LedgerCommand) => {
    const events = decideLedger(command, state);
    return { events, state: events.reduce(evolveLedger, state) };
  };
  const figures = (state: LedgerState) => ({
    maps: state.maps,
    adhoc: state.adhoc,
    reserved: state.reserved,
  });
  /** A growth team (500 MAPs) that reserved 465 credits of MAPs, settled (`spent`) or still held. */
  const growthTeamThatUsed465 = (settled: boolean): LedgerState => {
    let state = run(initialLedgerState(), setAllotment('team-created', 500)).state;
    state = run(state, {
      type: 'ReserveCredits',
      data: { commandId: 'r1', reservationId: 'res1', units: 465, unitCost: 1, source: 'auto', at: DEC },
    }).state;
    if (settled)
      state = run(state, {
        type: 'SettleCredits',
        data: { commandId: 's1', reservationId: 'res1', consumed: 465, at: DEC },
      }).state;
    expect(state.maps).toBe(35);
    return state;
  };
  const adjustments = (events: { type: string; data: unknown }[]) =>
    events
      .filter((e) => e.type === 'MapAllotmentSet')
      .map((e) => (e.data as { adjustment: number }).adjustment);

  it('the audit’s sequence: growth 500, 465 spent, downgrade to 100, upgrade to 500 leaves 35 MAPs, not 400', () => {
    let state = growthTeamThatUsed465(true);
    const down = run(state, setAllotment('to-starter', 100));
    expect(down.events).toEqual([
      {
        type: 'MapAllotmentSet',
        data: { commandId: 'to-starter', month: '2025-12', allotment: 100, previous: 500, adjustment: -35 },
      },
    ]);
    state = down.state;
    expect(figures(state)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    const up = run(state, setAllotment('to-growth', 500));
    expect(up.events).toEqual([
      {
        type: 'MapAllotmentSet',
        data: { commandId: 'to-growth', month: '2025-12', allotment: 500, previous: 100, adjustment: 35 },
      },
    ]);
    expect(figures(up.state)).toEqual({ maps: 35, adhoc: 0, reserved: 0 });
  });

  it('a repeated downgrade/upgrade cycle never mints MAPs: each round is −35 then +35', () => {
    let state = growthTeamThatUsed465(true);
    const all: { type: string; data: unknown }[] = [];
    for (let round = 0; round < 4; round++) {
      for (const [id, allotment] of [
        [`down-${round}`, 100],
        [`up-${round}`, 500],
      ] as const) {
        const step = run(state, setAllotment(id, allotment));
        all.push(...step.events);
        state = step.state;
      }
      expect(state.maps).toBe(35);
    }
    expect(adjustments(all)).toEqual([-35, 35, -35, 35, -35, 35, -35, 35]);
  });

  it('MAPs held by an open reservation count as used, and come back on refund only up to the allotment in force', () => {
    let state = growthTeamThatUsed465(false);
    state = run(state, setAllotment('to-starter', 100)).state;
    expect(figures(state)).toEqual({ maps: 0, adhoc: 0, reserved: 465 });
    // Nothing was spent after all: the month is as if starter had applied from its start, 100 MAPs.
    const refunded = run(state, {
      type: 'RefundCredits',
      data: { commandId: 'f1', reservationId: 'res1', reason: 'failed', at: DEC },
    });
    expect(refunded.events).toEqual([
      {
        type: 'CreditsRefunded',
        data: {
          commandId: 'f1',
          month: '2025-12',
          reservationId: 'res1',
          reason: 'failed',
          returned: { maps: 100, adhoc: 0 },
          expiredOnReturn: 365,
        },
      },
    ]);
    expect(figures(refunded.state)).toEqual({ maps: 100, adhoc: 0, reserved: 0 });
    // And back on growth, with nothing used this month, the team has its 500.
    expect(run(refunded.state, setAllotment('to-growth', 500)).state.maps).toBe(500);
  });

  it('an upgrade with 465 held (not yet settled) gives 35, and the settle then charges what was held', () => {
    let state = growthTeamThatUsed465(false);
    state = run(state, setAllotment('to-starter', 100)).state;
    state = run(state, setAllotment('to-growth', 500)).state;
    expect(figures(state)).toEqual({ maps: 35, adhoc: 0, reserved: 465 });
    const settled = run(state, {
      type: 'SettleCredits',
      data: { commandId: 's1', reservationId: 'res1', consumed: 400, at: DEC },
    });
    expect(settled.events[0].data).toMatchObject({
      charged: { maps: 400, adhoc: 0 },
      returned: { maps: 65, adhoc: 0 },
      expiredOnReturn: 0,
    });
    expect(figures(settled.state)).toEqual({ maps: 100, adhoc: 0, reserved: 0 });
  });

  it('MAPs granted this month stay on top of the allotment across a change', () => {
    let state = growthTeamThatUsed465(true);
    state = run(state, {
      type: 'GrantCredits',
      data: { commandId: 'g1', pool: 'map', amount: 7000, reason: 'goodwill', at: DEC },
    }).state;
    expect(state.maps).toBe(7035);
    state = run(state, setAllotment('to-starter', 100)).state;
    expect(state.maps).toBe(6635); // 100 + 7000 granted − 465 used
    state = run(state, setAllotment('to-growth', 500)).state;
    expect(state.maps).toBe(7035);
  });

  it('usage starts again with the month: January’s allotment is whole whatever December used', () => {
    let state = growthTeamThatUsed465(true);
    state = run(state, setAllotment('to-starter', 100, '2026-01-03T00:00:00.000Z')).state;
    expect(state).toMatchObject({ month: '2026-01', maps: 100, mapsUsed: 0, mapsGranted: 0 });
  });

  it('a log written under the old rule replays to the same balances; the next change applies the new rule', () => {
    // What the service wrote before: the downgrade capped at the 35 left, the upgrade added the full 400.
    const old: LedgerEvent[] = [
      opened('2025-12'),
      {
        type: 'MapAllotmentSet',
        data: { commandId: 'team-created', month: '2025-12', allotment: 500, previous: 0, adjustment: 500 },
      },
      reserved('res1', 465, 0, { month: '2025-12' }),
      {
        type: 'CreditsSettled',
        data: {
          commandId: 's1',
          month: '2025-12',
          reservationId: 'res1',
          consumedUnits: 465,
          charged: { maps: 465, adhoc: 0 },
          returned: { maps: 0, adhoc: 0 },
          expiredOnReturn: 0,
        },
      },
      {
        type: 'MapAllotmentSet',
        data: { commandId: 'to-starter', month: '2025-12', allotment: 100, previous: 500, adjustment: -35 },
      },
      {
        type: 'MapAllotmentSet',
        data: { commandId: 'to-growth', month: '2025-12', allotment: 500, previous: 100, adjustment: 400 },
      },
    ];
    const state = old.reduce(evolveLedger, initialLedgerState());
    expect(figures(state)).toEqual({ maps: 400, adhoc: 0, reserved: 0 });
    expect(state.mapsUsed).toBe(465);
    // The old events keep their meaning; a later change in the month is decided by the new rule.
    expect(run(state, setAllotment('again', 500)).events[0].data).toMatchObject({
      allotment: 500,
      previous: 500,
      adjustment: -365,
    });
  });
});

describe('balancesAt: the balances a reader sees at an instant', () => {
  const december = { maps: 0, adhoc: 12, reserved: 5, month: '2025-12', allotment: 500 };

  it('applies a reset that is due: the month’s allotment as MAPs, Ad Hoc and reserved unchanged', () => {
    expect(balancesAt(december, '2026-01-01T00:00:00.000Z')).toEqual({ maps: 500, adhoc: 12, reserved: 5 });
    expect(balancesAt(december, new Date('2026-03-15T00:00:00.000Z'))).toEqual({
      maps: 500,
      adhoc: 12,
      reserved: 5,
    });
  });

  it('shows the stored figures within their month, and never resets backwards', () => {
    expect(balancesAt(december, '2025-12-31T23:59:59.999Z')).toEqual({ maps: 0, adhoc: 12, reserved: 5 });
    expect(balancesAt(december, '2025-11-30T00:00:00.000Z')).toEqual({ maps: 0, adhoc: 12, reserved: 5 });
  });

  it('agrees with the state the decider reaches when it writes the reset', () => {
    const DEC = '2025-12-10T09:00:00.000Z';
    let state = initialLedgerState();
    for (const command of [
      { type: 'SetMapAllotment', data: { commandId: 'created', allotment: 500, at: DEC } },
      {
        type: 'GrantCredits',
        data: { commandId: 'g', pool: 'adhoc', amount: 12, reason: 'purchase', at: DEC },
      },
      {
        type: 'ReserveCredits',
        data: { commandId: 'r', reservationId: 'res', units: 101, unitCost: 5, source: 'auto', at: DEC },
      },
    ] as LedgerCommand[]) {
      state = decideLedger(command, state).reduce(evolveLedger, state);
    }
    const jan = '2026-01-01T00:00:01.000Z';
    const reset = decideLedger({ type: 'ResetMaps', data: { at: jan } }, state).reduce(evolveLedger, state);
    expect(balancesAt(state, jan)).toEqual({
      maps: reset.maps,
      adhoc: reset.adhoc,
      reserved: reset.reserved,
    });
    expect(balancesAt(state, jan)).toEqual({ maps: 500, adhoc: 7, reserved: 505 });
  });
});
