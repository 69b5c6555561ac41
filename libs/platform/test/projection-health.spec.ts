import { Registry } from 'prom-client';
import { HealthRegistry } from '@analyst/platform';
import { ProjectionHealth } from '../src/projection/projection-health';
import { ProjectionMetrics } from '../src/projection/projection-metrics';

describe('ProjectionHealth', () => {
  let now = 0;
  const clock = () => now;
  const bounds = { stuckAfterMs: 60_000, deadAfterMs: 300_000 };

  beforeEach(() => {
    now = Date.parse('2026-05-01T00:00:00.000Z');
  });

  it('is not ready while catching up, then ready', () => {
    const health = new ProjectionHealth(bounds, clock);
    health.started(9);
    health.headSeen(40);
    expect(health.check()).toEqual({ ready: false, detail: 'catching up at position 9, log head 40' });
    health.progressed(40, '2026-04-30T23:59:00.000Z');
    health.caughtUp();
    expect(health.check()).toEqual({ ready: true });
    expect(health.lagPositions).toBe(0);
    expect(health.lagSeconds).toBe(0);
  });

  it('is not ready while failing, still live until the dead bound, then not live; a success recovers it', () => {
    const health = new ProjectionHealth(bounds, clock);
    health.started(5);
    health.caughtUp();
    health.failed(new Error('connect ECONNREFUSED'));
    now += 10_000;
    expect(health.check()).toEqual({
      ready: false,
      live: true,
      detail: 'failing for 10 s, retrying at position 5, log head -1: connect ECONNREFUSED',
    });
    now += 291_000;
    expect(health.check()).toMatchObject({
      ready: false,
      live: false,
      detail: expect.stringContaining('failing for 301 s (longer than 300 s)'),
    });
    health.recovered();
    health.progressed(6, undefined);
    expect(health.check()).toEqual({ ready: true });
  });

  it('reports stuck when the head is ahead and nothing was applied for longer than the bound', () => {
    const health = new ProjectionHealth(bounds, clock);
    health.started(100);
    health.caughtUp();
    now += 120_000; // idle, nothing to apply: not stuck
    health.headSeen(100);
    expect(health.check()).toEqual({ ready: true });
    health.headSeen(130);
    health.progressed(110, '2026-05-01T00:01:30.000Z');
    now += 59_000;
    expect(health.check()).toEqual({ ready: true });
    expect(health.lagPositions).toBe(20);
    expect(health.lagSeconds).toBe(59); // 111..130 known since the head was seen, not the age of 110
    now += 2_000;
    expect(health.check()).toEqual({
      ready: false,
      live: true,
      detail: 'no progress for 61 s at position 110, log head 130',
    });
    now += 300_000;
    expect(health.check()).toMatchObject({ ready: false, live: false });
    health.progressed(130, '2026-05-01T00:02:00.000Z');
    expect(health.check()).toEqual({ ready: true });
  });

  it('knows the head from every position it sees, never from an older report', () => {
    const health = new ProjectionHealth(bounds, clock);
    health.started(10);
    health.headSeen(14); // a write of this process
    expect(health.lagPositions).toBe(4);
    health.headSeen(12); // an older head read answering late
    expect(health.head).toBe(14);
    expect(health.lagPositions).toBe(4);
    health.progressed(14, new Date(now).toISOString());
    expect(health.lagPositions).toBe(0);
    expect(health.lagSeconds).toBe(0);
  });

  it('ages the lag from the oldest event not yet applied, not from the last one applied', () => {
    const health = new ProjectionHealth(bounds, clock);
    health.started(-1);
    health.progressed(5, '2026-04-30T23:00:00.000Z'); // an hour ago; the log was idle since
    health.caughtUp();
    health.headSeen(6); // learned now: at least 0 s old
    expect(health.lagSeconds).toBe(0);
    now += 3_000;
    expect(health.lagSeconds).toBe(3);
    health.headSeen(9);
    now += 1_000;
    // The page 6..9 is read: event 6 was recorded 7 s ago by its producer's clock.
    health.reading(6, new Date(now - 7_000).toISOString(), 9);
    expect(health.lagPositions).toBe(4);
    expect(health.lagSeconds).toBe(7);
    health.progressed(9, new Date(now - 5_000).toISOString());
    expect(health.lagSeconds).toBe(0);
    health.headSeen(11);
    now += 2_000;
    expect(health.lagSeconds).toBe(2); // 9 is applied: only 10..11, learned 2 s ago, count
  });

  it('feeds the Prometheus gauges at scrape time and counts conflicts per projection', async () => {
    const registry = new Registry();
    const metrics = new ProjectionMetrics(registry);
    const health = new ProjectionHealth(bounds, clock);
    health.started(-1);
    // Reads a page of events 0..50 recorded 40 s ago and 30 s ago, and applies up to 20 of it.
    health.reading(0, new Date(now - 40_000).toISOString(), 50);
    health.progressed(20, new Date(now - 40_000).toISOString());
    health.reading(21, new Date(now - 30_000).toISOString(), 50);
    metrics.track('ingest', health);
    metrics.conflict('ingest', 'posts', 'team_link');
    metrics.conflict('ingest', 'posts', 'team_link');
    const text = await registry.metrics();
    expect(text).toContain('analyst_projection_lag_events{projection="ingest"} 30');
    expect(text).toContain('analyst_projection_lag_seconds{projection="ingest"} 30');
    expect(text).toContain('analyst_projection_position{projection="ingest"} 20');
    expect(text).toContain('analyst_projection_head_position{projection="ingest"} 50');
    expect(text).toContain(
      'analyst_projection_conflicts_total{projection="ingest",collection="posts",index="team_link"} 2',
    );
    // A second ProjectionMetrics on the same registry (another service in one process) shares the metrics.
    new ProjectionMetrics(registry).track('ledger', new ProjectionHealth(bounds, clock));
    expect(await registry.metrics()).toContain('analyst_projection_position{projection="ledger"} -1');
  });

  it('plugs into the HealthRegistry', () => {
    const registry = new HealthRegistry();
    const health = new ProjectionHealth(bounds, clock);
    registry.register('projection:ingest', () => health.check());
    health.started(-1);
    expect(registry.notReady()).toEqual([
      {
        name: 'projection:ingest',
        ready: false,
        live: true,
        detail: 'catching up at position -1, log head -1',
      },
    ]);
  });
});
