import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EventRelay,
  FixedClock,
  InProcessBus,
  MemoryReadStore,
  MongoReadStore,
  RELAY_GENERATION_HEADER,
  ReadStoreCheckpointStore,
  RelayLease,
  SqliteEventStore,
  eventTopic,
  loadConfig,
  type BusMessage,
  type NewEvent,
  type ReadStore,
} from '@analyst/platform';
import { eventually, unique } from '@analyst/testing';

const stores: [string, () => Promise<ReadStore>][] = [['in-memory', async () => new MemoryReadStore()]];
if (process.env.MONGO_URL) {
  stores.push([
    'MongoDB',
    () =>
      MongoReadStore.connect(
        process.env.MONGO_URL!,
        unique('analyst_lease_'),
        (process.env.MONGO_CONDITIONAL_WRITES as 'client') ?? 'server',
      ),
  ]);
} else {
  console.log('skipped: relay lease on MongoDB needs MONGO_URL (set -a; . deploy/local/.stack/env; set +a)');
}

function event(type: string): NewEvent {
  return {
    id: randomUUID(),
    type,
    schemaVersion: 1,
    data: {},
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

describe.each(stores)('relay lease on %s', (_name, open) => {
  let store: ReadStore;
  beforeEach(async () => (store = await open()));
  afterEach(async () => {
    if (store instanceof MongoReadStore) await store.database.dropDatabase();
    await store.close();
  });

  it('lets one holder in, keeps the other waiting, and hands over when the holder stops renewing', async () => {
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const a = new RelayLease(store, clock, 'relay-a', 'relay', 10_000);
    const b = new RelayLease(store, clock, 'relay-b', 'relay', 10_000);
    expect(await a.tryAcquire()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);
    clock.advance(5_000);
    expect(await a.tryAcquire()).toBe(true); // renewal
    clock.advance(9_000);
    expect(await b.tryAcquire()).toBe(false); // renewed 9 s ago, still live
    clock.advance(2_000);
    expect(await b.tryAcquire()).toBe(true); // a went quiet for 11 s
    expect(await a.tryAcquire()).toBe(false);
    await b.release();
    expect(await a.tryAcquire()).toBe(true);
  });

  it('raises the generation on every takeover, never on a renewal, and keeps it across a release', async () => {
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const a = new RelayLease(store, clock, 'relay-a', 'relay', 6_000);
    const b = new RelayLease(store, clock, 'relay-b', 'relay', 6_000);
    expect(await a.tryAcquire()).toBe(true);
    expect(a.generation).toBe(1);
    clock.advance(2_000);
    expect(await a.tryAcquire()).toBe(true);
    expect(a.generation).toBe(1);
    clock.advance(6_001);
    expect(await b.tryAcquire()).toBe(true);
    expect([a.generation, b.generation]).toEqual([1, 2]);
    await b.release();
    expect(b.generation).toBeNull();
    expect(await a.tryAcquire()).toBe(true);
    expect(a.generation).toBe(3);
    expect((await a.current())!.generation).toBe(3);
  });

  it('fences a paused holder: once its lease lapsed it neither renews nor passes the check, even before anyone took over', async () => {
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const a = new RelayLease(store, clock, 'relay-a', 'relay', 6_000);
    expect(await a.tryAcquire()).toBe(true);
    expect(await a.stillHeld(1)).toBe(true);
    clock.advance(6_000); // paused for a whole TTL: a standby may be taking over right now
    expect(await a.stillHeld(1)).toBe(false);
    // It competes for a new generation instead of resuming the old one.
    expect(await a.tryAcquire()).toBe(true);
    expect(a.generation).toBe(2);
    expect(await a.stillHeld(1)).toBe(false);
    expect(await a.stillHeld(2)).toBe(true);
  });

  it('fences a holder whose generation moved: its check fails and its checkpoint writes reach nothing the new holder reads', async () => {
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const a = new RelayLease(store, clock, 'relay-a', 'relay', 6_000);
    const b = new RelayLease(store, clock, 'relay-b', 'relay', 6_000);
    expect(await a.tryAcquire()).toBe(true);
    await a.checkpoints(1).save('relay', 10);
    clock.advance(6_001);
    expect(await b.tryAcquire()).toBe(true);
    expect(await b.checkpoints(2).load('relay')).toBe(10); // carried over from generation 1
    // a wakes up, its clock unaware of the pause (as if it had renewed just before): still fenced by the generation.
    (a as unknown as { held: { expiresAt: number } }).held.expiresAt = clock.now().getTime() + 6_000;
    expect(await a.stillHeld(1)).toBe(false);
    await a.checkpoints(1).save('relay', 99);
    expect(await b.checkpoints(2).load('relay')).toBe(10);
    await b.checkpoints(2).save('relay', 12);
    expect(await b.checkpoints(2).load('relay')).toBe(12);
  });

  it('lets exactly one of several standbys win a lapsed lease', async () => {
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const holder = new RelayLease(store, clock, 'relay-0', 'relay', 6_000);
    expect(await holder.tryAcquire()).toBe(true);
    clock.advance(7_000);
    const standbys = Array.from(
      { length: 4 },
      (_, i) => new RelayLease(store, clock, `relay-${i + 1}`, 'relay', 6_000),
    );
    const won = await Promise.all(standbys.map((s) => s.tryAcquire()));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(standbys.filter((s) => s.generation === 2)).toHaveLength(1);
  });

  it('takes over within TTL + one check interval of the last renewal, with the default timing', async () => {
    const config = loadConfig({});
    const ttl = config.ANALYST_RELAY_LEASE_TTL_MS;
    const every = config.ANALYST_RELAY_LEASE_RENEW_MS;
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const holder = new RelayLease(store, clock, 'relay-a', 'relay', ttl);
    const standby = new RelayLease(store, clock, 'relay-b', 'relay', ttl);
    expect(await holder.tryAcquire()).toBe(true);
    // The holder renews on its timer, then dies right after a renewal (the worst case) at an offset from the standby's checks.
    clock.advance(every);
    expect(await holder.tryAcquire()).toBe(true);
    const died = clock.now().getTime();
    clock.advance(every / 2); // the standby's timer is out of phase with the holder's
    let tookOverAt: number | null = null;
    for (let i = 0; i < 20 && tookOverAt === null; i++) {
      if (await standby.tryAcquire()) tookOverAt = clock.now().getTime();
      else clock.advance(every);
    }
    expect(tookOverAt).not.toBeNull();
    expect(tookOverAt! - died).toBeGreaterThanOrEqual(ttl); // never while the lease was live
    expect(tookOverAt! - died).toBeLessThanOrEqual(ttl + every); // 8 s with the defaults
    expect(ttl + every).toBe(8_000);
  });

  it('starts its first generation from the checkpoint saved before the lease held it', async () => {
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const legacy = new ReadStoreCheckpointStore(store);
    await legacy.save('relay', 41);
    const a = new RelayLease(store, clock, 'relay-a', 'relay', 6_000, legacy);
    expect(await a.tryAcquire()).toBe(true);
    expect(await a.checkpoints(1).load('relay')).toBe(41);
  });

  describe('with the event relay', () => {
    let dir: string;
    let events: SqliteEventStore;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'analyst-fence-'));
      events = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
    });
    afterEach(async () => {
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    });

    function relayFor(lease: RelayLease, bus: InProcessBus, onFenced?: () => void): EventRelay {
      const generation = lease.generation!;
      return new EventRelay(events, bus, lease.checkpoints(generation), {
        name: 'relay',
        checkpointEvery: 1,
        fence: { generation, stillHeld: () => lease.stillHeld(generation) },
        onFenced,
      });
    }

    it('carries the generation on every message; a stale holder publishes nothing and moves no checkpoint; the new one resumes', async () => {
      const clock = new FixedClock('2026-05-01T00:00:00.000Z');
      const bus = new InProcessBus({ awaitHandled: true });
      const seen: BusMessage[] = [];
      await bus.subscribe('pm', [eventTopic('ledger')], async (m) => void seen.push(m));
      const a = new RelayLease(store, clock, 'relay-a', 'relay', 6_000);
      expect(await a.tryAcquire()).toBe(true);
      let fenced = 0;
      const relayA = relayFor(a, bus, () => (fenced += 1));
      await relayA.start();
      const first = await events.append('ledger-team_1', [event('CreditsGranted')], 'no_stream');
      await eventually(async () => (await a.checkpoints(1).load('relay')) === first.position);
      expect(seen.map((m) => [m.type, m.headers[RELAY_GENERATION_HEADER]])).toEqual([
        ['CreditsGranted', '1'],
      ]);

      // a is paused past its TTL; b takes over generation 2.
      clock.advance(6_001);
      const b = new RelayLease(store, clock, 'relay-b', 'relay', 6_000);
      expect(await b.tryAcquire()).toBe(true);
      // a wakes up with events to publish: its batch check fails, so it publishes nothing.
      await events.append('ledger-team_1', [event('CreditsReserved')], 0);
      await eventually(() => fenced === 1);
      expect(relayA.isFenced).toBe(true);
      expect(seen).toHaveLength(1);
      await relayA.stop();
      expect(await b.checkpoints(2).load('relay')).toBe(first.position);

      const relayB = relayFor(b, bus);
      await relayB.start();
      await eventually(() => seen.length === 2);
      expect(seen.map((m) => [m.type, m.headers[RELAY_GENERATION_HEADER]])).toEqual([
        ['CreditsGranted', '1'],
        ['CreditsReserved', '2'],
      ]);
      await relayB.stop();
      expect(await b.checkpoints(2).load('relay')).toBe(first.position + 1);
    });

    it('a holder whose renewal failed (generation moved) saves no checkpoint for what it already published', async () => {
      const clock = new FixedClock('2026-05-01T00:00:00.000Z');
      const bus = new InProcessBus({ awaitHandled: true });
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await bus.subscribe('pm', [eventTopic('post')], async () => gate);
      const a = new RelayLease(store, clock, 'relay-a', 'relay', 6_000);
      expect(await a.tryAcquire()).toBe(true);
      const relayA = relayFor(a, bus);
      await relayA.start();
      await events.append('post-1', [event('PostCreated')], 'no_stream');
      await eventually(
        () => relayA.position === -1 && (relayA as unknown as { window: unknown[] }).window.length === 1,
      );
      // While the publish is in flight the lease moves on.
      clock.advance(6_001);
      const b = new RelayLease(store, clock, 'relay-b', 'relay', 6_000);
      expect(await b.tryAcquire()).toBe(true);
      expect(await a.tryAcquire()).toBe(false);
      release();
      await relayA.stop();
      expect(relayA.isFenced).toBe(true);
      expect(await b.checkpoints(2).load('relay')).toBe(-1);
      expect((await b.current())!.position).toBe(-1);
    });
  });
});
