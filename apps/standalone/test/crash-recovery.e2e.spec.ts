import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemoryReadStore,
  ProjectionRuntime,
  SqliteEventStore,
  type Doc,
  type Projector,
  type RecordedEvent,
} from '@analyst/platform';

const ROOT = join(__dirname, '../../..');

interface CounterDoc extends Doc {
  total: number;
  events: number;
}

const counters: Projector<CounterDoc> = {
  name: 'counters',
  collection: 'counters',
  eventTypes: ['Counted'],
  documentIds: (event: RecordedEvent) => [event.streamId],
  evolve: (doc, event, id) => ({
    _id: id,
    total: (doc?.total ?? 0) + (event.data as { by: number }).by,
    events: (doc?.events ?? 0) + 1,
  }),
};

/** Runs the burst child until `acks` appends were acknowledged, then kills it with SIGKILL. */
function burstAndKill(dir: string, acks: number): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'fixtures/append-burst.ts'), dir],
      {
        cwd: ROOT,
        env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const acknowledged = new Map<string, number>();
    let count = 0;
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const [word, stream, revision] = line.split(' ');
        if (word !== 'ack') continue;
        acknowledged.set(stream, Math.max(acknowledged.get(stream) ?? -1, Number(revision)));
        count += 1;
        if (count === acks) child.kill('SIGKILL');
      }
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(acknowledged) : reject(new Error(`child exited by itself (${signal})`)),
    );
  });
}

async function fold(store: SqliteEventStore): Promise<CounterDoc[]> {
  const readStore = new MemoryReadStore();
  const runtime = new ProjectionRuntime(readStore, [counters as unknown as Projector]);
  await runtime.rebuild(store);
  return (await readStore.collection<CounterDoc>('counters').find({}, { sort: { _id: 1 } })).map(
    ({ _id, total, events }) => ({
      _id,
      total,
      events,
    }),
  );
}

describe('crash recovery of the embedded event store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'analyst-crash-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loses no acknowledged append when killed with SIGKILL mid-burst, twice, and read models match a rebuild', async () => {
    const first = await burstAndKill(dir, 300 + Math.floor(Math.random() * 700));
    const second = await burstAndKill(dir, 300 + Math.floor(Math.random() * 700));

    const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
    for (const acked of [first, second]) {
      for (const [stream, revision] of acked) {
        const events = await store.readStream(stream);
        // Every acknowledged revision is there, with no gap and no half-written batch.
        expect(events.length).toBeGreaterThanOrEqual(revision + 1);
        expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
      }
    }

    // A live projection (as standalone runs it) after restart equals a fresh fold of the log.
    const readStore = new MemoryReadStore();
    const live = new ProjectionRuntime(readStore, [counters as unknown as Projector]);
    const subscription = await store.subscribeToAll((e) => live.apply(e));
    await live.waitFor(await store.headPosition(), 10_000);
    await subscription.close();
    const liveDocs = (await readStore.collection<CounterDoc>('counters').find({}, { sort: { _id: 1 } })).map(
      ({ _id, total, events }) => ({ _id, total, events }),
    );
    const rebuilt = await fold(store);
    expect(liveDocs).toEqual(rebuilt);
    for (const doc of rebuilt) {
      expect(doc.total).toBe((await store.readStream(doc._id)).length);
      expect(doc.total).toBeGreaterThanOrEqual((second.get(doc._id) ?? first.get(doc._id) ?? -1) + 1);
    }
    await store.close();
  });
});
