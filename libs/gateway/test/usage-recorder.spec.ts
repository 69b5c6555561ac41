import {
  KEY_USAGE_COLLECTION,
  ReadStoreUsageStore,
  UsageNotWritten,
  UsageRecorder,
  type KeyUsageDoc,
  type UsageStore,
} from '@analyst/gateway';
import { DuplicateKeyError, MemoryReadStore, type Doc, type ReadCollection } from '@analyst/platform';

/** A usage store that sums what it is given and fails the way it is told to, once per queued failure. */
class FlakyUsageStore implements UsageStore {
  readonly totals = new Map<string, { requests: number; bytes: number }>();
  readonly failures: ((batch: readonly KeyUsageDoc[]) => Error)[] = [];

  async add(batch: readonly KeyUsageDoc[]): Promise<void> {
    const fail = this.failures.shift();
    const error = fail?.(batch);
    const skipped = error instanceof UsageNotWritten ? new Set(error.unwritten.map((u) => u._id)) : null;
    if (error && !skipped) throw error;
    for (const u of batch) {
      if (skipped?.has(u._id)) continue;
      const t = this.totals.get(u._id) ?? { requests: 0, bytes: 0 };
      this.totals.set(u._id, { requests: t.requests + u.requests, bytes: t.bytes + u.bytes });
    }
    if (error) throw error;
  }

  async forTeam(): Promise<KeyUsageDoc[]> {
    return [];
  }
}

describe('UsageRecorder: a failed write delays usage, never loses it or takes the process down', () => {
  it('keeps the entries a store reports unwritten and writes them, with newer counts, at the next flush', async () => {
    const store = new FlakyUsageStore();
    const recorder = new UsageRecorder(store);
    recorder.record('ak_a', 'tm_1', '2026-11-25', 1, 100);
    recorder.record('ak_b', 'tm_1', '2026-11-25', 2, 300);
    store.failures.push((batch) => new UsageNotWritten([batch[1]], new Error('duplicate key')));
    await expect(recorder.flush()).resolves.toBeUndefined();
    expect(store.totals.get('ak_a:2026-11-25')).toEqual({ requests: 1, bytes: 100 });
    expect(store.totals.get('ak_b:2026-11-25')).toBeUndefined();
    recorder.record('ak_b', 'tm_1', '2026-11-25', 1, 50);
    await recorder.flush();
    expect(store.totals.get('ak_a:2026-11-25')).toEqual({ requests: 1, bytes: 100 });
    expect(store.totals.get('ak_b:2026-11-25')).toEqual({ requests: 3, bytes: 350 });
  });

  it('keeps the whole batch on an unknown failure, and later flushes still run', async () => {
    const store = new FlakyUsageStore();
    const recorder = new UsageRecorder(store);
    recorder.record('ak_a', 'tm_1', '2026-11-25', 4, 400);
    store.failures.push(
      () => new Error('connection reset'),
      () => new Error('connection reset'),
    );
    await recorder.flush();
    await recorder.flush();
    expect(store.totals.size).toBe(0);
    await recorder.flush();
    expect(store.totals.get('ak_a:2026-11-25')).toEqual({ requests: 4, bytes: 400 });
  });
});

describe('ReadStoreUsageStore: two replicas upserting the same new key-day', () => {
  it('retries an upsert that lost the insert race (duplicate key) and increments the winner’s document', async () => {
    const memory = new MemoryReadStore();
    const real = memory.collection<KeyUsageDoc>(KEY_USAGE_COLLECTION);
    let raced = 0;
    // The first upsert behaves as the loser of a race: the other replica's insert lands, then E11000.
    class RacingStore extends MemoryReadStore {
      override collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
        const collection = memory.collection<T>(name);
        return new Proxy(collection, {
          get(target, prop, receiver) {
            if (prop !== 'updateOne' || raced > 0) return Reflect.get(target, prop, receiver);
            return async () => {
              raced++;
              await real.updateOne(
                { _id: 'ak_r:2026-11-25' },
                {
                  $setOnInsert: { keyId: 'ak_r', teamId: 'tm_1', day: '2026-11-25' },
                  $inc: { requests: 5, bytes: 500 },
                },
                { upsert: true },
              );
              throw new DuplicateKeyError(KEY_USAGE_COLLECTION, '_id');
            };
          },
        });
      }
    }
    const racing = new RacingStore();
    const store = new ReadStoreUsageStore(racing);
    await store.add([
      { _id: 'ak_r:2026-11-25', keyId: 'ak_r', teamId: 'tm_1', day: '2026-11-25', requests: 2, bytes: 20 },
    ]);
    expect(raced).toBe(1);
    expect(await real.findOne({ _id: 'ak_r:2026-11-25' })).toMatchObject({
      requests: 7,
      bytes: 520,
      teamId: 'tm_1',
    });
  });
});
