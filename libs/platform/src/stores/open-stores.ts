import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EsdbEventStore } from '@analyst/adapter-eventstoredb';
import { MongoReadStore } from '@analyst/adapter-mongo';
import { PostgresEventStore } from '@analyst/adapter-postgres';
import { SqliteEventStore } from '@analyst/adapter-sqlite';
import { MemoryReadStore } from '@analyst/eventsourcing';
import type { EventStoreLocation, ReadStoreLocation } from './store-locations';

/** The adapter a location opens, so a caller that knows the kind keeps the concrete type. */
export type EventStoreAt<L extends EventStoreLocation> = L extends { kind: 'eventstoredb' }
  ? EsdbEventStore
  : L extends { kind: 'postgres' }
    ? PostgresEventStore
    : SqliteEventStore;

export type ReadStoreAt<L extends ReadStoreLocation> = L extends { kind: 'mongodb' }
  ? MongoReadStore
  : MemoryReadStore;

/**
 * The one place an event store is constructed from configuration (the apps, the operator CLI, the
 * tests). EventStoreDB and PostgreSQL connect lazily, on the first call; SQLite opens its file now.
 */
export function openEventStore<L extends EventStoreLocation>(location: L): EventStoreAt<L> {
  return openEventStoreOf(location) as EventStoreAt<L>;
}

function openEventStoreOf(
  location: EventStoreLocation,
): EsdbEventStore | PostgresEventStore | SqliteEventStore {
  switch (location.kind) {
    case 'eventstoredb':
      return new EsdbEventStore({ connectionString: location.connectionString, caFile: location.caFile });
    case 'postgres':
      return new PostgresEventStore({ connectionString: location.connectionString });
    case 'sqlite':
      if (location.access === 'read-only') {
        // SQLite would fail with "unable to open database file", which does not say which setting is wrong.
        if (!existsSync(location.filename))
          throw new Error(
            `no event log at ${location.filename}: point ANALYST_DATA_DIR (or ANALYST_EVENTSTORE=sqlite:<path>) at the server's log`,
          );
        return new SqliteEventStore({ filename: location.filename, readonly: true });
      }
      mkdirSync(dirname(location.filename), { recursive: true });
      return new SqliteEventStore({ filename: location.filename, pollIntervalMs: location.pollIntervalMs });
  }
}

/** The one place a read store is constructed from configuration; MongoDB is connected when it resolves. */
export async function openReadStore<L extends ReadStoreLocation>(location: L): Promise<ReadStoreAt<L>> {
  return (await openReadStoreOf(location)) as ReadStoreAt<L>;
}

async function openReadStoreOf(location: ReadStoreLocation): Promise<MongoReadStore | MemoryReadStore> {
  switch (location.kind) {
    case 'memory':
      return new MemoryReadStore();
    case 'mongodb':
      return MongoReadStore.connect(location.url, location.database, location.conditionalWrites, {
        caFile: location.caFile,
      });
  }
}
