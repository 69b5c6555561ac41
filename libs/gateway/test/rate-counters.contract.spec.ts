import { MongoClient } from 'mongodb';
import {
  AUTH_FAILURE_CACHE_MS,
  MemoryRateCounters,
  MongoRateCounters,
  RATE_COUNTER_COLLECTION,
  type RateCounters,
} from '@analyst/gateway';
import { unique } from '@analyst/testing';

/**
 * The counters every gateway relies on, run against each implementation: the standalone one in
 * memory (saved to its state db), and the distributed one on a MongoDB-protocol server (FerretDB in CI) through
 * two connections, as two gateway replicas would hold.
 */
function contract(
  name: string,
  replicas: () => Promise<[RateCounters, RateCounters]>,
  atomic: () => Promise<boolean>,
) {
  describe(name, () => {
    let a: RateCounters;
    let b: RateCounters;
    beforeAll(async () => {
      [a, b] = await replicas();
    });
    const at = (iso: string) => new Date(iso);

    it('charges each class in its minute and its day and answers the counts after, bytes included', async () => {
      const key = unique('ak_');
      const now = at('2026-11-25T10:15:30Z');
      await a.addBytes(key, 700, now);
      expect(await a.charge(key, ['global', 'comments'], now)).toEqual({
        minute: { global: 1, comments: 1 },
        day: { global: 1, comments: 1 },
        bytes: 700,
      });
      // Answers the charged classes at least (the shared store answers the whole document).
      expect(await b.charge(key, ['global'], now)).toMatchObject({
        minute: { global: 2 },
        day: { global: 2 },
        bytes: 700,
      });
      const later = at('2026-11-25T10:16:01Z');
      const next = await a.charge(key, ['global', 'comments'], later);
      expect(next.minute).toEqual({ global: 1, comments: 1 });
      expect(next.day).toEqual({ global: 3, comments: 2 });
      const read = await b.read(key, later);
      expect(read.minute.global).toBe(1);
      expect(read.day).toMatchObject({ global: 3, comments: 2 });
      expect(read.bytes).toBe(700);
      // The next UTC day starts from nothing.
      const tomorrow = await a.charge(key, ['global'], at('2026-11-26T00:00:00Z'));
      expect(tomorrow).toEqual({ minute: { global: 1 }, day: { global: 1 }, bytes: 0 });
    });

    it('refunds a class in the same windows and leaves the others', async () => {
      const key = unique('ak_');
      const now = at('2026-11-25T11:00:05Z');
      for (let i = 0; i < 3; i++) await a.charge(key, ['global', 'analysis_create'], now);
      await b.refund(key, ['analysis_create'], now);
      const read = await a.read(key, now);
      expect(read.minute).toMatchObject({ global: 3, analysis_create: 2 });
      expect(read.day).toMatchObject({ global: 3, analysis_create: 2 });
    });

    it('adds and removes response bytes per day', async () => {
      const key = unique('ak_');
      const now = at('2026-11-25T12:00:00Z');
      expect(await a.addBytes(key, 1_000, now)).toBe(1_000);
      expect(await b.addBytes(key, 24, now)).toBe(1_024);
      expect(await a.addBytes(key, -24, now)).toBe(1_000);
      expect(await b.addBytes(key, 0, now)).toBe(1_000);
      expect((await b.read(key, at('2026-11-26T00:00:01Z'))).bytes).toBe(0);
    });

    it('stays exact when two replicas charge one key at once: every count from 1 to N is answered once', async () => {
      if (!(await atomic())) {
        // FerretDB v1 on SQLite reads and writes a findAndModify in two steps, so concurrent
        // increments from two connections can be lost (README: "Rate counters on FerretDB").
        console.warn(`skipped: ${name} does not promise atomic increments`);
        return;
      }
      const key = unique('ak_');
      const now = at('2026-11-25T13:30:00Z');
      const n = 60;
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) => (i % 2 ? a : b).charge(key, ['global', 'comments'], now)),
      );
      expect(answers.map((r) => r.minute.comments).sort((x, y) => x! - y!)).toEqual(
        Array.from({ length: n }, (_, i) => i + 1),
      );
      expect(answers.map((r) => r.day.global).sort((x, y) => x! - y!)).toEqual(
        Array.from({ length: n }, (_, i) => i + 1),
      );
      expect(await a.read(key, now)).toMatchObject({
        minute: { global: n, comments: n },
        day: { global: n, comments: n },
      });
    });

    it('counts failed authentications per address and minute; another replica sees them within the cache bound', async () => {
      const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
      const now = new Date();
      expect(await b.authFailures(ip, now)).toBe(0);
      for (let i = 0; i < 3; i++) await a.recordAuthFailure(ip, now);
      expect(await a.authFailures(ip, now)).toBe(3);
      await new Promise((r) => setTimeout(r, AUTH_FAILURE_CACHE_MS + 50));
      expect(await b.authFailures(ip, now)).toBe(3);
      expect(await b.authFailures(ip, new Date(now.getTime() + 60_000))).toBe(0);
    });
  });
}

contract(
  'MemoryRateCounters (standalone)',
  async () => {
    // One process holds the memory counters: both "replicas" are the same instance.
    const counters = new MemoryRateCounters();
    return [counters, counters];
  },
  async () => true,
);

const url = process.env.MONGO_URL;
if (url) {
  const clients: MongoClient[] = [];
  const database = unique('analyst_counters_');
  afterAll(async () => {
    await clients[0]?.db(database).dropDatabase();
    await Promise.all(clients.map((c) => c.close()));
  });
  const replica = async () => {
    const client = await new MongoClient(url).connect();
    clients.push(client);
    return MongoRateCounters.connect(client.db(database));
  };
  // MongoDB applies an update to one document atomically; FerretDB (it says so in buildInfo) does not.
  const atomic = async () => {
    await replica();
    const info = await clients[0].db('admin').command({ buildInfo: 1 });
    return info.ferretdbVersion === undefined;
  };
  contract(`MongoRateCounters on ${url}`, async () => [await replica(), await replica()], atomic);

  it('MongoRateCounters: one document per key and day; sweep deletes those past their window', async () => {
    const counters = await replica();
    const key = unique('ak_');
    const old = new Date('2026-11-20T08:00:00Z');
    await counters.charge(key, ['global'], old);
    await counters.recordAuthFailure('192.0.2.9', old);
    const collection = clients[clients.length - 1].db(database).collection(RATE_COUNTER_COLLECTION);
    expect(await collection.countDocuments({ _id: { $regex: `^${key}:` } } as never)).toBe(1);
    // Kept through the next day (a late refund or read), gone after it.
    expect(await counters.sweep(new Date('2026-11-21T23:59:00Z'))).toBeGreaterThanOrEqual(1); // the address's minute
    expect(await collection.countDocuments({ _id: { $regex: `^${key}:` } } as never)).toBe(1);
    expect(await counters.sweep(new Date('2026-11-22T00:00:01Z'))).toBeGreaterThanOrEqual(1);
    expect(await collection.countDocuments({ _id: { $regex: `^${key}:` } } as never)).toBe(0);
    expect(await counters.read(key, old)).toEqual({ minute: {}, day: {}, bytes: 0 });
  });

  describe("MongoRateCounters: one replica's concurrent changes to a key go as one round trip per batch", () => {
    let counters: MongoRateCounters;
    let roundTrips: () => number;
    beforeAll(async () => {
      const client = await new MongoClient(url, { monitorCommands: true }).connect();
      clients.push(client);
      let findAndModify = 0;
      client.on('commandStarted', (e) => {
        if (e.commandName === 'findAndModify') findAndModify++;
      });
      roundTrips = () => findAndModify;
      counters = await MongoRateCounters.connect(client.db(database));
    });

    it('answers every count from 1 to N once, on every store (FerretDB included), in two round trips', async () => {
      const key = unique('ak_');
      const now = new Date('2026-11-25T14:00:10Z');
      const before = roundTrips();
      const n = 60;
      const answers = await Promise.all(
        Array.from({ length: n }, () => counters.charge(key, ['global', 'comments'], now)),
      );
      // The first leaves alone; the other 59 arrive while it is out and go together.
      expect(roundTrips() - before).toBe(2);
      // Arrival order is the order the counts are handed out in.
      expect(answers.map((r) => r.minute.comments)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(answers.map((r) => r.day.global)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(await counters.read(key, now)).toMatchObject({
        minute: { global: n, comments: n },
        day: { global: n, comments: n },
      });
    });

    it('answers a mixed batch (charges of other classes, a refund, bytes) as if applied one at a time', async () => {
      const key = unique('ak_');
      const now = new Date('2026-11-25T14:05:00Z');
      await counters.addBytes(key, 500, now);
      const first = counters.charge(key, ['global'], now); // leaves alone
      const batch = [
        counters.charge(key, ['global', 'comments'], now),
        counters.refund(key, ['comments'], now).then(() => null),
        counters.addBytes(key, 250, now),
        counters.charge(key, ['global', 'analysis_create'], now),
        counters.charge(key, ['global', 'comments'], now),
      ];
      expect(await first).toMatchObject({ minute: { global: 1 }, day: { global: 1 }, bytes: 500 });
      const [c1, refunded, bytes, c2, c3] = await Promise.all(batch);
      // A class a later change brought in reads 0 (callers take a missing class as 0 too).
      expect(c1).toEqual({
        minute: { global: 2, comments: 1, analysis_create: 0 },
        day: { global: 2, comments: 1, analysis_create: 0 },
        bytes: 500,
      });
      expect(refunded).toBeNull();
      expect(bytes).toBe(750);
      expect(c2).toEqual({
        minute: { global: 3, comments: 0, analysis_create: 1 },
        day: { global: 3, comments: 0, analysis_create: 1 },
        bytes: 750,
      });
      expect(c3).toEqual({
        minute: { global: 4, comments: 1, analysis_create: 1 },
        day: { global: 4, comments: 1, analysis_create: 1 },
        bytes: 750,
      });
      expect(await counters.read(key, now)).toEqual({
        minute: { global: 4, comments: 1, analysis_create: 1 },
        day: { global: 4, comments: 1, analysis_create: 1 },
        bytes: 750,
      });
    });

    it("counts each change in its own minute when a batch spans a minute's turn", async () => {
      const key = unique('ak_');
      const minute = new Date('2026-11-25T14:10:59Z');
      const next = new Date('2026-11-25T14:11:00Z');
      const before = roundTrips();
      const [a, b, c, d] = await Promise.all([
        counters.charge(key, ['global'], minute),
        counters.charge(key, ['global'], minute),
        counters.charge(key, ['global'], next),
        counters.charge(key, ['global', 'comments'], next),
      ]);
      expect(roundTrips() - before).toBe(2);
      expect([a, b, c, d].map((r) => r.minute.global)).toEqual([1, 2, 1, 2]);
      expect([a, b, c, d].map((r) => r.day.global)).toEqual([1, 2, 3, 4]);
      expect(d.minute.comments).toBe(1);
      expect(await counters.read(key, next)).toEqual({
        minute: { global: 2, comments: 1 },
        day: { global: 4, comments: 1 },
        bytes: 0,
      });
      // The next batch, a minute on, clears the minutes before its own.
      const later = new Date('2026-11-25T14:12:00Z');
      await counters.charge(key, ['global'], later);
      expect((await counters.read(key, minute)).minute).toEqual({});
      expect((await counters.read(key, next)).minute).toEqual({});
    });
  });
} else {
  it.skip('MongoRateCounters: skipped, no MONGO_URL', () => undefined);
}
