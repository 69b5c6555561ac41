import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type EventStore, type NewEvent, type RecordedEvent } from '@analyst/platform';
import { eventually, unique } from './unique';

export interface EventStoreFixture {
  store: EventStore;
  /**
   * Another client of the same store, as a second replica would open it (a second handle on the
   * SQLite file, a second gRPC client of the EventStoreDB cluster). Closed by the contract.
   */
  peer?: () => EventStore;
  teardown?: () => Promise<void>;
}

function event(type: string, data: Record<string, unknown> = {}, teamId: string | null = 'team_1'): NewEvent {
  return {
    id: randomUUID(),
    type,
    schemaVersion: 1,
    data,
    metadata: { correlationId: 'corr-1', causationId: null, teamId, occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

export interface EventStoreContractOptions {
  /**
   * 'indexed' (the default): teamHeadPosition is the exact position of the team's or a system
   * event's last event. 'head': the adapter has no team index and answers the whole log's head.
   */
  teamHead?: 'indexed' | 'head';
  /** A store on a log nobody has written to (the shared stores' fixtures cannot promise one). */
  emptyLog?: () => Promise<{ store: EventStore; teardown?: () => Promise<void> }>;
}

/** The behaviour every EventStore adapter must share. Run it against each adapter. */
export function eventStoreContract(
  name: string,
  setup: () => Promise<EventStoreFixture>,
  options: EventStoreContractOptions = {},
): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;

    beforeEach(async () => {
      fixture = await setup();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.store.close();
      await fixture.teardown?.();
    });

    it('appends to a new stream with no_stream and numbers revisions from 0', async () => {
      const stream = unique('test-');
      const result = await store.append(stream, [event('A'), event('B')], 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);
      const read = await store.readStream(stream);
      expect(read.map((e) => [e.type, e.revision])).toEqual([
        ['A', 0],
        ['B', 1],
      ]);
      expect(read[1].position).toBeGreaterThan(read[0].position);
      expect(read[1].position).toBe(result.position);
    });

    it('keeps id, type, schema version, data and metadata', async () => {
      const stream = unique('test-');
      const written = event('Thing', { n: 1, nested: { list: [1, 'two'] } });
      await store.append(stream, [written], 'no_stream');
      const [read] = await store.readStream(stream);
      expect(read).toMatchObject({
        id: written.id,
        type: 'Thing',
        schemaVersion: 1,
        data: { n: 1, nested: { list: [1, 'two'] } },
        metadata: written.metadata,
        streamId: stream,
        revision: 0,
      });
    });

    it('rejects no_stream on an existing stream with a typed concurrency error', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('A')], 'no_stream');
      const failure = await store.append(stream, [event('B')], 'no_stream').catch((e) => e);
      expect(failure).toBeInstanceOf(ConcurrencyError);
      expect(failure.streamId).toBe(stream);
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('rejects a wrong exact revision and accepts the right one', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('A'), event('B')], 'no_stream');
      await expect(store.append(stream, [event('C')], 0)).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(store.append(stream, [event('C')], 5)).rejects.toBeInstanceOf(ConcurrencyError);
      const ok = await store.append(stream, [event('C')], 1);
      expect(ok.nextExpectedRevision).toBe(2);
      await expect(store.append(unique('test-'), [event('X')], 0)).rejects.toBeInstanceOf(ConcurrencyError);
    });

    it('appends with any regardless of the current revision', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('A')], 'any');
      await store.append(stream, [event('B')], 'any');
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
    });

    it('lets exactly one of many concurrent appends at the same revision win', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('Opened')], 'no_stream');
      const attempts = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.append(stream, [event('Raced', { i })], 0)),
      );
      const won = attempts.filter((a) => a.status === 'fulfilled');
      const lost = attempts.filter((a) => a.status === 'rejected') as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(9);
      for (const l of lost) expect(l.reason).toBeInstanceOf(ConcurrencyError);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('decides a claim between replicas: of many no_stream appends through two clients exactly one wins, and every loser reads the winner', async () => {
      const peer = fixture.peer?.() ?? store;
      try {
        const claim = unique('claim-');
        const attempts = await Promise.allSettled(
          Array.from({ length: 12 }, (_, i) =>
            (i % 2 === 0 ? store : peer).append(claim, [event('Claimed', { by: i })], 'no_stream'),
          ),
        );
        const won = attempts.flatMap((a, i) => (a.status === 'fulfilled' ? [i] : []));
        expect(won).toHaveLength(1);
        for (const a of attempts)
          if (a.status === 'rejected') expect(a.reason).toBeInstanceOf(ConcurrencyError);
        for (const reader of [store, peer]) {
          const read = await reader.readStream(claim);
          expect(read.map((e) => [e.type, e.data])).toEqual([['Claimed', { by: won[0] }]]);
        }
      } finally {
        if (peer !== store) await peer.close();
      }
    });

    it('reads a stream from the middle and an unknown stream as empty', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('A'), event('B'), event('C'), event('D')], 'no_stream');
      expect((await store.readStream(stream, 2)).map((e) => e.type)).toEqual(['C', 'D']);
      expect(await store.readStream(unique('missing-'))).toEqual([]);
    });

    it('reads a stream except some types: the others in order, as stored, with the head revision of any type', async () => {
      const stream = unique('test-');
      const written = [event('Kept', { n: 0 }), event('Chunk'), event('Kept', { n: 2 }), event('Bulk')];
      await store.append(stream, written, 'no_stream');
      await store.append(stream, [event('Other', { n: 4 }), event('Chunk'), event('Chunk')], 3);
      const read = await store.readStreamExcept(stream, ['Chunk', 'Bulk']);
      expect(read.revision).toBe(6);
      expect(read.events.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['Kept', 0, { n: 0 }],
        ['Kept', 2, { n: 2 }],
        ['Other', 4, { n: 4 }],
      ]);
      const whole = await store.readStream(stream);
      expect(read.events).toEqual([whole[0], whole[2], whole[4]]);
      expect((await store.readStreamExcept(stream, [])).events).toEqual(whole);
    });

    it('reads a stream except some types from a revision, and gives the head even when nothing is left', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('A'), event('Chunk'), event('B'), event('Chunk')], 'no_stream');
      const fromTwo = await store.readStreamExcept(stream, ['Chunk'], 2);
      expect(fromTwo.events.map((e) => [e.type, e.revision])).toEqual([['B', 2]]);
      expect(fromTwo.revision).toBe(3);
      expect(await store.readStreamExcept(stream, ['Chunk'], 3)).toEqual({ events: [], revision: 3 });
      expect(await store.readStreamExcept(stream, ['Chunk'], 9)).toEqual({ events: [], revision: 3 });
      expect(await store.readStreamExcept(stream, ['A', 'B', 'Chunk'])).toEqual({ events: [], revision: 3 });
      expect(await store.readStreamExcept(unique('missing-'), ['Chunk'])).toEqual({
        events: [],
        revision: -1,
      });
    });

    it('takes the revision readStreamExcept gives as the expected revision of the next append', async () => {
      const stream = unique('test-');
      await store.append(stream, [event('A'), event('Chunk')], 'no_stream');
      const { revision } = await store.readStreamExcept(stream, ['Chunk']);
      await store.append(stream, [event('B')], revision);
      await expect(store.append(stream, [event('C')], revision)).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await store.readStreamExcept(stream, ['Chunk'])).events.map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('reads all events in global order after a position', async () => {
      const stream = unique('test-');
      const first = await store.append(stream, [event('A')], 'no_stream');
      await store.append(stream, [event('B'), event('C')], 0);
      const seen: RecordedEvent[] = [];
      for await (const page of store.readAll(first.position - 1, 2)) seen.push(...page);
      const ours = seen.filter((e) => e.streamId === stream);
      expect(ours.map((e) => e.type)).toEqual(['A', 'B', 'C']);
      const positions = seen.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(new Set(positions).size).toBe(positions.length);
      const after: RecordedEvent[] = [];
      for await (const page of store.readAll(first.position)) after.push(...page);
      expect(after.filter((e) => e.streamId === stream).map((e) => e.type)).toEqual(['B', 'C']);
    });

    it('subscribes to all: catches up, reports it, then goes live in order', async () => {
      const stream = unique('test-');
      const start = await store.headPosition();
      for (let i = 0; i < 5; i++)
        await store.append(stream, [event('Old', { i })], i === 0 ? 'no_stream' : i - 1);
      const seen: number[] = [];
      let caughtUpAt = -1;
      const subscription = await store.subscribeToAll(
        async (e) => {
          if (e.streamId === stream) seen.push((e.data as { i: number }).i);
        },
        { afterPosition: start, onCaughtUp: () => (caughtUpAt = seen.length) },
      );
      await eventually(() => caughtUpAt >= 0);
      expect(caughtUpAt).toBe(5);
      for (let i = 5; i < 10; i++) await store.append(stream, [event('New', { i })], i - 1);
      await eventually(() => seen.length === 10);
      await subscription.close();
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('subscribes in pages: every event once, in global order, in non-empty pages, caught up then live', async () => {
      const stream = unique('test-');
      const start = await store.headPosition();
      await store.append(
        stream,
        [0, 1, 2].map((i) => event('Old', { i })),
        'no_stream',
      );
      const seen: number[] = [];
      const positions: number[] = [];
      const pageSizes: number[] = [];
      let caughtUp = false;
      const subscription = await store.subscribeToAllPages(
        async (page) => {
          pageSizes.push(page.length);
          for (const e of page) {
            positions.push(e.position);
            if (e.streamId === stream) seen.push((e.data as { i: number }).i);
          }
        },
        { afterPosition: start, onCaughtUp: () => (caughtUp = true) },
      );
      await eventually(() => caughtUp);
      await store.append(
        stream,
        [3, 4].map((i) => event('New', { i })),
        2,
      );
      await eventually(() => seen.length === 5);
      await subscription.close();
      expect(seen).toEqual([0, 1, 2, 3, 4]);
      expect(pageSizes.every((n) => n > 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(new Set(positions).size).toBe(positions.length);
    });

    // A shared store's other clients may append meanwhile, but not for these fresh teams, and the
    // suite appends no system event but its own: the exact positions hold.
    it("gives a team head: its own and system events count, another team's do not", async () => {
      const [teamA, teamB, quiet] = [unique('tm_a'), unique('tm_b'), unique('tm_quiet')];
      const a1 = await store.append(unique('test-'), [event('A1', {}, teamA)], 'no_stream');
      const b1 = await store.append(
        unique('test-'),
        [event('B1', {}, teamB), event('B2', {}, teamB)],
        'no_stream',
      );
      expect(b1.position).toBeGreaterThan(a1.position);
      if (options.teamHead === 'head') {
        const head = await store.headPosition();
        expect(await store.teamHeadPosition(teamA)).toBeGreaterThanOrEqual(b1.position);
        expect(await store.teamHeadPosition(teamA)).toBeLessThanOrEqual(await store.headPosition());
        expect(await store.teamHeadPosition(quiet)).toBeGreaterThanOrEqual(head);
        return;
      }
      expect(await store.teamHeadPosition(teamA)).toBe(a1.position);
      expect(await store.teamHeadPosition(teamB)).toBe(b1.position);
      const system = await store.append(unique('test-'), [event('Seeded', {}, null)], 'no_stream');
      expect(await store.teamHeadPosition(teamA)).toBe(system.position);
      expect(await store.teamHeadPosition(teamB)).toBe(system.position);
      expect(await store.teamHeadPosition(quiet)).toBe(system.position);
      const a2 = await store.append(unique('test-'), [event('A2', {}, teamA)], 'no_stream');
      await store.append(unique('test-'), [event('B3', {}, teamB)], 'no_stream');
      expect(await store.teamHeadPosition(teamA)).toBe(a2.position);
      expect(await store.teamHeadPosition(quiet)).toBe(system.position);
    });

    if (options.emptyLog) {
      const emptyLog = options.emptyLog;
      it("gives -1 as every team head of an empty log, and a team's first event once written", async () => {
        const empty = await emptyLog();
        try {
          expect(await empty.store.headPosition()).toBe(-1);
          expect(await empty.store.teamHeadPosition('tm_any')).toBe(-1);
          const written = await empty.store.append('test-1', [event('A', {}, 'tm_any')], 'no_stream');
          expect(await empty.store.teamHeadPosition('tm_any')).toBe(written.position);
          // Without a team index, another team's read waits for this write too.
          const other = options.teamHead === 'head' ? written.position : -1;
          expect(await empty.store.teamHeadPosition('tm_other')).toBe(other);
        } finally {
          await empty.store.close();
          await empty.teardown?.();
        }
      });
    }

    it('stops delivering after a subscription is closed', async () => {
      const stream = unique('test-');
      const start = await store.headPosition();
      const seen: string[] = [];
      const subscription = await store.subscribeToAll(
        async (e) => {
          if (e.streamId === stream) seen.push(e.type);
        },
        { afterPosition: start },
      );
      await store.append(stream, [event('A')], 'no_stream');
      await eventually(() => seen.length === 1);
      await subscription.close();
      await store.append(stream, [event('B')], 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual(['A']);
    });
  });
}
