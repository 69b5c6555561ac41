import { MongoClient } from 'mongodb';
import { MongoLimiterStore, RATE_LIMIT_COLLECTION } from '@analyst/gateway';
import { unique } from '@analyst/testing';

const url = process.env.MONGO_URL;

(url ? describe : describe.skip)(`RateLimiterMongo store on ${url ?? 'no MONGO_URL (skipped)'}`, () => {
  const clients: MongoClient[] = [];
  const database = unique('analyst_limits_');

  async function replica(): Promise<MongoLimiterStore> {
    // Each "gateway replica" has its own connection, as separate processes would.
    const client = await new MongoClient(url!).connect();
    clients.push(client);
    return MongoLimiterStore.connect(client.db(database));
  }

  afterAll(async () => {
    await clients[0]?.db(database).dropDatabase();
    await Promise.all(clients.map((c) => c.close()));
  });

  it('shares counters between two limiter instances, as between two gateway replicas', async () => {
    const a = (await replica()).create({ keyPrefix: 'minute', durationSeconds: 60 });
    const b = (await replica()).create({ keyPrefix: 'minute', durationSeconds: 60 });
    const key = unique('ak_');
    for (let i = 0; i < 3; i++) await a.consume(key, 1);
    for (let i = 0; i < 2; i++) await b.consume(key, 1);
    const seenByA = await a.get(key);
    const seenByB = await b.get(key);
    expect(seenByA?.consumedPoints).toBe(5);
    expect(seenByB?.consumedPoints).toBe(5);
    const other = await b.get(unique('ak_'));
    expect(other).toBeNull();
  });

  it('creates its own unique index and sweeps expired counters', async () => {
    const store = await replica();
    const limiter = store.create({ keyPrefix: 'sweep', durationSeconds: 1 });
    await limiter.consume(unique('k_'), 1);
    const indexes = await clients[clients.length - 1]
      .db(database)
      .collection(RATE_LIMIT_COLLECTION)
      .indexes();
    expect(indexes.find((i) => i.name === 'rate_limits_key')).toMatchObject({
      unique: true,
      key: { key: 1 },
    });
    expect(await store.sweep(new Date(Date.now() + 5_000))).toBeGreaterThanOrEqual(1);
  });
});
