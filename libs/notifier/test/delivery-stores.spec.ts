import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoReadStore } from '@analyst/adapter-mongo';
import { FixedClock, MemoryReadStore, type ReadStore } from '@analyst/eventsourcing';
import { InMemoryDeliveryStore, InMemoryPartitionClaims, type PartitionClaims } from '@analyst/webhooks';
import {
  deliveryStoresContract,
  type DeliveryStoresFixture,
} from '../../webhooks/test/delivery-stores.contract';
import { NotifierStateDb } from '../src/delivery/notifier-state-db';
import { openNotifierStores } from '../src/delivery/notifier-stores';
import {
  DELIVERIES_COLLECTION,
  ENDPOINT_HEALTH_COLLECTION,
  ReadStoreDeliveryStore,
} from '../src/delivery/read-store-delivery-store';
import {
  PARTITIONS_COLLECTION,
  REPLICAS_COLLECTION,
  ReadStorePartitionClaims,
} from '../src/delivery/read-store-partition-claims';
import { SqliteDeliveryStore } from '../src/delivery/sqlite-delivery-store';
import { SqlitePartitionClaims } from '../src/delivery/sqlite-partition-claims';

deliveryStoresContract('in memory', async () => {
  let claims: PartitionClaims | null = null;
  return {
    deliveries: new InMemoryDeliveryStore(),
    // One process's memory: every replica in it shares the one instance.
    partitions: (clock, count) => (claims ??= new InMemoryPartitionClaims(count, clock)),
  };
});

/** The read store's implementations over `store`, each replica's claims a new object on the same collections. */
async function onReadStore(store: ReadStore): Promise<DeliveryStoresFixture> {
  return {
    deliveries: await ReadStoreDeliveryStore.open(store),
    partitions: (clock, count) => new ReadStorePartitionClaims(store, clock, count),
  };
}

deliveryStoresContract('on the read store (MemoryReadStore)', () => onReadStore(new MemoryReadStore()));

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  /** On a database of its own, emptied before and after; `writes` as MONGO_CONDITIONAL_WRITES says. */
  const onMongo = (writes: 'server' | 'client') => async (): Promise<DeliveryStoresFixture> => {
    const store = await MongoReadStore.connect(mongoUrl, 'analyst_notifier_contract', writes);
    const clear = async () => {
      for (const name of [
        DELIVERIES_COLLECTION,
        ENDPOINT_HEALTH_COLLECTION,
        PARTITIONS_COLLECTION,
        REPLICAS_COLLECTION,
      ])
        await store.collection(name).deleteMany({});
    };
    await clear();
    return {
      ...(await onReadStore(store)),
      atomicConditionalWrites: writes === 'server',
      teardown: async () => {
        await clear();
        await store.close();
      },
    };
  };
  deliveryStoresContract(`on the read store (MongoDB protocol at ${mongoUrl})`, onMongo('server'));
  deliveryStoresContract(
    `on the read store (MongoDB protocol at ${mongoUrl}, conditional writes checked client-side)`,
    onMongo('client'),
  );
} else {
  describe('delivery stores contract: on the read store (MongoDB)', () => {
    it.skip('skipped: no MONGO_URL (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
}

deliveryStoresContract('in the standalone SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'notifier-state-'));
  const state = NotifierStateDb.open(dir);
  return {
    deliveries: new SqliteDeliveryStore(state),
    partitions: (clock, count) => new SqlitePartitionClaims(state, clock, count),
    teardown: async () => {
      state.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('the notifier stores by topology', () => {
  const clock = new FixedClock('2026-03-10T12:00:00.000Z');

  it('distributed: on the read store, shared by the replicas (partitions created by one are held by another)', async () => {
    const store = new MemoryReadStore();
    const one = await openNotifierStores(
      { ANALYST_MODE: 'distributed', ANALYST_DATA_DIR: '/nonexistent' },
      store,
      clock,
    );
    const two = await openNotifierStores(
      { ANALYST_MODE: 'distributed', ANALYST_DATA_DIR: '/nonexistent' },
      store,
      clock,
    );
    expect(one.deliveries).toBeInstanceOf(ReadStoreDeliveryStore);
    expect(one.partitions).toBeInstanceOf(ReadStorePartitionClaims);
    await one.partitions.initialize(7);
    expect((await two.partitions.refresh('b')).map((h) => h.checkpoint)).toEqual(Array(16).fill(7));
    expect(await store.listCollections()).toEqual(
      expect.arrayContaining([PARTITIONS_COLLECTION, REPLICAS_COLLECTION]),
    );
  });

  it('standalone: notifier-state.db in the data dir, kept across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notifier-state-'));
    try {
      const first = await openNotifierStores(
        { ANALYST_MODE: 'standalone', ANALYST_DATA_DIR: dir },
        new MemoryReadStore(),
        clock,
      );
      expect(first.deliveries).toBeInstanceOf(SqliteDeliveryStore);
      await first.partitions.initialize(41);
      first.close();
      expect(existsSync(join(dir, 'notifier-state.db'))).toBe(true);
      const again = await openNotifierStores(
        { ANALYST_MODE: 'standalone', ANALYST_DATA_DIR: dir },
        new MemoryReadStore(),
        clock,
      );
      await again.partitions.initialize(99);
      expect((await again.partitions.refresh('a')).map((h) => h.checkpoint)).toEqual(Array(16).fill(41));
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
