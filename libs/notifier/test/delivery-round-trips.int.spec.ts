import { FixedClock, MemoryReadStore, type ReadStore } from '@analyst/eventsourcing';
import {
  InMemoryWebhookEndpoints,
  WebhookDeliveryEngine,
  webhookNetworkPolicyFromEnv,
} from '@analyst/webhooks';
import { ArrayLog, LoopbackReceiver, registerEndpoint } from '../../webhooks/test/delivery-harness';
import { ReadStoreDeliveryStore } from '../src/delivery/read-store-delivery-store';
import { ReadStorePartitionClaims } from '../src/delivery/read-store-partition-claims';

const POLICY = webhookNetworkPolicyFromEnv({ ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
const TEAM = 'tm_1';
const START = '2026-03-10T12:00:00.000Z';

/** A read store that counts every collection call by `collection.method`: each is a round trip to MongoDB. */
function countingStore(inner: ReadStore, calls: Map<string, number>): ReadStore {
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  return {
    collection: (name: string) =>
      new Proxy(inner.collection(name), {
        get(target, method: string) {
          const value: unknown = Reflect.get(target, method);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            count(`${name}.${method}`);
            return value.apply(target, args);
          };
        },
      }),
    listCollections: () => inner.listCollections(),
    ping: () => inner.ping(),
    close: () => inner.close(),
  } as ReadStore;
}

describe('one tick of the delivery engine on the read store', () => {
  let receiver: LoopbackReceiver;
  beforeEach(async () => {
    receiver = new LoopbackReceiver(() => 204);
    await receiver.start();
  });
  afterEach(() => receiver.stop());

  it('makes three round trips a delivery and a few a tick: 20 events to 10 endpoints in pages of 10', async () => {
    const calls = new Map<string, number>();
    const store = countingStore(new MemoryReadStore(), calls);
    const clock = new FixedClock(START);
    const log = new ArrayLog();
    const endpoints = new InMemoryWebhookEndpoints();
    for (let i = 0; i < 10; i++)
      await registerEndpoint(endpoints, POLICY, {
        teamId: TEAM,
        endpointId: `we_0000000${i}`,
        url: receiver.url(`/hook/${i}`),
        at: START,
      });
    const partitions = new ReadStorePartitionClaims(store, clock);
    await partitions.initialize(-1);
    const engine = new WebhookDeliveryEngine({
      holder: 'notifier-a',
      log,
      endpoints,
      deliveries: await ReadStoreDeliveryStore.open(store),
      partitions,
      clock,
      policy: POLICY,
      pageSize: 10,
      batchSize: 200,
    });
    await engine.tick();
    clock.advance(1000);
    for (let i = 0; i < 20; i++) log.postScored(TEAM, `po_${i}`, clock.now().toISOString());
    clock.advance(1000);
    calls.clear();
    const report = await engine.tick();
    expect(report.created).toBe(200);
    expect(report.attempts.delivered).toBe(200);
    expect(receiver.received).toHaveLength(200);
    // Per delivery: its insert, its claim and its completion; per tick: the claims' refresh (a
    // heartbeat, the live count, the partitions read, their renewal in one write), the due query,
    // the checkpoints in one write when the read ends, and each endpoint's health once.
    // Before (issue 39's first cut): 1,252 (a claim read the record again, each attempt read and
    // wrote its endpoint's health, each partition was renewed on its own and checkpointed per page).
    expect(Object.fromEntries(calls)).toEqual({
      'webhook_notifier_replicas.updateOne': 1,
      'webhook_notifier_replicas.count': 1,
      'webhook_partitions.find': 1,
      'webhook_partitions.updateMany': 2,
      'webhook_deliveries.insertOne': 200,
      'webhook_deliveries.find': 1,
      'webhook_deliveries.updateOne': 400,
      'webhook_endpoint_health.findOne': 10,
      'webhook_endpoint_health.insertOne': 10,
    });
  });
});
