import { join, resolve } from 'node:path';
import type { AnalystConfig } from '../config/analyst-config';
import type { EventStoreLocation, ReadStoreLocation } from './store-locations';

/** The configuration that places the stores: a subset of AnalystConfig, so a loaded config is one. */
export type StoreSettings = Partial<
  Pick<
    AnalystConfig,
    | 'ANALYST_MODE'
    | 'ANALYST_DATA_DIR'
    | 'EVENTSTORE_URL'
    | 'EVENTSTORE_CA_FILE'
    | 'ANALYST_EVENTSTORE'
    | 'MONGO_URL'
    | 'MONGO_DB'
    | 'MONGO_CONDITIONAL_WRITES'
    | 'MONGO_CA_FILE'
  >
>;

const SHARED_SQLITE = 'sqlite:';
/** ANALYST_EVENTSTORE values that name a PostgreSQL database (libs/adapter-postgres). */
const POSTGRES_URL = /^postgres(ql)?:\/\//;
/** Processes sharing one SQLite file look for each other's appends this often. */
const SHARED_SQLITE_POLL_MS = 25;

/**
 * The event log of a topology. Standalone: `events.db` in ANALYST_DATA_DIR (default `./data`).
 * Distributed: EVENTSTORE_URL (EventStoreDB, the production store), else ANALYST_EVENTSTORE: the file
 * `sqlite:<path>` shared by the processes of one machine, or a PostgreSQL database `postgres://…`;
 * neither is an error, never a silent fallback to a local file nobody else writes. POSTGRES_URL (the
 * local stack's) selects nothing: the event store is always asked for by name.
 */
export function eventStoreLocation(
  settings: StoreSettings,
  access: 'read-write' | 'read-only' = 'read-write',
): EventStoreLocation {
  if (settings.ANALYST_MODE !== 'distributed') {
    const filename = join(resolve(settings.ANALYST_DATA_DIR ?? './data'), 'events.db');
    return { kind: 'sqlite', filename, access };
  }
  if (settings.EVENTSTORE_URL) {
    return {
      kind: 'eventstoredb',
      connectionString: settings.EVENTSTORE_URL,
      ...(settings.EVENTSTORE_CA_FILE ? { caFile: settings.EVENTSTORE_CA_FILE } : {}),
    };
  }
  if (settings.ANALYST_EVENTSTORE?.startsWith(SHARED_SQLITE)) {
    const filename = resolve(settings.ANALYST_EVENTSTORE.slice(SHARED_SQLITE.length));
    return { kind: 'sqlite', filename, access, pollIntervalMs: SHARED_SQLITE_POLL_MS };
  }
  if (settings.ANALYST_EVENTSTORE && POSTGRES_URL.test(settings.ANALYST_EVENTSTORE)) {
    return { kind: 'postgres', connectionString: settings.ANALYST_EVENTSTORE };
  }
  throw new Error(
    'EVENTSTORE_URL or ANALYST_EVENTSTORE=sqlite:<path> or postgres://<database url> is required when ANALYST_MODE=distributed',
  );
}

/** The read models of a topology: in the process's memory standalone, MongoDB distributed. */
export function readStoreLocation(settings: StoreSettings): ReadStoreLocation {
  if (settings.ANALYST_MODE !== 'distributed') return { kind: 'memory' };
  if (!settings.MONGO_URL) throw new Error('MONGO_URL is required when ANALYST_MODE=distributed');
  return {
    kind: 'mongodb',
    url: settings.MONGO_URL,
    database: settings.MONGO_DB ?? 'analyst',
    conditionalWrites: settings.MONGO_CONDITIONAL_WRITES ?? 'server',
    ...(settings.MONGO_CA_FILE ? { caFile: settings.MONGO_CA_FILE } : {}),
  };
}

const SETTING_NAMES = [
  'ANALYST_DATA_DIR',
  'EVENTSTORE_URL',
  'EVENTSTORE_CA_FILE',
  'ANALYST_EVENTSTORE',
  'MONGO_URL',
  'MONGO_DB',
  'MONGO_CA_FILE',
] as const;

/**
 * The settings an operator command reads from its environment: the variables the services read,
 * unvalidated beyond what placing the stores needs (a CLI has no Kafka or secrets to check). Without
 * ANALYST_MODE, a server event store (EVENTSTORE_URL or ANALYST_EVENTSTORE) means the distributed
 * topology, since that is the only one that has such a store.
 */
export function storeSettingsFromEnv(env: Record<string, string | undefined> = process.env): StoreSettings {
  const settings: StoreSettings = {};
  for (const name of SETTING_NAMES) {
    const value = env[name];
    if (value) settings[name] = value;
  }
  const mode = env.ANALYST_MODE;
  if (mode !== undefined && mode !== '' && mode !== 'standalone' && mode !== 'distributed')
    throw new Error(`ANALYST_MODE must be standalone or distributed, not ${mode}`);
  settings.ANALYST_MODE =
    mode === 'standalone' || mode === 'distributed'
      ? mode
      : settings.EVENTSTORE_URL || settings.ANALYST_EVENTSTORE
        ? 'distributed'
        : 'standalone';
  const writes = env.MONGO_CONDITIONAL_WRITES;
  if (writes === 'server' || writes === 'client') settings.MONGO_CONDITIONAL_WRITES = writes;
  else if (writes) throw new Error(`MONGO_CONDITIONAL_WRITES must be server or client, not ${writes}`);
  return settings;
}
