import { FixedClock, type Clock } from '@analyst/eventsourcing';
import {
  NEW_ENDPOINT_HEALTH,
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryStore,
  type PartitionClaims,
} from '../src';

/** One store implementation under test; `partitions` builds claims over the same backing each call. */
export interface DeliveryStoresFixture {
  deliveries: DeliveryStore;
  partitions(clock: Clock, count: number): PartitionClaims;
  teardown?: () => Promise<void>;
  /**
   * False where conditional writes are read, compared and written by the client (FerretDB v1's
   * mode): there two racing claims may both succeed, and concurrent health folds lose one, by
   * design; those cases then check nothing concurrent (and say so).
   */
  atomicConditionalWrites?: boolean;
}

const T0 = '2026-03-10T12:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

function record(n: number, extra: Partial<DeliveryRecord> = {}): DeliveryRecord {
  const eventId = `evt_${String(n).padStart(4, '0')}`;
  return {
    id: `dlv_we_00000001_${eventId}`,
    endpointId: 'we_00000001',
    teamId: 'tm_1',
    partition: 1,
    eventId,
    eventType: 'post.updated',
    body: JSON.stringify({ id: eventId, n }),
    createdAt: at(n * 1000),
    status: 'pending',
    nextAttemptAt: at(n * 1000),
    attempts: [],
    claim: null,
    ...extra,
  };
}

function attempt(number: number, outcome: 'delivered' | 'failed', ms: number): DeliveryAttempt {
  return {
    number,
    at: at(ms),
    outcome,
    responseStatus: outcome === 'delivered' ? 200 : 503,
    error: outcome === 'delivered' ? null : { code: 'http_status', message: 'answered 503' },
    latencyMs: 12,
    responseBody: outcome === 'delivered' ? 'ok' : 'busy',
    nextRetryAt: outcome === 'delivered' ? null : at(ms + 30_000),
  };
}

/**
 * What every DeliveryStore and PartitionClaims implementation must do, whatever it stores in: the
 * atomic steps the delivery engine relies on (insert-if-absent, the claim's compare-and-set, a
 * completion only by the claim's holder, the fair share of partitions, checkpoints only by the
 * holder and never backwards).
 */
export function deliveryStoresContract(name: string, setup: () => Promise<DeliveryStoresFixture>): void {
  describe(`delivery stores contract: ${name}`, () => {
    let fixture: DeliveryStoresFixture;
    let store: DeliveryStore;
    beforeEach(async () => {
      fixture = await setup();
      store = fixture.deliveries;
    });
    afterEach(async () => {
      await fixture.teardown?.();
    });

    describe('DeliveryStore', () => {
      it('inserts a delivery once and answers it as given', async () => {
        expect(await store.insertIfAbsent(record(1))).toBe(true);
        expect(await store.insertIfAbsent(record(1, { body: 'a replay' }))).toBe(false);
        expect(await store.get(record(1).id)).toEqual(record(1));
        expect(await store.get('dlv_unknown')).toBeNull();
      });

      it('answers the due deliveries of the given partitions, unclaimed or lapsed, soonest first', async () => {
        await store.insertIfAbsent(record(3));
        await store.insertIfAbsent(record(1));
        await store.insertIfAbsent(record(2));
        await store.insertIfAbsent(record(4, { partition: 2 }));
        await store.insertIfAbsent(record(5, { nextAttemptAt: at(60_000) }));
        await store.insertIfAbsent(record(6, { status: 'delivered', nextAttemptAt: null }));
        const now = at(10_000);
        expect((await store.due([1], now, 10)).map((r) => r.eventId)).toEqual([
          'evt_0001',
          'evt_0002',
          'evt_0003',
        ]);
        expect((await store.due([1, 2], now, 2)).map((r) => r.eventId)).toEqual(['evt_0001', 'evt_0002']);
        expect(await store.due([], now, 10)).toEqual([]);
        await store.claim(record(1).id, 'a', now, at(40_000));
        expect((await store.due([1], now, 10)).map((r) => r.eventId)).toEqual(['evt_0002', 'evt_0003']);
        // The claim lapsed: due again, for anyone.
        expect((await store.due([1], at(40_000), 10)).map((r) => r.eventId)).toEqual([
          'evt_0001',
          'evt_0002',
          'evt_0003',
        ]);
      });

      it('claims for one holder at a time until the claim lapses; never a final delivery', async () => {
        await store.insertIfAbsent(record(1));
        const id = record(1).id;
        const claimed = await store.claim(id, 'a', at(1_000), at(41_000));
        expect(claimed).toEqual({ ...record(1), claim: { holder: 'a', until: at(41_000) } });
        expect(await store.claim(id, 'b', at(2_000), at(42_000))).toBeNull();
        expect((await store.claim(id, 'a', at(3_000), at(43_000)))?.claim).toEqual({
          holder: 'a',
          until: at(43_000),
        });
        expect((await store.claim(id, 'b', at(43_000), at(83_000)))?.claim).toEqual({
          holder: 'b',
          until: at(83_000),
        });
        await store.complete(id, 'b', {
          attempt: attempt(1, 'delivered', 44_000),
          status: 'delivered',
          nextAttemptAt: null,
        });
        expect(await store.claim(id, 'b', at(90_000), at(130_000))).toBeNull();
      });

      it('claims only a delivery that is due (a retry another replica scheduled is not)', async () => {
        await store.insertIfAbsent(record(1, { nextAttemptAt: at(31_000) }));
        expect(await store.claim(record(1).id, 'a', at(30_000), at(70_000))).toBeNull();
        expect((await store.claim(record(1).id, 'a', at(31_000), at(71_000)))?.claim).toEqual({
          holder: 'a',
          until: at(71_000),
        });
      });

      it('claims a delivery as read by due(): that record with the claim, never a stale one', async () => {
        await store.insertIfAbsent(record(1));
        const id = record(1).id;
        const [asRead] = await store.due([1], at(1_000), 10);
        const claimed = await store.claim(id, 'a', at(1_000), at(41_000), asRead);
        expect(claimed).toEqual({ ...record(1), claim: { holder: 'a', until: at(41_000) } });
        expect(await store.get(id)).toEqual(claimed);
        // Another holder attempts it after the claim lapsed and schedules a retry, due at 80 s.
        await store.claim(id, 'b', at(41_000), at(81_000));
        await store.complete(id, 'b', {
          attempt: attempt(1, 'failed', 41_000),
          status: 'pending',
          nextAttemptAt: at(80_000),
        });
        const late = await store.claim(id, 'a', at(80_000), at(120_000), asRead);
        // Refused, or the record as it is now: an attempt numbered from the stale read would repeat #1.
        if (late) expect(late.attempts.map((a) => a.number)).toEqual([1]);
      });

      it('of two holders racing for one claim, exactly one wins', async () => {
        if (fixture.atomicConditionalWrites === false) {
          console.warn(`${name}: racing claims not checked (conditional writes are not atomic here)`);
          return;
        }
        await store.insertIfAbsent(record(1));
        const results = await Promise.all(
          ['a', 'b', 'c', 'd'].map((holder) => store.claim(record(1).id, holder, at(1_000), at(41_000))),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      it("completes only under the holder's claim, appending the attempt and dropping the claim", async () => {
        await store.insertIfAbsent(record(1));
        const id = record(1).id;
        await store.claim(id, 'a', at(1_000), at(41_000));
        const failed = attempt(1, 'failed', 1_000);
        expect(
          await store.complete(id, 'b', { attempt: failed, status: 'pending', nextAttemptAt: at(31_000) }),
        ).toBe(false);
        expect(
          await store.complete(id, 'a', { attempt: failed, status: 'pending', nextAttemptAt: at(31_000) }),
        ).toBe(true);
        expect(await store.get(id)).toEqual({ ...record(1), attempts: [failed], nextAttemptAt: at(31_000) });
        expect((await store.due([1], at(31_000), 10)).map((r) => r.id)).toEqual([id]);
        // a's claim lapses mid-attempt and b takes it: a's late result is refused, b's is recorded.
        await store.claim(id, 'a', at(31_000), at(71_000));
        await store.claim(id, 'b', at(71_000), at(111_000));
        const late = attempt(2, 'delivered', 72_000);
        expect(
          await store.complete(id, 'a', { attempt: late, status: 'delivered', nextAttemptAt: null }),
        ).toBe(false);
        const second = attempt(2, 'delivered', 75_000);
        expect(
          await store.complete(id, 'b', { attempt: second, status: 'delivered', nextAttemptAt: null }),
        ).toBe(true);
        expect(await store.get(id)).toEqual({
          ...record(1),
          status: 'delivered',
          nextAttemptAt: null,
          attempts: [failed, second],
        });
        expect(await store.due([1], at(200_000), 10)).toEqual([]);
      });

      it('finishes without an attempt (endpoint gone), keeping the attempts made', async () => {
        await store.insertIfAbsent(record(1));
        const id = record(1).id;
        const failed = attempt(1, 'failed', 1_000);
        await store.claim(id, 'a', at(1_000), at(41_000));
        await store.complete(id, 'a', { attempt: failed, status: 'pending', nextAttemptAt: at(31_000) });
        await store.claim(id, 'a', at(31_000), at(71_000));
        expect(
          await store.complete(id, 'a', { attempt: null, status: 'endpoint_deleted', nextAttemptAt: null }),
        ).toBe(true);
        expect(await store.get(id)).toEqual({
          ...record(1),
          status: 'endpoint_deleted',
          nextAttemptAt: null,
          attempts: [failed],
        });
      });

      it("folds an endpoint's attempts into its health, every one of many written at once", async () => {
        const first = await store.recordEndpointAttempts('we_1', [{ at: at(1_000), outcome: 'failed' }]);
        expect(first).toEqual({ ...NEW_ENDPOINT_HEALTH, failingSince: at(1_000), lastFailedAt: at(1_000) });
        const fold = (i: number) =>
          store.recordEndpointAttempts('we_1', [{ at: at(2_000 + i * 1_000), outcome: 'failed' }]);
        if (fixture.atomicConditionalWrites === false) {
          // The version check is made by the client there: concurrent folds may lose one by design.
          console.warn(
            `${name}: concurrent health folds not checked (conditional writes are not atomic here)`,
          );
          for (let i = 0; i < 12; i++) await fold(i);
        } else await Promise.all(Array.from({ length: 12 }, (_, i) => fold(i)));
        const last = await store.recordEndpointAttempts('we_1', [{ at: at(5_500), outcome: 'delivered' }]);
        // The last failure (13 s) is after the delivery (5.5 s): still failing since that failure.
        expect(last).toEqual({
          lastDeliveredAt: at(5_500),
          failingSince: at(13_000),
          lastFailedAt: at(13_000),
        });
        expect(await store.recordEndpointAttempts('we_2', [{ at: at(1_000), outcome: 'delivered' }])).toEqual(
          {
            ...NEW_ENDPOINT_HEALTH,
            lastDeliveredAt: at(1_000),
          },
        );
      });

      it("lists an endpoint's deliveries newest first (ties by id), in pages after a cursor", async () => {
        for (const n of [1, 2, 3, 4, 5]) await store.insertIfAbsent(record(n));
        // Two created in the same millisecond: the higher id first.
        await store.insertIfAbsent(record(7, { id: 'dlv_we_00000001_evt_0007', createdAt: at(5_000) }));
        await store.insertIfAbsent(record(8, { endpointId: 'we_00000002', id: 'dlv_we_00000002_evt_0008' }));
        const ids = (rows: DeliveryRecord[]) => rows.map((r) => r.eventId);
        expect(ids(await store.forEndpoint('we_00000001', 10))).toEqual([
          'evt_0007',
          'evt_0005',
          'evt_0004',
          'evt_0003',
          'evt_0002',
          'evt_0001',
        ]);
        const first = await store.forEndpoint('we_00000001', 2);
        expect(ids(first)).toEqual(['evt_0007', 'evt_0005']);
        const second = await store.forEndpoint('we_00000001', 3, first[1]);
        expect(ids(second)).toEqual(['evt_0004', 'evt_0003', 'evt_0002']);
        expect(ids(await store.forEndpoint('we_00000001', 3, second[2]))).toEqual(['evt_0001']);
        expect(ids(await store.forEndpoint('we_00000002', 10))).toEqual(['evt_0008']);
      });

      it('prunes the final deliveries created before a time, never a pending one', async () => {
        await store.insertIfAbsent(record(1, { status: 'delivered', nextAttemptAt: null }));
        await store.insertIfAbsent(record(2, { status: 'given_up', nextAttemptAt: null }));
        await store.insertIfAbsent(record(3));
        await store.insertIfAbsent(record(4, { status: 'endpoint_deleted', nextAttemptAt: null }));
        await store.insertIfAbsent(record(5, { status: 'delivered', nextAttemptAt: null }));
        // Created at 1, 2, 3, 4 and 5 s: before 4.5 s, the final ones are 1, 2 and 4.
        expect(await store.pruneFinished(at(4_500))).toBe(3);
        expect((await store.forEndpoint('we_00000001', 10)).map((r) => r.eventId)).toEqual([
          'evt_0005',
          'evt_0003',
        ]);
        expect(await store.get(record(1).id)).toBeNull();
        expect(await store.pruneFinished(at(4_500))).toBe(0);
      });
    });

    describe('PartitionClaims', () => {
      let clock: FixedClock;
      let claims: PartitionClaims;
      const partitionsOf = async (holder: string) => (await claims.refresh(holder)).map((h) => h.partition);
      beforeEach(() => {
        clock = new FixedClock(T0);
        claims = fixture.partitions(clock, 8);
      });

      it('initialize creates the missing partitions at the given checkpoint and keeps existing ones', async () => {
        await claims.initialize(41);
        const held = await claims.refresh('a');
        expect(held).toEqual(Array.from({ length: 8 }, (_, partition) => ({ partition, checkpoint: 41 })));
        expect(await claims.saveCheckpoint('a', 3, 50)).toBe(true);
        await claims.initialize(99);
        await fixture.partitions(clock, 8).initialize(99); // another replica starting
        const again = await claims.refresh('a');
        expect(again.map((h) => h.checkpoint)).toEqual([41, 41, 41, 50, 41, 41, 41, 41]);
      });

      it('a lone replica holds every partition; a second gets half within two refreshes, never overlapping', async () => {
        await claims.initialize(-1);
        const other = fixture.partitions(clock, 8); // the second replica's own connection
        expect(await partitionsOf('a')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expect((await other.refresh('b')).map((h) => h.partition)).toEqual([]);
        expect(await partitionsOf('a')).toEqual([0, 1, 2, 3]);
        expect((await other.refresh('b')).map((h) => h.partition)).toEqual([4, 5, 6, 7]);
        expect(await partitionsOf('a')).toEqual([0, 1, 2, 3]);
      });

      it("a silent replica's partitions go to the others once its claims lapse, with their checkpoints", async () => {
        await claims.initialize(-1);
        await partitionsOf('a');
        await partitionsOf('b');
        await partitionsOf('a');
        await partitionsOf('b');
        expect(await claims.saveCheckpoint('b', 5, 42)).toBe(true);
        clock.advance(6_000);
        expect(await partitionsOf('a')).toEqual([0, 1, 2, 3]); // b's claims still live
        clock.advance(6_000);
        const held = await claims.refresh('a');
        expect(held.map((h) => h.partition)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expect(held.find((h) => h.partition === 5)!.checkpoint).toBe(42);
        expect(await claims.saveCheckpoint('b', 5, 50)).toBe(false); // b lost it: its write moves nothing
        expect((await claims.refresh('a')).find((h) => h.partition === 5)!.checkpoint).toBe(42);
      });

      it('saves several checkpoints in one step, only those of partitions still held, never back', async () => {
        await claims.initialize(-1);
        const other = fixture.partitions(clock, 8);
        await partitionsOf('a');
        await other.refresh('b');
        await partitionsOf('a'); // a keeps 0-3
        await other.refresh('b'); // b takes 4-7
        expect(await claims.saveCheckpoints('a', [0, 1, 2, 3], 20)).toEqual([0, 1, 2, 3]);
        expect(await claims.saveCheckpoints('a', [2, 3], 15)).toEqual([2, 3]); // held: no error, no move back
        // a still thinks it holds 4 and 5 (b took them): only its own are saved.
        expect(await claims.saveCheckpoints('a', [1, 4, 5], 30)).toEqual([1]);
        expect(await claims.saveCheckpoints('a', [], 40)).toEqual([]);
        const mine = await claims.refresh('a');
        expect(mine.map((h) => h.checkpoint)).toEqual([20, 30, 20, 20]);
        expect((await other.refresh('b')).map((h) => h.checkpoint)).toEqual([-1, -1, -1, -1]);
      });

      it('a checkpoint never moves back; a lapsed claim saves nothing; release hands everything over at once', async () => {
        await claims.initialize(-1);
        await claims.refresh('a');
        expect(await claims.saveCheckpoint('a', 0, 10)).toBe(true);
        expect(await claims.saveCheckpoint('a', 0, 7)).toBe(true);
        expect(await claims.saveCheckpoint('b', 1, 7)).toBe(false);
        await claims.release('a');
        const held = await claims.refresh('b');
        expect(held).toHaveLength(8);
        expect(held[0]).toEqual({ partition: 0, checkpoint: 10 });
        clock.advance(11_000);
        expect(await claims.saveCheckpoint('b', 0, 20)).toBe(false);
      });
    });
  });
}
