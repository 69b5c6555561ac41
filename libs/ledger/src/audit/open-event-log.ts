import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SqliteEventStore, type EventStore } from '@analyst/platform';

export interface EventLogLocation {
  dataDir?: string;
  eventStoreUrl?: string;
}

/**
 * Opens the event log the way the services find it: EventStoreDB when EVENTSTORE_URL is set,
 * otherwise the standalone SQLite file in ANALYST_DATA_DIR (read-only, safe while the server runs).
 */
export async function openEventLog(
  location: EventLogLocation,
): Promise<{ store: EventStore; describe: string }> {
  if (location.eventStoreUrl) {
    const platform = (await import('@analyst/platform')) as Record<string, unknown>;
    const Adapter = platform.EventStoreDbEventStore as
      (new (options: { connectionString: string }) => EventStore) | undefined;
    if (!Adapter) {
      throw new Error(
        'EVENTSTORE_URL is set but this build has no EventStoreDB adapter (EventStoreDbEventStore in @analyst/platform); unset it to audit the standalone SQLite log',
      );
    }
    return {
      store: new Adapter({ connectionString: location.eventStoreUrl }),
      describe: `EventStoreDB at ${location.eventStoreUrl}`,
    };
  }
  const filename = join(resolve(location.dataDir ?? './data'), 'events.db');
  if (!existsSync(filename)) {
    throw new Error(
      `no event log at ${filename}: set ANALYST_DATA_DIR (or --data-dir) to the server's data directory`,
    );
  }
  return { store: new SqliteEventStore({ filename, readonly: true }), describe: filename };
}
