import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EventRelay,
  InProcessBus,
  MemoryReadStore,
  ReadStoreCheckpointStore,
  SqliteEventStore,
  eventTopic,
  type BusMessage,
  type NewEvent,
  type OutgoingMessage,
  type RecordedEvent,
} from '@analyst/platform';
import { eventually } from '@analyst/testing';

function event(type: string): NewEvent {
  return {
    id: randomUUID(),
    type,
    schemaVersion: 1,
    data: {},
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

describe('event relay over the in-process bus', () => {
  let dir: string;
  let store: SqliteEventStore;
  const checkpoints = new ReadStoreCheckpointStore(new MemoryReadStore());

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-relay-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes each event to its category topic keyed by stream id, checkpointing after the consumers handled it', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    const seen: BusMessage<RecordedEvent>[] = [];
    await bus.subscribe(
      'pm',
      [eventTopic('ledger')],
      async (m) => void seen.push(m as BusMessage<RecordedEvent>),
    );
    const relay = new EventRelay(store, bus, checkpoints, { name: 'relay-a', checkpointEvery: 1 });
    await relay.start();
    await store.append('ledger-team_1', [event('CreditsGranted'), event('CreditsReserved')], 'no_stream');
    await store.append('team-team_1', [event('TeamCreated')], 'no_stream');
    await eventually(async () => (await checkpoints.load('relay-a')) === 3);
    await relay.stop();
    expect(seen.map((m) => [m.topic, m.key, m.type])).toEqual([
      ['analyst.events.ledger', 'ledger-team_1', 'CreditsGranted'],
      ['analyst.events.ledger', 'ledger-team_1', 'CreditsReserved'],
    ]);
    expect(seen[1].payload).toMatchObject({ streamId: 'ledger-team_1', revision: 1, position: 2 });
  });

  it('reports how long publishing has been failing and why, and clears it at the first publish that goes through', async () => {
    const inner = new InProcessBus({ awaitHandled: true });
    let refusing = true;
    const bus = Object.assign(Object.create(inner) as InProcessBus, {
      publish: (topic: string, messages: Parameters<InProcessBus['publish']>[1]) =>
        refusing ? Promise.reject(new Error('broker unreachable')) : inner.publish(topic, messages),
    });
    const seen: string[] = [];
    await inner.subscribe('pm', [eventTopic('ledger')], async (m) => void seen.push(m.type));
    const relay = new EventRelay(store, bus, checkpoints, {
      name: 'relay-f',
      checkpointEvery: 1,
      retryDelayMs: 5,
    });
    await relay.start();
    expect(relay.failingPublish).toBeNull();
    await store.append('ledger-team_9', [event('CreditsGranted')], 'no_stream');
    await eventually(() => (relay.failingPublish?.forMs ?? -1) >= 20);
    expect(relay.failingPublish!.error).toBe('broker unreachable');
    refusing = false;
    await eventually(() => seen.length === 1);
    expect(relay.failingPublish).toBeNull();
    await relay.stop();
  });

  it('does not move its checkpoint past an event whose consumer has not finished, so a restart redelivers it', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    await bus.subscribe('pm', [eventTopic('ledger')], async (m) => {
      if (m.type === 'Second') await stuck; // the process "crashes" while handling this one
    });
    const relay = new EventRelay(store, bus, checkpoints, { name: 'relay-b', checkpointEvery: 1 });
    await relay.start();
    const first = await store.append('ledger-team_2', [event('First')], 'no_stream');
    await store.append('ledger-team_2', [event('Second')], 0);
    await eventually(async () => (await checkpoints.load('relay-b')) === first.position);
    await new Promise((r) => setTimeout(r, 50));
    expect(await checkpoints.load('relay-b')).toBe(first.position);

    // A new process: fresh bus, same checkpoint store. It starts after the checkpoint and redelivers.
    const restartedBus = new InProcessBus({ awaitHandled: true });
    const redelivered: string[] = [];
    await restartedBus.subscribe('pm', [eventTopic('ledger')], async (m) => void redelivered.push(m.type));
    const restarted = new EventRelay(store, restartedBus, checkpoints, {
      name: 'relay-b',
      checkpointEvery: 1,
    });
    await restarted.start();
    await eventually(() => redelivered.length === 1);
    expect(redelivered).toEqual(['Second']);
    await restarted.stop();
    release();
    await relay.stop();
  });

  it('keeps publishing past a slow consumer but checkpoints only the acknowledged prefix', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    await bus.subscribe('pm', [eventTopic('post')], async (m) => {
      if (m.key === 'post-slow') await gate;
      handled.push(m.key);
    });
    const relay = new EventRelay(store, bus, checkpoints, { name: 'relay-c', checkpointEvery: 1 });
    await relay.start();
    const slow = await store.append('post-slow', [event('PostCreated')], 'no_stream');
    for (let i = 0; i < 5; i++) await store.append(`post-fast${i}`, [event('PostCreated')], 'no_stream');
    await eventually(() => handled.length === 5); // other keys are not held up by the slow one
    expect(await checkpoints.load('relay-c')).toBeLessThan(slow.position);
    release();
    await eventually(async () => (await checkpoints.load('relay-c')) === slow.position + 5);
    await relay.stop();
  });

  it('saves its checkpoint every few events and on stop, not after each one', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    await bus.subscribe('pm', [eventTopic('ledger')], async () => undefined);
    const relay = new EventRelay(store, bus, checkpoints, { name: 'relay-d', checkpointEvery: 10 });
    await relay.start();
    let last = { position: -1 };
    for (let i = 0; i < 25; i++)
      last = await store.append(`ledger-team_d${i}`, [event('CreditsGranted')], 'no_stream');
    await eventually(async () => (await checkpoints.load('relay-d')) >= 20);
    expect(await checkpoints.load('relay-d')).toBeLessThan(last.position);
    await relay.stop();
    expect(await checkpoints.load('relay-d')).toBe(last.position);
  });

  it('lets timers run between the batches of a catch-up that never waits on I/O', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    let handled = 0;
    await bus.subscribe('pm', [eventTopic('post')], async () => void (handled += 1));
    for (let i = 0; i < 50; i++)
      await store.append(
        `post-y${i}`,
        Array.from({ length: 100 }, () => event('CommentAdded')),
        'no_stream',
      );
    const relay = new EventRelay(store, bus, checkpoints, { name: 'relay-y', maxBatch: 500 });
    // A synchronous log and a bus that acknowledges at once: without a yield the whole catch-up
    // is one run of promise callbacks, and a timer (the lease's renewal) waits until it ends.
    const handledWhenTimersRan: number[] = [];
    const timer = setInterval(() => handledWhenTimersRan.push(handled), 1);
    await relay.start();
    await eventually(() => handled === 5_000);
    clearInterval(timer);
    await relay.stop();
    expect(handledWhenTimersRan.some((n) => n > 0 && n < 5_000)).toBe(true);
  });

  it('publishes a batch whose encoding is slow over several turns, in log order', async () => {
    const inner = new InProcessBus({ awaitHandled: true });
    const published: number[] = [];
    // Encoding on the thread after the publish's first await, as KafkaBus does: 1 ms an event.
    const bus = Object.assign(Object.create(inner) as InProcessBus, {
      publish: async (topic: string, messages: OutgoingMessage[]) => {
        await Promise.resolve();
        const until = Date.now() + messages.length;
        while (Date.now() < until);
        for (const m of messages) published.push((m.payload as RecordedEvent).position);
        await inner.publish(topic, messages);
      },
    });
    for (let i = 0; i < 10; i++)
      await store.append(
        `post-s${i}`,
        Array.from({ length: 100 }, () => event('CommentAdded')),
        'no_stream',
      );
    const relay = new EventRelay(store, bus, checkpoints, { name: 'relay-s', maxBatch: 500 });
    // A timer sees how far publishing got: in one turn per batch it would only see 0, 500 or 1,000.
    const seenByTimer = new Set<number>();
    const timer = setInterval(() => seenByTimer.add(published.length), 1);
    await relay.start();
    await eventually(() => published.length === 1_000);
    clearInterval(timer);
    await relay.stop();
    expect([...seenByTimer].some((n) => n % 500 !== 0)).toBe(true);
    const positions: number[] = [];
    for await (const page of store.readAll()) positions.push(...page.map((e) => e.position));
    expect(published).toEqual(positions);
  });

  it('resolves a waiting publish when its group has no consumer left, keeping the message queued', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    const sub = await bus.subscribe('pm', ['t'], async () => new Promise((r) => setTimeout(r, 20)));
    const published = bus.publish('t', [
      { id: '1', key: 'k', type: 'X', payload: {} },
      { id: '2', key: 'k', type: 'X', payload: {} },
    ]);
    await sub.close();
    await published; // does not hang
    const later: string[] = [];
    await bus.subscribe('pm', ['t'], async (m) => void later.push(m.id));
    await eventually(() => later.length >= 1);
    expect(later).toContain('2');
  });
});
