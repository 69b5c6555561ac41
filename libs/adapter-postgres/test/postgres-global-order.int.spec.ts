import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import {
  type AppendResult,
  ConcurrencyError,
  type NewEvent,
  type RecordedEvent,
} from '@analyst/eventsourcing';
import { eventually, unique } from '@analyst/testing';
import { PostgresEventStore } from '@analyst/adapter-postgres';
import { appendInTransaction } from '../src/append-events';

const url = process.env.POSTGRES_URL;

function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    schemaVersion: 1,
    data,
    metadata: { correlationId: 'c', causationId: null, teamId: null, occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

// Against a real PostgreSQL: POSTGRES_URL (deploy/local/start.sh prints it); skipped without one.
const describeWithServer = url ? describe : describe.skip;

describeWithServer('PostgreSQL event store: global order across clients', () => {
  let writer: PostgresEventStore;
  let reader: PostgresEventStore;
  let slowPool: Pool;

  beforeEach(() => {
    writer = new PostgresEventStore({ connectionString: url! });
    reader = new PostgresEventStore({ connectionString: url! });
    slowPool = new Pool({ connectionString: url!, max: 1 });
  });
  afterEach(async () => {
    await writer.close();
    await reader.close();
    await slowPool.end();
  });

  it('never lets a reader pass an event whose transaction commits after a later append started', async () => {
    const slowStream = unique('slow-');
    const fastStream = unique('fast-');
    const start = await reader.headPosition();
    const seen: RecordedEvent[] = [];
    const subscription = await reader.subscribeToAll(
      async (e) => {
        if (e.streamId === slowStream || e.streamId === fastStream) seen.push(e);
      },
      { afterPosition: start },
    );

    // A slow writer (another process, as far as the store can tell) appends and does not commit yet.
    await writer.headPosition(); // the schema exists before the slow transaction starts
    const slow = await slowPool.connect();
    let slowResult: AppendResult;
    let fastResult: AppendResult;
    try {
      await slow.query('BEGIN');
      slowResult = await appendInTransaction(slow, slowStream, [event('Slow')], 'no_stream');

      // A fast append starts meanwhile; it must not become visible ahead of the slow one.
      const fast = writer.append(fastStream, [event('Fast')], 'no_stream');
      await new Promise((r) => setTimeout(r, 300));
      const visibleWhileOpen: RecordedEvent[] = [];
      for await (const page of reader.readAll(start))
        visibleWhileOpen.push(...page.filter((e) => e.streamId === slowStream || e.streamId === fastStream));
      expect(visibleWhileOpen).toEqual([]);
      expect(seen).toEqual([]);

      await slow.query('COMMIT');
      fastResult = await fast;
      await eventually(() => seen.length === 2, 3_000);
    } finally {
      await slow.query('ROLLBACK').catch(() => undefined);
      slow.release();
      await subscription.close();
    }

    expect(seen.map((e) => e.type)).toEqual(['Slow', 'Fast']);
    expect(seen.map((e) => e.position)).toEqual([slowResult.position, fastResult.position]);
    expect(fastResult.position).toBeGreaterThan(slowResult.position);
  });

  it('keeps every stream gap-free and the log strictly ordered when two clients race on one stream', async () => {
    const stream = unique('counter-');
    const start = await reader.headPosition();
    await writer.append(stream, [event('Opened')], 'no_stream');
    // Both clients decide on revision 0: exactly one append may win.
    const race = await Promise.allSettled([
      writer.append(stream, [event('Raced', { by: 'writer' })], 0),
      reader.append(stream, [event('Raced', { by: 'reader' })], 0),
    ]);
    expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = race.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(ConcurrencyError);
    expect(lost.reason).toMatchObject({ streamId: stream, expected: 0, actual: 1 });
    // Each client reads, decides and appends at the revision it read, as a command handler does.
    const increment = async (store: PostgresEventStore, by: string, times: number) => {
      let done = 0;
      while (done < times) {
        const current = await store.readStream(stream);
        try {
          await store.append(stream, [event('Incremented', { by })], current[current.length - 1].revision);
          done += 1;
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
        }
      }
    };
    await Promise.all([increment(writer, 'writer', 15), increment(reader, 'reader', 15)]);

    const events = await reader.readStream(stream);
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 32 }, (_, i) => i));
    const incrementsBy = (by: string) =>
      events.filter((e) => e.type === 'Incremented' && (e.data as { by: string }).by === by);
    expect(incrementsBy('writer')).toHaveLength(15);
    expect(incrementsBy('reader')).toHaveLength(15);
    const logged: RecordedEvent[] = [];
    for await (const page of writer.readAll(start, 7))
      logged.push(...page.filter((e) => e.streamId === stream));
    expect(logged.map((e) => e.id)).toEqual(events.map((e) => e.id));
    const positions = logged.map((e) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(32);
  });

  it('numbers a large append in one transaction, positions rising with revisions', async () => {
    const stream = unique('bulk-');
    const events = Array.from({ length: 2500 }, (_, i) => event('Chunk', { i }));
    const result = await writer.append(stream, events, 'no_stream');
    const read = await reader.readStream(stream);
    expect(result.nextExpectedRevision).toBe(2499);
    expect(read.map((e) => (e.data as { i: number }).i)).toEqual(events.map((_, i) => i));
    expect(read[2499].position).toBe(result.position);
    const positions = read.map((e) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
