import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoReadStore } from '@analyst/adapter-mongo';
import { FixedClock, MemoryReadStore, type Clock, type ReadStore } from '@analyst/eventsourcing';
import {
  InMemoryWebhookEndpoints,
  WebhookDeliveryEngine,
  webhookEventId,
  webhookNetworkPolicyFromEnv,
  type DeliveryStore,
  type PartitionClaims,
  type TickReport,
} from '@analyst/webhooks';
import { ArrayLog, LoopbackReceiver, registerEndpoint } from '../../webhooks/test/delivery-harness';
import { NotifierStateDb } from '../src/delivery/notifier-state-db';
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

const POLICY = webhookNetworkPolicyFromEnv({ ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
const TEAM = 'tm_1';
const START = '2026-03-10T12:00:00.000Z';

/** One replica's view of the shared stores: its own objects (connections) over the same data. */
interface Replica {
  deliveries: DeliveryStore;
  partitions: PartitionClaims;
}

interface Backing {
  replica(clock: Clock): Promise<Replica>;
  close(): Promise<void>;
}

const onReadStore = (store: ReadStore, close: () => Promise<void> = async () => undefined): Backing => ({
  replica: async (clock) => ({
    deliveries: await ReadStoreDeliveryStore.open(store),
    partitions: new ReadStorePartitionClaims(store, clock, 8),
  }),
  close,
});

const backings: Array<[string, () => Promise<Backing>]> = [
  ['the read store (MemoryReadStore)', async () => onReadStore(new MemoryReadStore())],
  [
    'the standalone SQLite file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'notifier-engine-'));
      const state = NotifierStateDb.open(dir);
      return {
        replica: async (clock) => ({
          deliveries: new SqliteDeliveryStore(state),
          partitions: new SqlitePartitionClaims(state, clock, 8),
        }),
        close: async () => {
          state.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];
const mongoUrl = process.env.MONGO_URL;
if (mongoUrl)
  backings.push([
    `the read store (MongoDB protocol at ${mongoUrl})`,
    async () => {
      const store = await MongoReadStore.connect(mongoUrl, 'analyst_notifier_engine');
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
      return onReadStore(store, async () => {
        await clear();
        await store.close();
      });
    },
  ]);

describe.each(backings)('the delivery engine on %s', (_name, open) => {
  let backing: Backing;
  let receiver: LoopbackReceiver;
  beforeEach(async () => {
    backing = await open();
    receiver = new LoopbackReceiver(() => 200);
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
    await backing.close();
  });

  it('two replicas split the partitions and deliver each (endpoint, event) exactly once', async () => {
    const clock = new FixedClock(START);
    const log = new ArrayLog();
    const endpoints = new InMemoryWebhookEndpoints();
    const endpointIds = Array.from({ length: 8 }, (_, i) => `we_0000000${i}`);
    for (const endpointId of endpointIds)
      await registerEndpoint(endpoints, POLICY, {
        teamId: TEAM,
        endpointId,
        url: receiver.url(`/hook/${endpointId}`),
        at: START,
      });
    const engine = async (holder: string) => {
      const { deliveries, partitions } = await backing.replica(clock);
      await partitions.initialize(-1);
      return new WebhookDeliveryEngine({
        holder,
        log,
        endpoints,
        deliveries,
        partitions,
        clock,
        policy: POLICY,
        timeoutMs: 5_000,
      });
    };
    const a = await engine('notifier-a');
    const b = await engine('notifier-b');
    for (let round = 0; round < 2; round++) await Promise.all([a.tick(), b.tick()]);
    const eventIds = Array.from({ length: 12 }, (_, i) => {
      clock.advance(100);
      return webhookEventId(log.postScored(TEAM, `po_${i}`, clock.now().toISOString()).id);
    });

    const reports: TickReport[][] = [[], []];
    for (let round = 0; round < 3; round++) {
      clock.advance(1000);
      const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
      reports[0].push(ra);
      reports[1].push(rb);
    }

    const [heldA, heldB] = reports.map((r) => r[r.length - 1].partitions);
    expect(heldA).toHaveLength(4);
    expect(heldB).toHaveLength(4);
    expect(heldA.filter((p) => heldB.includes(p))).toEqual([]);
    const deliveredBy = reports.map((r) => r.reduce((n, t) => n + t.attempts.delivered, 0));
    expect(deliveredBy[0]).toBeGreaterThan(0);
    expect(deliveredBy[1]).toBeGreaterThan(0);
    expect(deliveredBy[0] + deliveredBy[1]).toBe(96);
    const pairs = receiver.received.map((r) => `${r.path} ${r.eventId}`);
    expect(pairs).toHaveLength(96);
    expect(new Set(pairs)).toEqual(
      new Set(endpointIds.flatMap((ep) => eventIds.map((ev) => `/hook/${ep} ${ev}`))),
    );
    // Each replica's lowest checkpoint is the last event's position: nothing left to create.
    expect(reports.map((r) => r[r.length - 1].lowestCheckpoint)).toEqual([11, 11]);
  });
});
