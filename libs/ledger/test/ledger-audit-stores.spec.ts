import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { EsdbEventStore, openEventStore, SqliteEventStore, type NewEvent } from '@analyst/platform';
import { auditLocations, openAuditStores } from '@analyst/ledger';
import { adminCall } from '../../gateway/src/cli/admin-client';
import { registerLedgerCli } from '../src/cli/ledger-cli';

// Where `ledger audit` reads: the variables the services read, through the platform's store factory.

const ESDB = 'esdb://auditor:s3cret@127.0.0.1:1?tls=false';

function event(): NewEvent {
  return {
    id: randomUUID(),
    type: 'CreditsGranted',
    schemaVersion: 1,
    data: {},
    metadata: { correlationId: 'c', causationId: null, teamId: 't', occurredAt: '2026-03-10T12:00:00.000Z' },
  };
}

describe('ledger audit store locations', () => {
  it('reads EventStoreDB when EVENTSTORE_URL is set, through the EventStoreDB adapter', async () => {
    const locations = auditLocations({}, { EVENTSTORE_URL: ESDB, EVENTSTORE_CA_FILE: '/etc/ca.pem' });
    expect(locations).toEqual({
      events: { kind: 'eventstoredb', connectionString: ESDB, caFile: '/etc/ca.pem' },
      liveReadModels: null,
    });
    const stores = await openAuditStores(auditLocations({}, { EVENTSTORE_URL: ESDB }));
    try {
      // Constructed, not connected: EventStoreDB is reached on the first read.
      expect(stores.events).toBeInstanceOf(EsdbEventStore);
      expect(stores.describe).toBe('EventStoreDB at esdb://auditor:***@127.0.0.1:1?tls=false');
      expect(stores.live).toBeNull();
    } finally {
      await stores.close();
    }
  });

  it('gives the flags precedence over the environment', () => {
    const env = { EVENTSTORE_URL: ESDB, ANALYST_DATA_DIR: '/srv/other' };
    expect(auditLocations({ dataDir: '/srv/data' }, env).events).toEqual({
      kind: 'sqlite',
      filename: '/srv/data/events.db',
      access: 'read-only',
    });
    expect(
      auditLocations({ eventstoreUrl: 'esdb://other:2113' }, { ANALYST_DATA_DIR: '/srv/data' }).events,
    ).toEqual({
      kind: 'eventstoredb',
      connectionString: 'esdb://other:2113',
    });
  });

  it('reads the shared SQLite file of ANALYST_EVENTSTORE read-only, and the standalone data directory by default', () => {
    expect(auditLocations({}, { ANALYST_EVENTSTORE: 'sqlite:/srv/shared/events.db' }).events).toEqual({
      kind: 'sqlite',
      filename: '/srv/shared/events.db',
      access: 'read-only',
      pollIntervalMs: 25,
    });
    expect(auditLocations({}, {}).events).toEqual({
      kind: 'sqlite',
      filename: join(resolve('./data'), 'events.db'),
      access: 'read-only',
    });
  });

  it('compares live MongoDB read models in the distributed topology or with --mongo-url, never standalone', () => {
    const mongo = {
      kind: 'mongodb',
      url: 'mongodb://m:27017/',
      database: 'prod',
      conditionalWrites: 'server',
    };
    expect(
      auditLocations({}, { EVENTSTORE_URL: ESDB, MONGO_URL: 'mongodb://m:27017/', MONGO_DB: 'prod' })
        .liveReadModels,
    ).toEqual(mongo);
    // A standalone server keeps its read models in its memory: a MONGO_URL in the shell is not them.
    expect(auditLocations({}, { MONGO_URL: 'mongodb://m:27017/' }).liveReadModels).toBeNull();
    expect(
      auditLocations({ mongoUrl: 'mongodb://m:27017/', mongoDb: 'prod' }, { ANALYST_DATA_DIR: '/srv' })
        .liveReadModels,
    ).toEqual(mongo);
  });

  it('opens a standalone log as a read-only SQLite store, and names a data directory without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-stores-'));
    try {
      await expect(openAuditStores(auditLocations({ dataDir: dir }, {}))).rejects.toThrow(
        `no event log at ${join(dir, 'events.db')}`,
      );
      const writer = openEventStore({
        kind: 'sqlite',
        filename: join(dir, 'events.db'),
        access: 'read-write',
      });
      await writer.append('ledger-t', [event()], 'no_stream');
      await writer.close();
      const stores = await openAuditStores(auditLocations({ dataDir: dir }, {}));
      try {
        expect(stores.events).toBeInstanceOf(SqliteEventStore);
        expect(stores.describe).toBe(`SQLite log ${join(dir, 'events.db')} (read-only)`);
        expect(await stores.events.headPosition()).toBeGreaterThanOrEqual(0);
        const refused = await stores.events.append('ledger-t', [event()], 0).then(
          (result) => `appended: ${JSON.stringify(result)}`,
          (error: unknown) => String(error),
        );
        expect(refused).toMatch(/readonly/i);
      } finally {
        await stores.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`ledger audit` with EVENTSTORE_URL reaches for EventStoreDB (an unreachable server is named, not "no adapter")', async () => {
    const program = new Command('analyst').option('--json').exitOverride();
    registerLedgerCli(program, { admin: adminCall });
    const saved = process.env.EVENTSTORE_URL;
    process.env.EVENTSTORE_URL = 'esdb://127.0.0.1:1?tls=false';
    try {
      await expect(
        program.parseAsync(['node', 'analyst', 'ledger', 'audit', '--ledger-only']),
      ).rejects.toThrow(
        /^cannot read the event log \(EventStoreDB at esdb:\/\/127\.0\.0\.1:1\?tls=false\): .*UNAVAILABLE/,
      );
    } finally {
      if (saved === undefined) delete process.env.EVENTSTORE_URL;
      else process.env.EVENTSTORE_URL = saved;
    }
  });
});
