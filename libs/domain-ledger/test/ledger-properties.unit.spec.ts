import fc from 'fast-check';
import { ledgerStream, type LedgerEvent } from '@analyst/contracts';
import {
  LedgerAuditor,
  answerOf,
  decideLedger,
  evolveLedger,
  initialLedgerState,
  isLedgerError,
  type LedgerCommand,
  type LedgerRecord,
  type LedgerState,
} from '@analyst/domain-ledger';

const TEAMS = ['t1', 't2', 't3'];
const MONTH_STARTS = ['2026-01-05', '2026-02-01', '2026-03-15', '2026-04-30'];

/** One step of a random history: a command for a team, a repeat of an earlier command, or time moving on. */
type Step =
  | { kind: 'grant'; team: number; pool: 'map' | 'adhoc'; amount: number }
  | { kind: 'allot'; team: number; allotment: number }
  | { kind: 'reserve'; team: number; units: number; fullRead: boolean; source: 'auto' | 'adhoc' }
  | { kind: 'settle'; team: number; pick: number; consumedShare: number }
  | { kind: 'refund'; team: number; pick: number }
  | { kind: 'repeat'; pick: number }
  | { kind: 'month' };

const team = fc.nat({ max: TEAMS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('grant' as const),
    team,
    pool: fc.constantFrom('map' as const, 'adhoc' as const),
    amount: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({ kind: fc.constant('allot' as const), team, allotment: fc.integer({ min: 0, max: 60 }) }),
  fc.record({
    kind: fc.constant('reserve' as const),
    team,
    units: fc.integer({ min: 1, max: 12 }),
    fullRead: fc.boolean(),
    source: fc.constantFrom('auto' as const, 'adhoc' as const),
  }),
  fc.record({
    kind: fc.constant('settle' as const),
    team,
    pick: fc.nat(),
    consumedShare: fc.double({ min: 0, max: 1.3, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('refund' as const), team, pick: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), pick: fc.nat() }),
  fc.constant({ kind: 'month' as const }),
);

interface World {
  states: LedgerState[];
  records: LedgerRecord[];
  revisions: number[];
  reservations: string[][];
  sent: { team: number; command: LedgerCommand; answer: unknown; events: number }[];
  monthIndex: number;
  position: number;
  counter: number;
}

function at(world: World): string {
  return `${MONTH_STARTS[world.monthIndex]}T10:00:00.000Z`;
}

/** Runs a command against one team's state the way the service does: decide, append, evolve. */
function run(
  world: World,
  t: number,
  command: LedgerCommand,
): { events: LedgerEvent[]; error: string | null } {
  let events: LedgerEvent[];
  try {
    events = decideLedger(command, world.states[t]);
  } catch (error) {
    if (!isLedgerError(error)) throw error;
    return { events: [], error: error.code };
  }
  for (const event of events) {
    world.revisions[t] += 1;
    world.position += 1;
    world.records.push({
      id: `ev${world.position}`,
      streamId: ledgerStream(TEAMS[t]),
      revision: world.revisions[t],
      position: world.position,
      type: event.type,
      data: event.data,
      metadata: { occurredAt: at(world) },
    });
    world.states[t] = evolveLedger(world.states[t], event);
  }
  return { events, error: null };
}

function commandFor(world: World, s: Exclude<Step, { kind: 'repeat' | 'month' }>): LedgerCommand {
  const id = `c${++world.counter}`;
  const reservations = world.reservations[s.team];
  const pickReservation = (pick: number) =>
    reservations.length === 0 ? `none-${id}` : reservations[pick % reservations.length];
  switch (s.kind) {
    case 'grant':
      return {
        type: 'GrantCredits',
        data: { commandId: id, pool: s.pool, amount: s.amount, reason: 'test', at: at(world) },
      };
    case 'allot':
      return { type: 'SetMapAllotment', data: { commandId: id, allotment: s.allotment, at: at(world) } };
    case 'reserve':
      reservations.push(`res-${id}`);
      return {
        type: 'ReserveCredits',
        data: {
          commandId: id,
          reservationId: `res-${id}`,
          units: s.units,
          unitCost: s.fullRead ? 5 : 1,
          source: s.source,
          at: at(world),
        },
      };
    case 'settle': {
      const reservationId = pickReservation(s.pick);
      const funded = world.states[s.team].reservations.get(reservationId)?.fundedUnits ?? 1;
      return {
        type: 'SettleCredits',
        data: { commandId: id, reservationId, consumed: Math.floor(funded * s.consumedShare), at: at(world) },
      };
    }
    case 'refund':
      return {
        type: 'RefundCredits',
        data: { commandId: id, reservationId: pickReservation(s.pick), reason: 'failed', at: at(world) },
      };
  }
}

function play(steps: Step[]): World {
  const world: World = {
    states: TEAMS.map(() => initialLedgerState()),
    records: [],
    revisions: TEAMS.map(() => -1),
    reservations: TEAMS.map(() => []),
    sent: [],
    monthIndex: 0,
    position: 0,
    counter: 0,
  };
  for (const s of steps) {
    if (s.kind === 'month') {
      world.monthIndex = Math.min(world.monthIndex + 1, MONTH_STARTS.length - 1);
      // Month-end job: expire and re-grant for every team.
      for (let t = 0; t < TEAMS.length; t++) run(world, t, { type: 'ResetMaps', data: { at: at(world) } });
      continue;
    }
    if (s.kind === 'repeat') {
      if (world.sent.length === 0) continue;
      const earlier = world.sent[s.pick % world.sent.length];
      const before = world.states[earlier.team];
      const result = run(world, earlier.team, {
        ...earlier.command,
        data: { ...earlier.command.data, at: at(world) },
      } as LedgerCommand);
      const commandId = (earlier.command.data as { commandId: string }).commandId;
      // A duplicate never writes: it either answers as before or fails as before.
      expect(result.events).toEqual([]);
      if (earlier.answer !== null) {
        expect(answerOf(world.states[earlier.team], commandId)).toEqual(earlier.answer);
        expect(world.states[earlier.team]).toBe(before);
      }
      continue;
    }
    const command = commandFor(world, s);
    const result = run(world, s.team, command);
    const commandId = (command.data as { commandId: string }).commandId;
    world.sent.push({
      team: s.team,
      command,
      answer: result.error ? null : (answerOf(world.states[s.team], commandId) ?? null),
      events: result.events.length,
    });
  }
  return world;
}

describe('ledger properties (random interleavings across teams)', () => {
  it('never loses, double-spends or invents a credit: the audit finds no violation', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
        const world = play(steps);
        const auditor = new LedgerAuditor();
        for (const record of world.records) auditor.feed(record);
        const { teams, violations } = auditor.finish();
        expect(violations).toEqual([]);
        for (const audit of teams) {
          const live = world.states[TEAMS.indexOf(audit.teamId)];
          // Replaying from the first event gives exactly the live balances.
          expect(audit.balances).toEqual({ maps: live.maps, adhoc: live.adhoc, reserved: live.reserved });
          expect(live.maps).toBeGreaterThanOrEqual(0);
          expect(live.adhoc).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a fold from zero equals the incrementally evolved state, reservations included', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const world = play(steps);
        for (let t = 0; t < TEAMS.length; t++) {
          const events = world.records
            .filter((r) => r.streamId === ledgerStream(TEAMS[t]))
            .map((r) => ({ type: r.type, data: r.data }) as LedgerEvent);
          const replayed = events.reduce(evolveLedger, initialLedgerState());
          const live = world.states[t];
          expect({
            ...replayed,
            reservations: [...replayed.reservations.entries()],
            answers: [...replayed.answers.entries()],
          }).toEqual({
            ...live,
            reservations: [...live.reservations.entries()],
            answers: [...live.answers.entries()],
          });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('every reservation resolves at most once, and only what was funded is charged', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
        const world = play(steps);
        const resolutions = new Map<string, number>();
        const funded = new Map<string, number>();
        let charged = 0;
        let fundedCredits = 0;
        for (const r of world.records) {
          const data = r.data as {
            reservationId?: string;
            amount?: number;
            charged?: { maps: number; adhoc: number };
          };
          if (r.type === 'CreditsReserved') {
            funded.set(`${r.streamId}/${data.reservationId}`, data.amount!);
            fundedCredits += data.amount!;
          }
          if (r.type === 'CreditsSettled' || r.type === 'CreditsRefunded') {
            const key = `${r.streamId}/${data.reservationId}`;
            resolutions.set(key, (resolutions.get(key) ?? 0) + 1);
            expect(funded.has(key)).toBe(true);
          }
          if (r.type === 'CreditsSettled') charged += data.charged!.maps + data.charged!.adhoc;
        }
        for (const count of resolutions.values()) expect(count).toBe(1);
        expect(charged).toBeLessThanOrEqual(fundedCredits);
      }),
      { numRuns: 200 },
    );
  });

  it('an allotment change and its undo never mint MAPs, and leave the month’s entitlement', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), fc.integer({ min: 0, max: 60 }), (steps, other) => {
        const world = play(steps);
        for (let t = 0; t < TEAMS.length; t++) {
          const before = world.states[t];
          if (before.month === null) continue;
          const at = `${before.month}-28T12:00:00.000Z`;
          let state = before;
          for (const [commandId, allotment] of [
            ['prop-away', other],
            ['prop-back', before.allotment],
          ] as const) {
            state = decideLedger(
              { type: 'SetMapAllotment', data: { commandId, allotment, at } },
              state,
            ).reduce(evolveLedger, state);
            expect(state.maps).toBe(Math.max(0, allotment + state.mapsGranted - state.mapsUsed));
          }
          expect(state.maps).toBeLessThanOrEqual(before.maps);
          expect({ adhoc: state.adhoc, reserved: state.reserved }).toEqual({
            adhoc: before.adhoc,
            reserved: before.reserved,
          });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a command id repeated with other content is refused and writes nothing', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), fc.nat(), (steps, pick) => {
        const world = play(steps);
        const answered = world.sent.filter((s) => s.answer !== null && s.command.type === 'GrantCredits');
        fc.pre(answered.length > 0);
        const earlier = answered[pick % answered.length];
        const data = earlier.command.data as { commandId: string; amount: number };
        const changed = {
          ...earlier.command,
          data: { ...earlier.command.data, amount: data.amount + 1 },
        } as LedgerCommand;
        expect(() => decideLedger(changed, world.states[earlier.team])).toThrow(
          expect.objectContaining({ code: 'idempotency_key_reused' }),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('the audit names the event when a history is tampered with', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 80 }), fc.nat(), (steps, pick) => {
        const world = play(steps);
        const grants = world.records.filter((r) => r.type === 'CreditsGranted');
        fc.pre(grants.length > 0);
        const victim = grants[pick % grants.length];
        // A grant delivered twice into the log must be called out by its event id.
        const auditor = new LedgerAuditor();
        for (const r of world.records) {
          auditor.feed(r);
          if (r === victim) auditor.feed({ ...r, id: `${r.id}-dup`, revision: r.revision });
        }
        const { violations } = auditor.finish();
        expect(violations.some((v) => v.eventId === `${victim.id}-dup`)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
