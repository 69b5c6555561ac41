import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type EventStoreDBClient,
  type Position,
} from '@eventstore/db-client';
import { eventStoreContract, unique } from '@analyst/testing';
import { EsdbEventStore } from '../src/esdb-event-store';
import { esdbEventId } from '../src/esdb-event-id';

// ---------------------------------------------------------------------------------------------
// Against a real EventStoreDB: EVENTSTORE_URL, else a container when a Docker engine answers.
// ---------------------------------------------------------------------------------------------

const IMAGE = 'eventstore/eventstore:24.10';

/**
 * Asks testcontainers whether a container runtime is reachable, in a child process: jest registers
 * tests synchronously, and a missing Docker must neither throw at import nor leave handles open.
 */
function dockerReachable(): boolean {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      "require('testcontainers').getContainerRuntimeClient().then(() => process.exit(0), () => process.exit(1))",
    ],
    { cwd: __dirname, stdio: 'ignore', timeout: 30_000 },
  );
  return probe.status === 0;
}

const url = process.env.EVENTSTORE_URL;

if (url) {
  eventStoreContract(
    `EventStoreDB at ${url}`,
    async () => ({
      store: new EsdbEventStore({ connectionString: url }),
      peer: () => new EsdbEventStore({ connectionString: url }),
    }),
    { teamHead: 'head' },
  );
} else if (dockerReachable()) {
  // One container for the file; each test gets its own client, and unique stream names keep tests apart.
  let container: Promise<import('testcontainers').StartedTestContainer> | null = null;
  const start = async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    return new GenericContainer(IMAGE)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_CLUSTER_SIZE: '1',
        EVENTSTORE_MEM_DB: 'true',
        EVENTSTORE_RUN_PROJECTIONS: 'None',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .withStartupTimeout(180_000)
      .start();
  };
  beforeAll(async () => {
    container = start();
    await container;
  }, 240_000);
  afterAll(async () => {
    await (await container)?.stop();
  });
  eventStoreContract(
    `EventStoreDB (${IMAGE} in Docker)`,
    async () => {
      const started = await container!;
      const connectionString = `esdb://${started.getHost()}:${started.getMappedPort(2113)}?tls=false`;
      return {
        store: new EsdbEventStore({ connectionString }),
        peer: () => new EsdbEventStore({ connectionString }),
      };
    },
    { teamHead: 'head' },
  );
} else {
  describe('EventStore contract: EventStoreDB', () => {
    it.skip('skipped: no EventStoreDB (set EVENTSTORE_URL or provide a Docker engine)', () => undefined);
  });
}

// ---------------------------------------------------------------------------------------------
// Without a server: the adapter's own logic (id mapping, position probing, paging, catch-up then
// live) over a small stand-in for the gRPC client that follows ESDB's documented read semantics:
// forward reads include the record at their position, backward reads stop before it, a position
// that is not a record boundary is an error, and `$all` holds system events between ours.
// ---------------------------------------------------------------------------------------------

interface FakeRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  isJson: true;
  created: Date;
  position: Position;
}

type ReadOpts = {
  fromPosition?: 'start' | 'end' | Position;
  maxCount?: number | bigint;
  direction?: 'forwards' | 'backwards';
};

class FakeEsdb {
  readonly log: FakeRecord[] = [];
  private next = 1_000n;
  private readonly live = new Set<() => void>();

  constructor() {
    this.write('$settings', [{ id: randomUUID(), type: '$settings', data: {}, metadata: undefined }], 0n);
  }

  private write(
    streamId: string,
    events: Array<{ id: string; type: string; data: unknown; metadata: unknown }>,
    revision: bigint,
  ) {
    let r = revision;
    for (const e of events) {
      const position = { commit: this.next, prepare: this.next };
      // Records have sizes, so positions are sparse, as in a real transaction file.
      this.next += 137n + BigInt(JSON.stringify(e.data ?? null).length);
      this.log.push({
        streamId,
        id: e.id,
        type: e.type,
        revision: r++,
        data: e.data,
        metadata: e.metadata,
        isJson: true,
        created: new Date(),
        position,
      });
    }
    for (const wake of this.live) wake();
  }

  private indexAt(position: Position): number {
    const index = this.log.findIndex((r) => r.position.commit === position.commit);
    if (index < 0 && position.commit <= this.log[this.log.length - 1].position.commit)
      throw new Error('Invalid position');
    return index < 0 ? this.log.length : index;
  }

  readonly client = {
    appendToStream: async (
      streamId: string,
      events: Array<{ id: string; type: string; data: unknown; metadata: unknown }>,
      options: { expectedRevision: 'any' | 'no_stream' | bigint },
    ) => {
      await Promise.resolve();
      const current = this.log.filter((r) => r.streamId === streamId).length - 1;
      const expected = options.expectedRevision;
      const ok =
        expected === 'any' || (expected === 'no_stream' ? current === -1 : BigInt(current) === expected);
      if (!ok) {
        throw new WrongExpectedVersionError(undefined, {
          streamName: streamId,
          expected,
          current: current === -1 ? NO_STREAM : BigInt(current),
        });
      }
      // Events travel as JSON, as over gRPC.
      this.write(streamId, JSON.parse(JSON.stringify(events)), BigInt(current + 1));
      const last = this.log[this.log.length - 1];
      return { success: true, nextExpectedRevision: last.revision, position: last.position };
    },
    readStream: (
      streamId: string,
      options: { fromRevision?: bigint | 'end'; direction?: 'forwards' | 'backwards'; maxCount?: number },
    ) => {
      const records = this.log.filter((r) => r.streamId === streamId);
      const backwards = options.direction === 'backwards';
      const from = options.fromRevision === 'end' ? BigInt(records.length) : (options.fromRevision ?? 0n);
      const read = (backwards ? [...records].reverse() : records).filter((r) =>
        backwards ? r.revision <= from : r.revision >= from,
      );
      return (async function* () {
        if (records.length === 0) throw new StreamNotFoundError(undefined, streamId);
        for (const r of read.slice(0, options.maxCount ?? read.length)) yield { event: structuredClone(r) };
      })();
    },
    readAll: (options: ReadOpts = {}) => {
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const from = options.fromPosition ?? 'start';
      let slice: FakeRecord[];
      if ((options.direction ?? 'forwards') === 'forwards') {
        const start = from === 'start' ? 0 : from === 'end' ? this.log.length : this.indexAt(from);
        slice = this.log.slice(start, start + max);
      } else {
        const end = from === 'end' ? this.log.length : from === 'start' ? 0 : this.indexAt(from);
        slice = this.log.slice(Math.max(0, end - max), end).reverse();
      }
      return (async function* () {
        for (const r of slice) yield { event: structuredClone(r) };
      })();
    },
    subscribeToAll: (options: { fromPosition?: 'start' | 'end' | Position; filter?: { regex?: string } }) => {
      let cursor =
        options.fromPosition === undefined || options.fromPosition === 'start'
          ? 0
          : options.fromPosition === 'end'
            ? this.log.length
            : this.indexAt(options.fromPosition) + 1;
      const regex = options.filter?.regex ? new RegExp(options.filter.regex) : null;
      let stopped = false;
      let wake: (() => void) | null = null;
      const onAppend = () => wake?.();
      this.live.add(onAppend);
      const { log, live } = this;
      return {
        async *[Symbol.asyncIterator]() {
          while (!stopped) {
            while (cursor < log.length && !stopped) {
              const r = log[cursor++];
              if (!regex || regex.test(r.type)) yield { event: structuredClone(r) };
            }
            if (stopped) return;
            await new Promise<void>((resolve) => (wake = resolve));
          }
        },
        unsubscribe: async () => {
          stopped = true;
          live.delete(onAppend);
        },
        destroy: () => {
          stopped = true;
          wake?.();
        },
      };
    },
    dispose: async () => undefined,
  };
}

// No empty-log case: $all always holds the server's own events (the stand-in's too).
eventStoreContract(
  'EventStoreDB adapter over an in-memory stand-in for the gRPC client',
  async () => ({
    store: new EsdbEventStore({ client: new FakeEsdb().client as unknown as EventStoreDBClient }),
  }),
  { teamHead: 'head' },
);

describe('EsdbEventStore mapping (no server)', () => {
  const event = (id: string) => ({
    id,
    type: 'CreditsReserved',
    schemaVersion: 3,
    data: { amount: 2 },
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: '2026-01-01T00:00:00.000Z' },
  });

  it('derives a stable RFC 4122 version-5-layout UUID for ids that are not lower-case UUIDs', () => {
    const uuid = randomUUID();
    expect(esdbEventId(uuid)).toEqual({ uuid, derived: false });
    const derived = esdbEventId('evt_01HZX');
    expect(derived.derived).toBe(true);
    expect(derived.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(esdbEventId('evt_01HZX').uuid).toBe(derived.uuid);
    expect(esdbEventId('evt_01HZY').uuid).not.toBe(derived.uuid);
    expect(esdbEventId(uuid.toUpperCase()).derived).toBe(true);
  });

  it('round-trips non-UUID ids and the schema version through ESDB metadata, which stays ours', async () => {
    const fake = new FakeEsdb();
    const store = new EsdbEventStore({ client: fake.client as unknown as EventStoreDBClient });
    const stream = unique('post-');
    await store.append(stream, [event('evt_custom_1')], 'no_stream');
    const stored = fake.log[fake.log.length - 1];
    expect(stored.id).toBe(esdbEventId('evt_custom_1').uuid);
    expect(stored.metadata).toMatchObject({ schemaVersion: 3, originalEventId: 'evt_custom_1', teamId: 't' });
    const [read] = await store.readStream(stream);
    expect(read).toMatchObject({
      id: 'evt_custom_1',
      schemaVersion: 3,
      metadata: event('x').metadata,
      revision: 0,
    });
    expect(Object.keys(read.metadata).sort()).toEqual([
      'causationId',
      'correlationId',
      'occurredAt',
      'teamId',
    ]);
    await store.close();
  });

  it('reports the actual revision in the concurrency error and hides system events from readAll', async () => {
    const fake = new FakeEsdb();
    const store = new EsdbEventStore({ client: fake.client as unknown as EventStoreDBClient });
    const stream = unique('post-');
    await store.append(stream, [event(randomUUID()), event(randomUUID())], 'no_stream');
    const failure = await store.append(stream, [event(randomUUID())], 0).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'ConcurrencyError', streamId: stream, expected: 0, actual: 1 });
    const all = [];
    for await (const page of store.readAll(-1, 1)) all.push(...page);
    expect(all.map((e) => e.streamId)).toEqual([stream, stream]);
    await store.close();
  });
});
