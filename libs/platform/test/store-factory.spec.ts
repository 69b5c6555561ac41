import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import {
  EVENT_STORE,
  EsdbEventStore,
  MemoryReadStore,
  MongoReadStore,
  PlatformModule,
  PostgresEventStore,
  READ_STORE,
  SqliteEventStore,
  describeEventStore,
  describeReadStore,
  eventStoreLocation,
  loadConfig,
  openEventStore,
  openReadStore,
  readStoreLocation,
  storeSettingsFromEnv,
  type ConditionalWrites,
  type NewEvent,
} from '@analyst/platform';
import { unique } from '@analyst/testing';

function event(): NewEvent {
  return {
    id: randomUUID(),
    type: 'Probed',
    schemaVersion: 1,
    data: {},
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

describe('store locations from configuration', () => {
  it('standalone: the SQLite log in ANALYST_DATA_DIR (read-write, or read-only for the audit) and read models in memory', () => {
    const settings = {
      ANALYST_MODE: 'standalone',
      ANALYST_DATA_DIR: '/srv/data',
      EVENTSTORE_URL: 'esdb://x',
    } as const;
    expect(eventStoreLocation(settings)).toEqual({
      kind: 'sqlite',
      filename: '/srv/data/events.db',
      access: 'read-write',
    });
    expect(eventStoreLocation(settings, 'read-only')).toEqual({
      kind: 'sqlite',
      filename: '/srv/data/events.db',
      access: 'read-only',
    });
    expect(readStoreLocation({ ...settings, MONGO_URL: 'mongodb://m/' })).toEqual({ kind: 'memory' });
  });

  it('distributed: EventStoreDB, or the shared SQLite file polled for other processes, and MongoDB', () => {
    const distributed = {
      ANALYST_MODE: 'distributed',
      EVENTSTORE_URL: 'esdb://es:2113?tls=true',
      EVENTSTORE_CA_FILE: '/ca/es.pem',
      MONGO_URL: 'mongodb://m:27017/',
      MONGO_DB: 'prod',
      MONGO_CONDITIONAL_WRITES: 'client',
      MONGO_CA_FILE: '/ca/m.pem',
    } as const;
    expect(eventStoreLocation(distributed)).toEqual({
      kind: 'eventstoredb',
      connectionString: 'esdb://es:2113?tls=true',
      caFile: '/ca/es.pem',
    });
    expect(readStoreLocation(distributed)).toEqual({
      kind: 'mongodb',
      url: 'mongodb://m:27017/',
      database: 'prod',
      conditionalWrites: 'client',
      caFile: '/ca/m.pem',
    });
    expect(
      eventStoreLocation({ ANALYST_MODE: 'distributed', ANALYST_EVENTSTORE: 'sqlite:/srv/log/events.db' }),
    ).toEqual({
      kind: 'sqlite',
      filename: '/srv/log/events.db',
      access: 'read-write',
      pollIntervalMs: 25,
    });
    expect(() => eventStoreLocation({ ANALYST_MODE: 'distributed' })).toThrow(
      'EVENTSTORE_URL or ANALYST_EVENTSTORE=sqlite:<path> or postgres://<database url> is required when ANALYST_MODE=distributed',
    );
    expect(() => readStoreLocation({ ANALYST_MODE: 'distributed' })).toThrow('MONGO_URL is required');
  });

  it('distributed on PostgreSQL: ANALYST_EVENTSTORE=postgres://… (or postgresql://); POSTGRES_URL alone selects nothing', () => {
    expect(
      eventStoreLocation({
        ANALYST_MODE: 'distributed',
        ANALYST_EVENTSTORE: 'postgres://u:pw@pg:5432/analyst',
      }),
    ).toEqual({ kind: 'postgres', connectionString: 'postgres://u:pw@pg:5432/analyst' });
    expect(
      eventStoreLocation(
        { ANALYST_MODE: 'distributed', ANALYST_EVENTSTORE: 'postgresql://pg/analyst' },
        'read-only',
      ),
    ).toEqual({ kind: 'postgres', connectionString: 'postgresql://pg/analyst' });
    const fromEnv = storeSettingsFromEnv({
      ANALYST_EVENTSTORE: 'postgres://pg/analyst',
      MONGO_URL: 'mongodb://m/',
    });
    expect(fromEnv).toEqual({
      ANALYST_MODE: 'distributed',
      ANALYST_EVENTSTORE: 'postgres://pg/analyst',
      MONGO_URL: 'mongodb://m/',
    });
    expect(eventStoreLocation(fromEnv)).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://pg/analyst',
    });
    expect(storeSettingsFromEnv({ POSTGRES_URL: 'postgres://pg/analyst' })).toEqual({
      ANALYST_MODE: 'standalone',
    });
    const config = loadConfig({
      ANALYST_MODE: 'distributed',
      ANALYST_EVENTSTORE: 'postgres://pg/analyst',
      KAFKA_BROKERS: 'k:9092',
      MONGO_URL: 'mongodb://m/',
      ANALYST_INTERNAL_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'silent',
    });
    expect(eventStoreLocation(config)).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://pg/analyst',
    });
  });

  it('an operator command reads the same variables; a server event store without ANALYST_MODE means distributed', () => {
    expect(
      storeSettingsFromEnv({
        EVENTSTORE_URL: 'esdb://es:2113',
        MONGO_URL: 'mongodb://m/',
        KAFKA_BROKERS: 'k:9092',
      }),
    ).toEqual({
      ANALYST_MODE: 'distributed',
      EVENTSTORE_URL: 'esdb://es:2113',
      MONGO_URL: 'mongodb://m/',
    });
    expect(
      storeSettingsFromEnv({ ANALYST_DATA_DIR: '/srv/data', MONGO_URL: 'mongodb://m/' }).ANALYST_MODE,
    ).toBe('standalone');
    expect(
      storeSettingsFromEnv({ ANALYST_MODE: 'standalone', EVENTSTORE_URL: 'esdb://es' }).ANALYST_MODE,
    ).toBe('standalone');
    expect(() => storeSettingsFromEnv({ ANALYST_MODE: 'cluster' })).toThrow(
      'ANALYST_MODE must be standalone or distributed',
    );
    expect(() => storeSettingsFromEnv({ MONGO_CONDITIONAL_WRITES: 'maybe' })).toThrow(
      'MONGO_CONDITIONAL_WRITES',
    );
  });

  it('names stores without their passwords', () => {
    expect(
      describeEventStore({
        kind: 'eventstoredb',
        connectionString: 'esdb://admin:changeit@es:2113?tls=true',
      }),
    ).toBe('EventStoreDB at esdb://admin:***@es:2113?tls=true');
    expect(
      describeReadStore({
        kind: 'mongodb',
        url: 'mongodb://u:p@m:27017/',
        database: 'analyst',
        conditionalWrites: 'server',
      }),
    ).toBe('MongoDB database analyst at mongodb://u:***@m:27017/');
    expect(
      describeEventStore({ kind: 'postgres', connectionString: 'postgres://analyst:s3cret@pg:5432/analyst' }),
    ).toBe('PostgreSQL at postgres://analyst:***@pg:5432/analyst');
    expect(describeEventStore({ kind: 'sqlite', filename: '/srv/events.db', access: 'read-only' })).toBe(
      'SQLite log /srv/events.db (read-only)',
    );
    expect(describeReadStore({ kind: 'memory' })).toBe('in memory');
  });
});

describe('opening stores', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'stores-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('SQLite read-write creates the file (and its directory); read-only reads it and refuses writes', async () => {
    const filename = join(dir, 'nested', 'events.db');
    const writer = openEventStore({ kind: 'sqlite', filename, access: 'read-write' });
    expect(writer).toBeInstanceOf(SqliteEventStore);
    const { position } = await writer.append('probe-1', [event()], 'no_stream');
    await writer.close();
    expect(existsSync(filename)).toBe(true);

    const reader = openEventStore({ kind: 'sqlite', filename, access: 'read-only' });
    expect(await reader.headPosition()).toBe(position);
    // Compared by message: the native module's errors come from the realm of the first test file that
    // loaded it, so in a full run they are no `Error` of this file's realm and `rejects.toThrow` misses them.
    const refused = await reader.append('probe-2', [event()], 'no_stream').then(
      (result) => `appended: ${JSON.stringify(result)}`,
      (error: unknown) => String((error as { message?: unknown }).message ?? error),
    );
    expect(refused).toMatch(/readonly/i);
    await reader.close();
  });

  it('SQLite read-only refuses a missing file, naming it and the settings that place it', () => {
    const filename = join(dir, 'events.db');
    expect(() => openEventStore({ kind: 'sqlite', filename, access: 'read-only' })).toThrow(
      `no event log at ${filename}: point ANALYST_DATA_DIR (or ANALYST_EVENTSTORE=sqlite:<path>) at the server's log`,
    );
    expect(existsSync(filename)).toBe(false);
  });

  it('EventStoreDB is the EventStoreDB adapter, constructed without a server (it connects on first use)', async () => {
    const store = openEventStore({ kind: 'eventstoredb', connectionString: 'esdb://127.0.0.1:1?tls=false' });
    expect(store).toBeInstanceOf(EsdbEventStore);
    await store.close();
  });

  it('PostgreSQL is the PostgreSQL adapter, constructed without a server (it connects on first use)', async () => {
    const store = openEventStore({ kind: 'postgres', connectionString: 'postgres://127.0.0.1:1/analyst' });
    expect(store).toBeInstanceOf(PostgresEventStore);
    await store.close();
  });

  it('in-memory read models are a MemoryReadStore', async () => {
    const store = await openReadStore({ kind: 'memory' });
    expect(store).toBeInstanceOf(MemoryReadStore);
    await store.close();
  });

  it('the standalone platform opens its stores through the factory', async () => {
    const config = loadConfig({ ANALYST_DATA_DIR: dir, LOG_LEVEL: 'silent' });
    const moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config)] }).compile();
    expect(moduleRef.get(EVENT_STORE)).toBeInstanceOf(SqliteEventStore);
    expect(moduleRef.get(READ_STORE)).toBeInstanceOf(MemoryReadStore);
    await moduleRef.close();
    expect(existsSync(join(dir, 'events.db'))).toBe(true);
  });
});

const mongoUrl = process.env.MONGO_URL;
(mongoUrl ? describe : describe.skip)('opening MongoDB read models (MONGO_URL)', () => {
  it('connects a MongoReadStore to the configured database', async () => {
    const database = unique('analyst_stores_');
    const location = readStoreLocation({
      ANALYST_MODE: 'distributed',
      MONGO_URL: mongoUrl,
      MONGO_DB: database,
      MONGO_CONDITIONAL_WRITES:
        (process.env.MONGO_CONDITIONAL_WRITES as ConditionalWrites | undefined) ?? 'server',
    });
    const opened = await openReadStore(location);
    expect(opened).toBeInstanceOf(MongoReadStore);
    const store = opened as MongoReadStore;
    try {
      await store.collection('probe').insertOne({ _id: 'p', n: 1 });
      expect(store.database.databaseName).toBe(database);
      expect(await store.collection('probe').findOne({ _id: 'p' })).toEqual({ _id: 'p', n: 1 });
    } finally {
      await store.database.dropDatabase();
      await store.close();
    }
  });
});

const esdbUrl = process.env.EVENTSTORE_URL;
(esdbUrl ? describe : describe.skip)('opening EventStoreDB (EVENTSTORE_URL)', () => {
  it('appends and reads through the EventStoreDB adapter', async () => {
    const store = openEventStore(
      eventStoreLocation({ ANALYST_MODE: 'distributed', EVENTSTORE_URL: esdbUrl }),
    );
    try {
      expect(store).toBeInstanceOf(EsdbEventStore);
      const stream = `probe-${randomUUID()}`;
      const { position } = await store.append(stream, [event()], 'no_stream');
      expect(await store.headPosition()).toBeGreaterThanOrEqual(position);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['Probed']);
    } finally {
      await store.close();
    }
  });
});

const postgresUrl = process.env.POSTGRES_URL;
(postgresUrl ? describe : describe.skip)('opening PostgreSQL (POSTGRES_URL)', () => {
  it('appends and reads through the PostgreSQL adapter chosen by ANALYST_EVENTSTORE', async () => {
    const location = eventStoreLocation({ ANALYST_MODE: 'distributed', ANALYST_EVENTSTORE: postgresUrl });
    expect(location.kind).toBe('postgres');
    const store = openEventStore(location);
    try {
      expect(store).toBeInstanceOf(PostgresEventStore);
      const stream = `probe-${randomUUID()}`;
      const { position } = await store.append(stream, [event()], 'no_stream');
      expect(await store.headPosition()).toBeGreaterThanOrEqual(position);
      expect((await store.readStream(stream)).map((e) => [e.type, e.position])).toEqual([
        ['Probed', position],
      ]);
    } finally {
      await store.close();
    }
  });
});
