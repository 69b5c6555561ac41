import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import {
  InProcessBus,
  MemoryReadStore,
  ReadStoreCheckpointStore,
  RelayLease,
  SqliteEventStore,
  SystemClock,
  loadConfig,
  type EventMessage,
  type NewEvent,
  type OutgoingMessage,
} from '@analyst/platform';
import { eventually } from '@analyst/testing';
import { RelayRunner } from '../src/relay-runner';

/** A short lease on the real clock, so a starved renewal shows within the test (the defaults are 6 s / 2 s). */
const TTL_MS = 600;
const RENEW_MS = 200;

function comment(i: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'CommentsAdded',
    schemaVersion: 1,
    data: { text: `comment ${i} ${'x'.repeat(200)}` },
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

/** Appends `count` events in streams of 100 and returns their positions in log order. */
async function fillLog(events: SqliteEventStore, count: number): Promise<number[]> {
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) => comment(i + j));
    await events.append(`post-${i / 100}`, batch, 'no_stream');
  }
  const positions: number[] = [];
  for await (const page of events.readAll()) positions.push(...page.map((e) => e.position));
  return positions;
}

/**
 * An in-process bus that records every position the relay publishes, in the order of the publish
 * calls, and acknowledges each after `delayMs` (0: as soon as the in-process consumers are done).
 */
function recordingBus(delayMs: number): { bus: InProcessBus; published: number[] } {
  const inner = new InProcessBus({ awaitHandled: true });
  const published: number[] = [];
  const bus = Object.assign(Object.create(inner) as InProcessBus, {
    publish: async (topic: string, messages: OutgoingMessage[]) => {
      for (const m of messages) published.push((m.payload as EventMessage).position);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      await inner.publish(topic, messages);
    },
  });
  return { bus, published };
}

/**
 * A bus that encodes on the event loop's thread as KafkaBus does: after its first await, `busyMs`
 * of synchronous work per message (JSON, kafkajs's record batch and CRC for a 50 KB chunk event).
 */
function encodingBus(busyMs: number): { bus: InProcessBus; published: number[] } {
  const { bus: recording, published } = recordingBus(0);
  const bus = Object.assign(Object.create(recording) as InProcessBus, {
    publish: async (topic: string, messages: OutgoingMessage[]) => {
      await Promise.resolve();
      const until = Date.now() + busyMs * messages.length;
      while (Date.now() < until); // the encoding: nothing else runs on this thread meanwhile
      await recording.publish(topic, messages);
    },
  });
  return { bus, published };
}

describe('relay runner under a long catch-up', () => {
  let dir: string;
  let events: SqliteEventStore;
  let runner: RelayRunner | null;
  let warnings: string[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-relay-runner-'));
    events = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
    runner = null;
    warnings = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((m: unknown) => void warnings.push(String(m)));
  });
  afterEach(async () => {
    await runner?.onApplicationShutdown();
    jest.restoreAllMocks();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function startRunner(bus: InProcessBus): RelayRunner {
    const store = new MemoryReadStore();
    const config = {
      ...loadConfig({}),
      ANALYST_RELAY_LEASE_TTL_MS: TTL_MS,
      ANALYST_RELAY_LEASE_RENEW_MS: RENEW_MS,
    };
    const started = new RelayRunner(
      events,
      bus,
      store,
      new ReadStoreCheckpointStore(store),
      new SystemClock(),
      config,
    );
    started.onApplicationBootstrap();
    return started;
  }

  it('keeps generation 1 through a catch-up of a large log and publishes every event once, in log order', async () => {
    const positions = await fillLog(events, 60_000);
    const { bus, published } = recordingBus(0);
    const checks = jest.spyOn(RelayLease.prototype, 'tryAcquire');
    runner = startRunner(bus);
    await eventually(() => published.length >= positions.length, 120_000);
    // The catch-up spanned several lease checks, so the lease was renewed while it ran.
    expect(checks.mock.calls.length).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 2 * TTL_MS)); // nothing is published twice afterwards
    expect(warnings).toEqual([]);
    expect(runner.lease.generation).toBe(1);
    expect((await runner.lease.current())!.generation).toBe(1);
    expect(published).toEqual(positions);
  }, 180_000);

  it('keeps generation 1 when publishing a batch costs more synchronous work than the TTL', async () => {
    // 500 events a batch at 2 ms each: one second of encoding, where the lease lapses after 600 ms
    // without renewal. Published in one turn, every batch would outlast the lease.
    const positions = await fillLog(events, 2_000);
    const { bus, published } = encodingBus(2);
    runner = startRunner(bus);
    await eventually(() => published.length >= positions.length, 60_000);
    await new Promise((r) => setTimeout(r, 2 * TTL_MS));
    expect(warnings).toEqual([]);
    expect(runner.lease.generation).toBe(1);
    expect((await runner.lease.current())!.generation).toBe(1);
    expect(published).toEqual(positions);
  }, 90_000);

  it('keeps generation 1 while every batch takes longer than the TTL to be acknowledged', async () => {
    const positions = await fillLog(events, 3_000);
    const { bus, published } = recordingBus(TTL_MS + 200);
    runner = startRunner(bus);
    await eventually(() => published.length >= positions.length, 60_000);
    await new Promise((r) => setTimeout(r, 2 * TTL_MS));
    expect(warnings).toEqual([]);
    expect((await runner.lease.current())!.generation).toBe(1);
    expect(published).toEqual(positions);
  }, 90_000);

  it('renews while a fenced relay drains its slow publishes, and restarts the relay under the same generation', async () => {
    const positions = await fillLog(events, 2_000);
    const { bus, published } = recordingBus(TTL_MS * 3);
    runner = startRunner(bus);
    // The second batch's fence check cannot reach the read store: the relay stops publishing with the
    // first batch in flight, whose acknowledgements take three TTLs.
    const lease = runner.lease;
    const stillHeld = lease.stillHeld.bind(lease);
    jest
      .spyOn(lease, 'stillHeld')
      .mockImplementationOnce(stillHeld)
      .mockRejectedValueOnce(new Error('read store timed out'));
    await eventually(() => warnings.length === 2, 30_000);
    await eventually(() => new Set(published).size === positions.length, 60_000);
    await new Promise((r) => setTimeout(r, 2 * TTL_MS));
    expect(warnings).toEqual([
      'lease generation 1 superseded: publishing stopped',
      'fence check failed: relay stopped, starting again under generation 1',
    ]);
    expect(runner.lease.generation).toBe(1);
    expect((await runner.lease.current())!.generation).toBe(1);
    // The stopped relay's batch in flight, then the restarted relay from the generation's checkpoint
    // (nothing was acknowledged before the stop): every event, in log order, once more.
    const stoppedBatch = published.length - positions.length;
    expect(stoppedBatch).toBeGreaterThan(0);
    expect(published).toEqual([...positions.slice(0, stoppedBatch), ...positions]);
  }, 90_000);
});
