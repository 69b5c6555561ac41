import { DuplicateKeyError, type ReadStore } from '@analyst/platform';
import type { GatewayStateDb } from '../state/gateway-state-db';

export const KEY_USAGE_COLLECTION = 'identity_key_usage';

export interface KeyUsageDoc {
  _id: string;
  keyId: string;
  teamId: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  requests: number;
  bytes: number;
  [key: string]: unknown;
}

/** Where per-key usage per UTC day is kept: added to in batches, read per team. */
export interface UsageStore {
  /** Adds each entry's counts; on failure throws UsageNotWritten naming the entries not added. */
  add(batch: readonly KeyUsageDoc[]): Promise<void>;
  forTeam(teamId: string, days: readonly string[]): Promise<KeyUsageDoc[]>;
}

export const USAGE_STORE = Symbol('UsageStore');

/** Some entries of a batch were not added (the rest were): the caller keeps those for the next try. */
export class UsageNotWritten extends Error {
  override readonly name = 'UsageNotWritten';
  constructor(
    readonly unwritten: readonly KeyUsageDoc[],
    override readonly cause: unknown,
  ) {
    super(
      `${unwritten.length} usage entries not written: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/** Tries of one entry's upsert when another replica inserts the same new document at the same moment. */
const UPSERT_TRIES = 3;

/** Usage as a collection of the read store: MongoDB in the distributed topology, shared by every replica. */
export class ReadStoreUsageStore implements UsageStore {
  constructor(private readonly store: ReadStore) {}

  /** A team's usage page reads by team and day; without this index it scans every key's days. */
  static async open(store: ReadStore): Promise<ReadStoreUsageStore> {
    await store.collection(KEY_USAGE_COLLECTION).createIndex({ keys: { teamId: 1, day: -1 } });
    return new ReadStoreUsageStore(store);
  }

  async add(batch: readonly KeyUsageDoc[]): Promise<void> {
    const unwritten: KeyUsageDoc[] = [];
    let cause: unknown;
    for (const u of batch) {
      try {
        await this.upsert(u);
      } catch (error) {
        unwritten.push(u);
        cause = error;
      }
    }
    if (unwritten.length > 0) throw new UsageNotWritten(unwritten, cause);
  }

  /**
   * Two gateway replicas flushing the first usage of a key's day at once both upsert a new document;
   * where the server does not retry that itself (FerretDB) the loser gets a duplicate key. Its retry
   * finds the document and increments it.
   */
  private async upsert(u: KeyUsageDoc): Promise<void> {
    const collection = this.store.collection<KeyUsageDoc>(KEY_USAGE_COLLECTION);
    for (let attempt = 1; ; attempt++) {
      try {
        await collection.updateOne(
          { _id: u._id },
          {
            $setOnInsert: { keyId: u.keyId, teamId: u.teamId, day: u.day },
            $inc: { requests: u.requests, bytes: u.bytes },
          },
          { upsert: true },
        );
        return;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError) || attempt >= UPSERT_TRIES) throw error;
      }
    }
  }

  forTeam(teamId: string, days: readonly string[]): Promise<KeyUsageDoc[]> {
    return this.store.collection<KeyUsageDoc>(KEY_USAGE_COLLECTION).find({ teamId, day: { $in: [...days] } });
  }
}

/** Usage in the standalone gateway's state db: the in-memory read store would lose it on restart. */
export class SqliteUsageStore implements UsageStore {
  constructor(private readonly state: GatewayStateDb) {}

  async add(batch: readonly KeyUsageDoc[]): Promise<void> {
    if (!this.state.db.open) return; // the app is closing; only in-flight requests' counts are left
    const upsert = this.state.db.prepare(
      `INSERT INTO key_usage (id, key_id, team_id, day, requests, bytes) VALUES (@_id, @keyId, @teamId, @day, @requests, @bytes)
       ON CONFLICT(id) DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes`,
    );
    try {
      this.state.db.transaction(() => {
        for (const u of batch)
          upsert.run({
            _id: u._id,
            keyId: u.keyId,
            teamId: u.teamId,
            day: u.day,
            requests: u.requests,
            bytes: u.bytes,
          });
      })();
    } catch (error) {
      // One transaction: nothing of the batch was written.
      throw new UsageNotWritten(batch, error);
    }
  }

  async forTeam(teamId: string, days: readonly string[]): Promise<KeyUsageDoc[]> {
    if (days.length === 0) return [];
    const rows = this.state.db
      .prepare(
        `SELECT id, key_id, team_id, day, requests, bytes FROM key_usage WHERE team_id = ? AND day IN (${days.map(() => '?').join(', ')})`,
      )
      .all(teamId, ...days) as {
      id: string;
      key_id: string;
      team_id: string;
      day: string;
      requests: number;
      bytes: number;
    }[];
    return rows.map((r) => ({
      _id: r.id,
      keyId: r.key_id,
      teamId: r.team_id,
      day: r.day,
      requests: r.requests,
      bytes: r.bytes,
    }));
  }
}
