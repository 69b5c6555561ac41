import {
  HealthRegistry,
  HttpMetrics,
  MemoryReadStore,
  ProjectionService,
  ReadStoreCheckpointStore,
  SqliteEventStore,
  type AnalystConfig,
  type EventStore,
  type NewEvent,
  type SubscribeOptions,
  type Subscription,
} from '@analyst/platform';
import { eventually } from '@analyst/testing';
import {
  FlakyReadStore,
  postsProjector,
  teamsProjector,
  type PostDoc,
  type TeamDoc,
} from './projection-fixtures';

let seq = 0;
function created(postId: string, team: string, link: string): NewEvent {
  return {
    id: `e${++seq}`,
    type: 'Created',
    schemaVersion: 1,
    data: { postId, team, link, title: postId },
    metadata: { correlationId: 'c', causationId: null, teamId: team, occurredAt: new Date().toISOString() },
  };
}

/** Its first subscription dies after `after` events, as an EventStoreDB subscription does when the server drops it. */
function dropsFirstSubscription(inner: EventStore, after: number): EventStore {
  let subscriptions = 0;
  return Object.assign(Object.create(inner) as EventStore, {
    async subscribeToAllPages(
      handler: Parameters<EventStore['subscribeToAllPages']>[0],
      options: SubscribeOptions = {},
    ): Promise<Subscription> {
      if (++subscriptions > 1) return inner.subscribeToAllPages(handler, options);
      let seen = 0;
      let dropped = false;
      const subscription = await inner.subscribeToAllPages(
        async (page) => {
          if (dropped) return;
          const delivered = page.slice(0, Math.max(0, after - seen));
          seen += page.length;
          if (delivered.length > 0) await handler(delivered);
          if (seen > after) {
            dropped = true;
            setImmediate(() => options.onError?.(new Error('subscription dropped by the server')));
          }
        },
        { ...options, onCaughtUp: () => (dropped ? undefined : options.onCaughtUp?.()) },
      );
      return subscription;
    },
  });
}

function service(
  events: EventStore,
  store: FlakyReadStore,
  health: HealthRegistry,
  metrics: HttpMetrics,
  deadAfterMs?: number,
): ProjectionService {
  const projections = new ProjectionService(
    events,
    store,
    'resume',
    new ReadStoreCheckpointStore(store),
    { ANALYST_SERVICE: 'ingest' } as AnalystConfig,
    health,
    metrics,
    { backoff: { initialMs: 10, maxMs: 50 }, headPollMs: 20, deadAfterMs },
  );
  projections.register(postsProjector);
  projections.register(teamsProjector);
  return projections;
}

describe('ProjectionService supervision (SQLite log, in-memory read store)', () => {
  it('retries a failing read store with backoff, reports it on readiness, and recovers by itself', async () => {
    const events = new SqliteEventStore({ filename: ':memory:' });
    const store = new FlakyReadStore(new MemoryReadStore());
    const health = new HealthRegistry();
    const metrics = new HttpMetrics('ingest');
    let last = -1;
    for (let i = 0; i < 5; i++)
      last = (await events.append(`post-a${i}`, [created(`a${i}`, 't', `l${i}`)], 'no_stream')).position;
    const projections = service(events, store, health, metrics);
    try {
      await projections.start();
      expect(health.notReady()).toEqual([]);
      expect(projections.ready).toBe(true);

      store.failing = true;
      const { position } = await events.append('post-b', [created('b', 't', 'lb')], 'no_stream');
      // The head is polled every 20 ms: wait until the report has seen the new one.
      await eventually(() => health.notReady()[0]?.detail?.includes(`log head ${position}`) ?? false);
      const [report] = health.notReady();
      expect(report).toMatchObject({ name: 'projection:ingest', ready: false, live: true });
      expect(report.detail).toMatch(
        new RegExp(
          `^failing for \\d+ s, retrying at position ${last}, log head ${position}: connect ECONNREFUSED`,
        ),
      );
      expect(await metrics.registry.metrics()).toMatch(
        /analyst_projection_failures_total\{projection="ingest",service="ingest"\} [1-9]/,
      );

      store.failing = false;
      await projections.waitFor(position, 30_000);
      await eventually(() => health.notReady().length === 0);
      expect(await store.collection<PostDoc>('posts').findOne({ _id: 'b' })).toMatchObject({
        link: 'lb',
        title: 'b',
      });
      expect(await store.collection<TeamDoc>('teams').findOne({ _id: 't' })).toMatchObject({ posts: 6 });
      const text = await metrics.registry.metrics();
      expect(text).toContain(`analyst_projection_position{projection="ingest",service="ingest"} ${position}`);
      expect(text).toContain('analyst_projection_lag_events{projection="ingest",service="ingest"} 0');

      await projections.stop();
      expect(await new ReadStoreCheckpointStore(store).load('projections:ingest')).toBe(position);
      expect(health.report()).toEqual([]);
    } finally {
      store.failing = false;
      await projections.stop();
      await events.close();
    }
  });

  it('reopens a subscription that ended with an error after the last applied position', async () => {
    const inner = new SqliteEventStore({ filename: ':memory:' });
    for (let i = 0; i < 6; i++)
      await inner.append(`post-c${i}`, [created(`c${i}`, 'u', `l${i}`)], 'no_stream');
    const store = new FlakyReadStore(new MemoryReadStore());
    const health = new HealthRegistry();
    const metrics = new HttpMetrics('ingest');
    const projections = service(dropsFirstSubscription(inner, 3), store, health, metrics);
    try {
      await projections.start();
      expect(await store.collection<PostDoc>('posts').count()).toBe(6);
      expect(await store.collection<TeamDoc>('teams').findOne({ _id: 'u' })).toMatchObject({ posts: 6 });
      expect(await metrics.registry.metrics()).toContain(
        'analyst_projection_restarts_total{projection="ingest",service="ingest"} 1',
      );
      const { position } = await inner.append('post-d', [created('d', 'u', 'ld')], 'no_stream');
      await projections.waitFor(position, 30_000);
      expect(await store.collection<TeamDoc>('teams').findOne({ _id: 'u' })).toMatchObject({ posts: 7 });
      expect(health.notReady()).toEqual([]);
    } finally {
      await projections.stop();
      await inner.close();
    }
  });

  it('not live and the start fails when the first catch-up keeps failing past the dead bound, so the process is restarted', async () => {
    const events = new SqliteEventStore({ filename: ':memory:' });
    await events.append('post-x', [created('x', 'v', 'lx')], 'no_stream');
    const store = new FlakyReadStore(new MemoryReadStore());
    store.failing = true;
    const health = new HealthRegistry();
    const projections = service(events, store, health, new HttpMetrics('ingest'), 300);
    try {
      // Settled into a value at once: the start may give up before the health checks below run
      // (300 ms on a loaded machine), and an unobserved rejection would fail the test by itself.
      const outcome = projections.start().then(
        () => null,
        (error: unknown) => error,
      );
      await eventually(() => health.notLive().length === 1);
      expect(health.notLive()[0]).toMatchObject({ name: 'projection:ingest', ready: false, live: false });
      expect(health.notLive()[0].detail).toMatch(
        /^failing for \d+ s \(longer than 0 s\), retrying at position -1/,
      );
      expect(String(await outcome)).toContain('ECONNREFUSED');
      expect(projections.ready).toBe(false);
    } finally {
      await projections.stop();
      await events.close();
    }
  });
});
