import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
} from '@analyst/platform';
import { eventually } from '@analyst/testing';
import { FlakyReadStore, postsProjector } from './projection-fixtures';

let seq = 0;
function created(postId: string, occurredAt = new Date()): NewEvent {
  return {
    id: `lag${++seq}`,
    type: 'Created',
    schemaVersion: 1,
    data: { postId, team: 't', link: `l-${postId}`, title: postId },
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: occurredAt.toISOString() },
  };
}

/** The service's projection; the head poll (5 s by default) is set past the test so only scrapes read it. */
function service(events: EventStore, store: FlakyReadStore, metrics: HttpMetrics): ProjectionService {
  const projections = new ProjectionService(
    events,
    store,
    'resume',
    new ReadStoreCheckpointStore(store),
    { ANALYST_SERVICE: 'ingest' } as AnalystConfig,
    new HealthRegistry(),
    metrics,
    { backoff: { initialMs: 10, maxMs: 50 }, headPollMs: 600_000 },
  );
  projections.register(postsProjector);
  return projections;
}

async function gauge(metrics: HttpMetrics, name: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = new RegExp(`^${name}\\{projection="ingest",service="ingest"\\} (\\S+)$`, 'm').exec(text);
  if (!line) throw new Error(`${name} not on /metrics`);
  return Number(line[1]);
}

/** Both lag gauges at 0 (the health hears of a page once it is applied, a tick after waitFor may return). */
async function caughtUp(metrics: HttpMetrics): Promise<void> {
  let lag: number[] = [];
  const read = async () =>
    (lag = [
      await gauge(metrics, 'analyst_projection_lag_events'),
      await gauge(metrics, 'analyst_projection_lag_seconds'),
    ]);
  await eventually(async () => (await read()).every((v) => v === 0)).catch(() => undefined);
  expect(lag).toEqual([0, 0]);
}

describe('projection lag at scrape time', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'projection-lag-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("counts another process's burst at the next scrape, before the projection or the head poll reads it", async () => {
    const filename = join(dir, 'log.db');
    const writer = new SqliteEventStore({ filename });
    // Another process's appends cannot wake this store: it reads them at its next poll, after the test.
    const reader = new SqliteEventStore({ filename, pollIntervalMs: 600_000 });
    const metrics = new HttpMetrics('ingest');
    await writer.append('post-a', [created('a')], 'no_stream');
    const projections = service(reader, new FlakyReadStore(new MemoryReadStore()), metrics);
    try {
      await projections.start();
      expect(await gauge(metrics, 'analyst_projection_lag_events')).toBe(0);

      let head = -1;
      for (const id of ['b', 'c', 'd'])
        head = (await writer.append(`post-${id}`, [created(id)], 'no_stream')).position;
      expect(await gauge(metrics, 'analyst_projection_head_position')).toBe(head);
      expect(await gauge(metrics, 'analyst_projection_lag_events')).toBe(3);
      expect(await gauge(metrics, 'analyst_projection_lag_seconds')).toBeGreaterThanOrEqual(0);

      // A write of this process wakes its projection, which reads and applies the whole burst.
      const { position } = await reader.append('post-e', [created('e')], 'no_stream');
      await projections.waitFor(position, 30_000);
      await caughtUp(metrics);
    } finally {
      await projections.stop();
      await reader.close();
      await writer.close();
    }
  });

  it('ages the lag from the recorded time of the oldest event it has read and not applied', async () => {
    const events = new SqliteEventStore({ filename: join(dir, 'log.db') });
    const store = new FlakyReadStore(new MemoryReadStore());
    const metrics = new HttpMetrics('ingest');
    const projections = service(events, store, metrics);
    try {
      await projections.start();
      store.failing = true;
      const recorded = new Date(Date.now() - 30_000);
      const first = await events.append('post-f', [created('f', recorded)], 'no_stream');
      await events.append('post-g', [created('g')], 'no_stream');
      await eventually(() => store.calls > 0);
      expect(await gauge(metrics, 'analyst_projection_lag_events')).toBeGreaterThanOrEqual(1);
      const seconds = await gauge(metrics, 'analyst_projection_lag_seconds');
      expect(seconds).toBeGreaterThanOrEqual(30);
      expect(seconds).toBeLessThan(60);

      store.failing = false;
      await projections.waitFor(first.position + 1, 30_000);
      await caughtUp(metrics);
    } finally {
      store.failing = false;
      await projections.stop();
      await events.close();
    }
  });
});
