import {
  describeEventStore,
  describeReadStore,
  eventStoreLocation,
  openEventStore,
  openReadStore,
  readStoreLocation,
  ReadStoreCheckpointStore,
  storeSettingsFromEnv,
  type CheckpointStore,
  type EventStore,
  type EventStoreLocation,
  type ReadStore,
  type ReadStoreLocation,
} from '@analyst/platform';

/** The audit's flags that place the stores; each wins over the environment variable it stands for. */
export interface AuditStoreFlags {
  dataDir?: string;
  eventstoreUrl?: string;
  mongoUrl?: string;
  mongoDb?: string;
}

export interface AuditLocations {
  /** The log, always opened read-only (the audit never writes, and runs beside a live server). */
  events: EventStoreLocation;
  /** Live read models to compare with: MongoDB only, since standalone keeps them in the server's memory. */
  liveReadModels: Extract<ReadStoreLocation, { kind: 'mongodb' }> | null;
}

/**
 * The live ledger projection's checkpoint: ProjectionService names it `projections:<ANALYST_SERVICE>`,
 * and the ledger app runs as ANALYST_SERVICE=ledger (deploy/k8s/base/ledger.yaml).
 */
export const LEDGER_PROJECTION_CHECKPOINT = 'projections:ledger';

/**
 * Where the audit reads, from the variables the services read (storeSettingsFromEnv) with the
 * flags over them: `--eventstore-url` means EventStoreDB, `--data-dir` a standalone data directory.
 */
export function auditLocations(
  flags: AuditStoreFlags,
  env: Record<string, string | undefined> = process.env,
): AuditLocations {
  const overrides: Record<string, string> = {};
  if (flags.eventstoreUrl)
    Object.assign(overrides, { EVENTSTORE_URL: flags.eventstoreUrl, ANALYST_MODE: 'distributed' });
  else if (flags.dataDir)
    Object.assign(overrides, { ANALYST_DATA_DIR: flags.dataDir, ANALYST_MODE: 'standalone' });
  if (flags.mongoDb) overrides.MONGO_DB = flags.mongoDb;
  const settings = storeSettingsFromEnv({ ...env, ...overrides });
  const mongoUrl =
    flags.mongoUrl ?? (settings.ANALYST_MODE === 'distributed' ? settings.MONGO_URL : undefined);
  const live = mongoUrl
    ? readStoreLocation({ ...settings, ANALYST_MODE: 'distributed', MONGO_URL: mongoUrl })
    : null;
  return {
    events: eventStoreLocation(settings, 'read-only'),
    liveReadModels: live?.kind === 'mongodb' ? live : null,
  };
}

export interface AuditStores {
  events: EventStore;
  describe: string;
  live: {
    store: ReadStore;
    describe: string;
    checkpoint: { store: CheckpointStore; name: string };
  } | null;
  close(): Promise<void>;
}

/** Opens what `auditLocations` names through the platform's store factory. */
export async function openAuditStores(locations: AuditLocations): Promise<AuditStores> {
  const events = openEventStore(locations.events);
  let live: ReadStore | null = null;
  try {
    live = locations.liveReadModels ? await openReadStore(locations.liveReadModels) : null;
  } catch (error) {
    await events.close();
    throw error;
  }
  return {
    events,
    describe: describeEventStore(locations.events),
    live:
      live && locations.liveReadModels
        ? {
            store: live,
            describe: describeReadStore(locations.liveReadModels),
            checkpoint: { store: new ReadStoreCheckpointStore(live), name: LEDGER_PROJECTION_CHECKPOINT },
          }
        : null,
    async close() {
      await events.close();
      await live?.close();
    },
  };
}
