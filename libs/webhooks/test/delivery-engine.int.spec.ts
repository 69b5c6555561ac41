import { FixedClock } from '@analyst/eventsourcing';
import {
  InMemoryDeliveryStore,
  InMemoryPartitionClaims,
  InMemoryWebhookEndpoints,
  WebhookDeliveryEngine,
  deliveryId,
  webhookEventId,
  webhookNetworkPolicyFromEnv,
  type TickReport,
  type WebhookDeliveryEngineOptions,
  type WebhookEndpointDirectory,
} from '../src';
import { verifyWebhookSignature } from '@analyst/client';
import { ArrayLog, LoopbackReceiver, registerEndpoint } from './delivery-harness';

/** The receivers listen on loopback, which only the operator's setting opens. */
const POLICY = webhookNetworkPolicyFromEnv({ ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
const TEAM = 'tm_1';
const START = '2026-03-10T12:00:00.000Z';
const HOUR = 3600_000;

/** One shared world: the log, the endpoints, the delivery store and the partition claims, on a clock the test moves. */
class World {
  readonly clock = new FixedClock(START);
  readonly log = new ArrayLog();
  readonly endpoints = new InMemoryWebhookEndpoints();
  readonly deliveries = new InMemoryDeliveryStore();
  readonly partitions: InMemoryPartitionClaims;
  readonly receivers: LoopbackReceiver[] = [];

  constructor(partitionCount = 8) {
    this.partitions = new InMemoryPartitionClaims(partitionCount, this.clock);
  }

  engine(holder: string, options: Partial<WebhookDeliveryEngineOptions> = {}): WebhookDeliveryEngine {
    return new WebhookDeliveryEngine({
      holder,
      log: this.log,
      endpoints: this.endpoints,
      deliveries: this.deliveries,
      partitions: this.partitions,
      clock: this.clock,
      policy: POLICY,
      timeoutMs: 5_000,
      ...options,
    });
  }

  async receiver(answer: ConstructorParameters<typeof LoopbackReceiver>[0]): Promise<LoopbackReceiver> {
    const receiver = new LoopbackReceiver(answer);
    this.receivers.push(receiver);
    await receiver.start();
    return receiver;
  }

  /** `count` post.updated events, 100 ms apart (well within the claims' 10 s), after the endpoints' registration. */
  events(count: number): string[] {
    return Array.from({ length: count }, () => {
      this.clock.advance(100);
      return webhookEventId(
        this.log.postScored(TEAM, `po_${this.log.events.length}`, this.clock.now().toISOString()).id,
      );
    });
  }
}

let world: World;
beforeEach(() => {
  world = new World();
});
afterEach(async () => {
  await Promise.all(world.receivers.map((r) => r.stop()));
});

describe('webhook delivery engine against receivers on 127.0.0.1', () => {
  it('a receiver answering 500 then 200 gets the event once more and no more', async () => {
    const receiver = await world.receiver((_got, index) => (index === 0 ? 500 : 200));
    const secret = await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    const [eventId] = world.events(1);
    const engine = world.engine('notifier-1');

    const first = await engine.tick();
    expect(first.created).toBe(1);
    expect(first.attempts).toEqual({ delivered: 0, failed: 1, superseded: 0 });
    const pending = (await world.deliveries.get(deliveryId('we_00000001', eventId)))!;
    expect(pending.status).toBe('pending');
    expect(pending.attempts[0]).toMatchObject({
      number: 1,
      outcome: 'failed',
      responseStatus: 500,
      error: { code: 'http_status' },
      responseBody: 'receiver error',
      nextRetryAt: pending.nextAttemptAt,
    });
    // Not due yet: nothing is sent before the retry time.
    expect((await engine.tick()).attempts.failed + (await engine.tick()).attempts.delivered).toBe(0);

    world.clock.set(pending.nextAttemptAt!);
    expect((await engine.tick()).attempts).toEqual({ delivered: 1, failed: 0, superseded: 0 });
    world.clock.advance(80 * HOUR);
    await engine.tick();

    expect(receiver.received.map((r) => r.eventId)).toEqual([eventId, eventId]);
    expect(receiver.received[0].body).toBe(receiver.received[1].body);
    expect(receiver.received.map((r) => r.headers['analyst-webhook-attempt'])).toEqual(['1', '2']);
    const check = await verifyWebhookSignature(
      receiver.received[1].body,
      receiver.received[1].headers['analyst-signature'] as string,
      secret,
      { nowSeconds: Math.floor(Date.parse(pending.nextAttemptAt!) / 1000) },
    );
    expect(check.ok).toBe(true);
    const done = (await world.deliveries.get(deliveryId('we_00000001', eventId)))!;
    expect(done.status).toBe('delivered');
    expect(done.nextAttemptAt).toBeNull();
    expect(done.attempts.map((a) => [a.number, a.outcome, a.responseStatus, a.nextRetryAt])).toEqual([
      [1, 'failed', 500, pending.nextAttemptAt],
      [2, 'delivered', 200, null],
    ]);
  });

  it('a receiver down for a while gets every event after it returns, each once', async () => {
    const receiver = await world.receiver(() => 204);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    await receiver.stop();
    const eventIds = world.events(5);
    const engine = world.engine('notifier-1');

    const down = await engine.tick();
    expect(down.attempts.failed).toBe(5);
    for (let round = 0; round < 2; round++) {
      world.clock.advance(HOUR);
      expect((await engine.tick()).attempts.failed).toBe(5);
    }
    const records = await world.deliveries.forEndpoint('we_00000001', 10);
    expect(records.every((r) => r.attempts.every((a) => a.error?.code === 'connection_refused'))).toBe(true);

    await receiver.start(receiver.port);
    world.clock.advance(HOUR);
    expect((await engine.tick()).attempts).toEqual({ delivered: 5, failed: 0, superseded: 0 });
    world.clock.advance(80 * HOUR);
    await engine.tick();
    expect(receiver.received.map((r) => r.eventId).sort()).toEqual([...eventIds].sort());
    const after = await world.deliveries.forEndpoint('we_00000001', 10);
    expect(after.map((r) => [r.status, r.attempts.length])).toEqual(Array(5).fill(['delivered', 4]));
  });

  it('two engines sharing the store and the partitions deliver each (endpoint, event) once', async () => {
    const receiver = await world.receiver(() => 200);
    const endpointIds = Array.from({ length: 8 }, (_, i) => `we_0000000${i}`);
    for (const endpointId of endpointIds)
      await registerEndpoint(world.endpoints, POLICY, {
        teamId: TEAM,
        endpointId,
        url: receiver.url(`/hook/${endpointId}`),
        at: START,
      });
    const a = world.engine('notifier-a');
    const b = world.engine('notifier-b');
    // Both replicas running before the events: the first to refresh takes all 8, gives 4 back once it sees the other.
    for (let round = 0; round < 2; round++) await Promise.all([a.tick(), b.tick()]);
    const eventIds = world.events(12);

    const reports: TickReport[][] = [[], []];
    for (let round = 0; round < 3; round++) {
      world.clock.advance(1000);
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
    expect(new Set(pairs).size).toBe(96);
    expect(new Set(pairs)).toEqual(
      new Set(endpointIds.flatMap((ep) => eventIds.map((ev) => `/hook/${ep} ${ev}`))),
    );
  });

  it('a replica stopped mid-attempt: another finishes the delivery once its claim lapses (at least once)', async () => {
    let release!: () => void;
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    const receiver = await world.receiver((_got, index) => {
      if (index > 0) return 200;
      firstArrived();
      return held;
    });
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    const [eventId] = world.events(1);
    const stopped = world.engine('notifier-a');
    const survivor = world.engine('notifier-b');

    const stalled = stopped.tick();
    await arrived;
    // notifier-a never comes back: its partitions (10 s) and its claim on the delivery (timeout + 30 s) lapse.
    world.clock.advance(60_000);
    const takeover = await survivor.tick();
    expect(takeover.partitions).toHaveLength(8);
    expect(takeover.created).toBe(0); // notifier-a's checkpoint was carried: nothing created twice
    expect(takeover.attempts).toEqual({ delivered: 1, failed: 0, superseded: 0 });

    release();
    expect((await stalled).attempts).toEqual({ delivered: 0, failed: 0, superseded: 1 });
    expect(receiver.received.map((r) => r.eventId)).toEqual([eventId, eventId]);
    const record = (await world.deliveries.get(deliveryId('we_00000001', eventId)))!;
    expect(record.status).toBe('delivered');
    expect(record.attempts).toHaveLength(1);
    expect(record.claim).toBeNull();
  });

  it('gives a delivery up after 72 hours of failures and disables the endpoint; its other deliveries say so', async () => {
    const receiver = await world.receiver(() => 503);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    const [first] = world.events(1);
    const engine = world.engine('notifier-1');
    const firstId = deliveryId('we_00000001', first);
    let second: string | null = null;
    const reports: TickReport[] = [];
    for (let round = 0; round < 60; round++) {
      reports.push(await engine.tick());
      const record = (await world.deliveries.get(firstId))!;
      if (record.status !== 'pending') break;
      // A second event while the endpoint fails, 71 hours in (recorded a second after the last attempt).
      if (!second && Date.parse(record.nextAttemptAt!) - Date.parse(START) > 71 * HOUR)
        [second] = world.events(1);
      world.clock.set(record.nextAttemptAt!);
    }

    const given = (await world.deliveries.get(firstId))!;
    expect(given.status).toBe('given_up');
    expect(given.attempts.length).toBeGreaterThanOrEqual(27);
    expect(given.attempts.length).toBeLessThanOrEqual(44);
    const span = Date.parse(given.attempts[given.attempts.length - 1].at) - Date.parse(given.attempts[0].at);
    expect(span).toBe(72 * HOUR);
    expect(reports.flatMap((r) => r.disabledEndpoints)).toEqual(['we_00000001']);
    expect((await world.endpoints.endpoint(TEAM, 'we_00000001'))!.status).toBe('disabled');

    world.clock.advance(7 * HOUR);
    const [late] = world.events(1);
    const after = await engine.tick();
    expect(after.finished.endpoint_disabled).toBe(1);
    expect(after.created).toBe(0); // a disabled endpoint subscribes to nothing
    const secondRecord = (await world.deliveries.get(deliveryId('we_00000001', second!)))!;
    expect(secondRecord.status).toBe('endpoint_disabled');
    expect(secondRecord.nextAttemptAt).toBeNull();
    expect(await world.deliveries.get(deliveryId('we_00000001', late))).toBeNull();
    expect(receiver.received.filter((r) => r.eventId === second).length).toBe(secondRecord.attempts.length);
  });

  it('start ticks until stopped; stop waits for the tick in flight and gives the partitions back', async () => {
    const receiver = await world.receiver(() => 200);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    const engine = world.engine('notifier-1');
    const errors: unknown[] = [];
    engine.start(5, (error) => errors.push(error));
    const [eventId] = world.events(1);
    for (let waited = 0; receiver.received.length === 0 && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await engine.stop();
    expect(receiver.received.map((r) => r.eventId)).toEqual([eventId]);
    expect(errors).toEqual([]);
    expect(await world.partitions.refresh('notifier-2')).toHaveLength(8);
  });

  it('keeps its partitions while a tick waits on a slow receiver longer than the claims live', async () => {
    let release!: () => void;
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    const receiver = await world.receiver(() => held);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    world.events(1);
    const engine = world.engine('notifier-1', { heartbeatMs: 5 });
    engine.start(5);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    while (receiver.received.length === 0) await pause(5);
    // 24 s of the claims' clock pass while the attempt waits; the heartbeat renews them every 6 s.
    for (let step = 0; step < 4; step++) {
      world.clock.advance(6_000);
      await pause(30);
    }
    expect(await world.partitions.refresh('notifier-2')).toEqual([]); // all still held by notifier-1
    release();
    await engine.stop();
    expect(receiver.received).toHaveLength(1);
  });

  it('a replay of the log from the start creates no delivery twice', async () => {
    const receiver = await world.receiver(() => 200);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    world.events(3);
    expect((await world.engine('notifier-1').tick()).created).toBe(3);
    // Fresh claims: every checkpoint back at -1, the whole log read again.
    const replay = new WebhookDeliveryEngine({
      holder: 'notifier-2',
      log: world.log,
      endpoints: world.endpoints,
      deliveries: world.deliveries,
      partitions: new InMemoryPartitionClaims(8, world.clock),
      clock: world.clock,
      policy: POLICY,
    });
    const again = await replay.tick();
    expect(again.created).toBe(0);
    expect(again.attempts.delivered).toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it('sends an endpoint only the facts recorded after its registration, and only the types it chose', async () => {
    const receiver = await world.receiver(() => 200);
    const early = world.events(2);
    world.clock.advance(500);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: world.clock.now().toISOString(),
    });
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000002',
      url: receiver.url('/analyses'),
      at: START,
      events: ['analysis.ready'],
    });
    const late = world.events(2);
    expect((await world.engine('notifier-1').tick()).created).toBe(2);
    expect(receiver.received.map((r) => [r.path, r.eventId])).toEqual(late.map((id) => ['/hook', id]));
    expect(early.every((id) => !receiver.received.some((r) => r.eventId === id))).toBe(true);
  });

  it("a ping goes to its one endpoint whatever it subscribed to; none to the team's others or to a deleted one", async () => {
    const receiver = await world.receiver(() => 204);
    for (const [endpointId, path] of [
      ['we_00000001', '/pinged'],
      ['we_00000002', '/other'],
    ])
      await registerEndpoint(world.endpoints, POLICY, {
        teamId: TEAM,
        endpointId,
        url: receiver.url(path),
        at: START,
        events: ['analysis.ready'],
      });
    world.clock.advance(100);
    const ping = world.log.pinged(TEAM, 'we_00000001', world.clock.now().toISOString());
    world.endpoints.execute(TEAM, {
      type: 'DeleteWebhookEndpoint',
      data: { endpointId: 'we_00000002', at: world.clock.now().toISOString() },
    });
    world.log.pinged(TEAM, 'we_00000002', world.clock.now().toISOString());
    const report = await world.engine('notifier-1').tick();
    expect(report.created).toBe(1);
    expect(report.attempts.delivered).toBe(1);
    expect(receiver.received.map((r) => [r.path, r.headers['analyst-webhook-type']])).toEqual([
      ['/pinged', 'webhook.ping'],
    ]);
    expect(JSON.parse(receiver.received[0].body)).toEqual({
      id: webhookEventId(ping.id),
      type: 'webhook.ping',
      createdAt: ping.metadata.occurredAt,
      teamId: TEAM,
      data: { object: 'webhook_endpoint', id: 'we_00000001', path: '/webhooks/we_00000001' },
    });
    const record = await world.deliveries.get(deliveryId('we_00000001', webhookEventId(ping.id)));
    expect(record).toMatchObject({ status: 'delivered', eventType: 'webhook.ping' });
  });

  it('wake ticks at once when started with a long interval; each tick is reported with its lowest checkpoint', async () => {
    const receiver = await world.receiver(() => 200);
    await registerEndpoint(world.endpoints, POLICY, {
      teamId: TEAM,
      endpointId: 'we_00000001',
      url: receiver.url(),
      at: START,
    });
    const reports: TickReport[] = [];
    const engine = world.engine('notifier-1', { onTick: (r) => reports.push(r) });
    engine.start(600_000);
    engine.wake(); // the first tick, at once rather than in 10 minutes
    for (let waited = 0; reports.length === 0 && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const [eventId] = world.events(1);
    engine.wake();
    for (let waited = 0; receiver.received.length === 0 && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await engine.stop();
    expect(receiver.received.map((r) => r.eventId)).toEqual([eventId]);
    expect(reports[0]).toMatchObject({ created: 0, lowestCheckpoint: -1 });
    expect(reports[reports.length - 1]).toMatchObject({ lowestCheckpoint: 0 });
    expect(reports.reduce((n, r) => n + r.created, 0)).toBe(1);
    engine.wake(); // stopped: nothing more
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reports.reduce((n, r) => n + r.attempts.delivered, 0)).toBe(1);
  });

  it("reads a team's endpoints once a page of the log and once a tick's attempts, however many events", async () => {
    const receiver = await world.receiver(() => 200);
    for (const endpointId of ['we_00000001', 'we_00000002'])
      await registerEndpoint(world.endpoints, POLICY, {
        teamId: TEAM,
        endpointId,
        url: receiver.url(`/${endpointId}`),
        at: START,
      });
    let reads = 0;
    const counted: WebhookEndpointDirectory = {
      endpoints: (teamId) => (reads++, world.endpoints.endpoints(teamId)),
      endpoint: (teamId, id) => world.endpoints.endpoint(teamId, id),
      disable: (...args) => world.endpoints.disable(...args),
    };
    const eventIds = world.events(20);
    const report = await world.engine('notifier-1', { endpoints: counted, pageSize: 10 }).tick();
    expect(report).toMatchObject({ created: 40, attempts: { delivered: 40 } });
    expect(receiver.received.map((r) => `${r.path} ${r.eventId}`).sort()).toEqual(
      ['/we_00000001', '/we_00000002'].flatMap((path) => eventIds.map((id) => `${path} ${id}`)).sort(),
    );
    expect(reads).toBe(3); // two pages of 10, then the tick's 40 attempts to two endpoints
  });
});
