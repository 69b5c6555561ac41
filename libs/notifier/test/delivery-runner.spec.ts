import { SqliteEventStore } from '@analyst/adapter-sqlite';
import type { PostScored } from '@analyst/contracts';
import { SystemClock } from '@analyst/eventsourcing';
import {
  InMemoryDeliveryStore,
  InMemoryPartitionClaims,
  InMemoryWebhookEndpoints,
  webhookEventId,
  webhookNetworkPolicyFromEnv,
  ALLOWED_NETWORKS_VARIABLE,
  type PartitionClaims,
} from '@analyst/webhooks';
import { LoopbackReceiver, registerEndpoint } from '../../webhooks/test/delivery-harness';
import type { NotifierStores } from '../src/delivery/notifier-stores';
import { WebhookDeliveryRunner } from '../src/delivery/webhook-delivery-runner';

const POLICY = webhookNetworkPolicyFromEnv({ [ALLOWED_NETWORKS_VARIABLE]: '127.0.0.0/8' });
const TEAM = 'tm_1';

/** Partition claims whose store does not answer until `up` is set, as MongoDB down while a notifier starts. */
class FlakyClaims implements PartitionClaims {
  up = false;
  initializeCalls = 0;
  constructor(private readonly inner: InMemoryPartitionClaims) {}
  get count() {
    return this.inner.count;
  }
  async initialize(checkpoint: number) {
    this.initializeCalls++;
    if (!this.up) throw new Error('connect ECONNREFUSED 127.0.0.1:27017');
    return this.inner.initialize(checkpoint);
  }
  refresh = (holder: string) => this.inner.refresh(holder);
  saveCheckpoint = (holder: string, partition: number, position: number) =>
    this.inner.saveCheckpoint(holder, partition, position);
  saveCheckpoints = (holder: string, partitions: readonly number[], position: number) =>
    this.inner.saveCheckpoints(holder, partitions, position);
  release = (holder: string) => this.inner.release(holder);
}

async function postScored(log: SqliteEventStore, postId: string): Promise<string> {
  const at = new Date().toISOString();
  const data: PostScored['data'] = {
    postId,
    dataVersion: 1,
    jobId: 'cj_1',
    reservationId: null,
    scorer: { name: 'test', version: '1' },
    topics: [],
    messages: [],
    totalComments: 1,
    at,
  };
  const id = `ev_${postId}`;
  await log.append(
    `post-${postId}`,
    [
      {
        id,
        type: 'PostScored',
        schemaVersion: 1,
        data,
        metadata: { correlationId: 'c', causationId: null, teamId: TEAM, occurredAt: at },
      },
    ],
    'any',
  );
  return webhookEventId(id);
}

describe('the delivery runner', () => {
  let receiver: LoopbackReceiver;
  let log: SqliteEventStore;
  beforeEach(async () => {
    receiver = new LoopbackReceiver(() => 200);
    await receiver.start();
    log = new SqliteEventStore({ filename: ':memory:' });
  });
  afterEach(async () => {
    await receiver.stop();
    await log.close();
  });

  it('starts later when its store does not answer at start (the bootstrap does not wait or fail), then delivers', async () => {
    const clock = new SystemClock();
    const endpoints = new InMemoryWebhookEndpoints();
    await registerEndpoint(endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: new Date(Date.now() - 1_000).toISOString(),
    });
    const claims = new FlakyClaims(new InMemoryPartitionClaims(16, clock));
    const stores: NotifierStores = {
      deliveries: new InMemoryDeliveryStore(),
      partitions: claims,
      close: () => undefined,
    };
    const before = process.env[ALLOWED_NETWORKS_VARIABLE];
    process.env[ALLOWED_NETWORKS_VARIABLE] = '127.0.0.0/8';
    const runner = new WebhookDeliveryRunner(stores, log, clock, endpoints, { tickMs: 20, startRetryMs: 50 });
    if (before === undefined) delete process.env[ALLOWED_NETWORKS_VARIABLE];
    else process.env[ALLOWED_NETWORKS_VARIABLE] = before;

    await runner.onApplicationBootstrap(); // resolves: the process goes on starting
    await new Promise((resolve) => setTimeout(resolve, 180));
    const triedWhileDown = claims.initializeCalls;
    expect(triedWhileDown).toBeGreaterThanOrEqual(2);
    expect(receiver.received).toEqual([]);

    claims.up = true;
    for (let waited = 0; claims.initializeCalls === triedWhileDown && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const eventId = await postScored(log, 'po_1');
    for (let waited = 0; receiver.received.length === 0 && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await runner.onModuleDestroy();
    expect(receiver.received.map((r) => r.eventId)).toEqual([eventId]);
    const started = claims.initializeCalls;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(claims.initializeCalls).toBe(started); // no more tries once started, nor after the stop
  });

  it('stopped while its store is still down: it stops trying', async () => {
    const clock = new SystemClock();
    const claims = new FlakyClaims(new InMemoryPartitionClaims(16, clock));
    const runner = new WebhookDeliveryRunner(
      { deliveries: new InMemoryDeliveryStore(), partitions: claims, close: () => undefined },
      log,
      clock,
      new InMemoryWebhookEndpoints(),
      { tickMs: 20, startRetryMs: 30 },
    );
    await runner.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await runner.onModuleDestroy();
    const tries = claims.initializeCalls;
    expect(tries).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(claims.initializeCalls).toBe(tries);
  });
});
