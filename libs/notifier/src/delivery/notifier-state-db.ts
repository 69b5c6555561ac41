import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The standalone notifier's durable state, beside the event log in the data dir: deliveries with
 * their attempts and pending retries, endpoint health, and the partitions with their log
 * checkpoints, so a restart neither loses a retry nor creates a delivery twice. Not domain history
 * (nothing is replayed from it). WAL with synchronous=NORMAL, as the gateway's state file.
 */
export class NotifierStateDb {
  private constructor(readonly db: Database.Database) {}

  /** `notifier-state.db` in `dataDir`; `:memory:` as the dir for a throwaway one (tests). */
  static open(dataDir: string): NotifierStateDb {
    let filename = ':memory:';
    if (dataDir !== ':memory:') {
      mkdirSync(dataDir, { recursive: true });
      filename = join(dataDir, 'notifier-state.db');
    }
    const db = new Database(filename);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS deliveries (
        id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, team_id TEXT NOT NULL, partition INTEGER NOT NULL,
        event_id TEXT NOT NULL, event_type TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL,
        status TEXT NOT NULL, next_attempt_at TEXT, due_at INTEGER,
        claim_holder TEXT, claim_until INTEGER NOT NULL DEFAULT 0, attempts TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, partition, due_at);
      CREATE INDEX IF NOT EXISTS deliveries_endpoint ON deliveries (endpoint_id, created_at DESC, id DESC);
      CREATE TABLE IF NOT EXISTS endpoint_health (endpoint_id TEXT PRIMARY KEY, health TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS partitions (
        partition INTEGER PRIMARY KEY, holder TEXT, expires_at INTEGER NOT NULL, checkpoint INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS replicas (holder TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
    `);
    return new NotifierStateDb(db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
