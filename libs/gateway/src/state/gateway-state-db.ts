import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OnApplicationShutdown } from '@nestjs/common';
import Database from 'better-sqlite3';

export const GATEWAY_STATE_DB = Symbol('GatewayStateDb');

/**
 * The standalone gateway's own durable state, beside the event log in the data dir: snapshots of
 * the rate counters and per-key usage per UTC day. Neither is domain history (nothing is replayed
 * from them), but both must outlive a restart: the daily budgets and the 500 MB byte cap are per
 * UTC day, and usage is reported for 30 days. WAL with synchronous=NORMAL: a process crash loses
 * nothing written, a power cut at most the last moments.
 */
export class GatewayStateDb implements OnApplicationShutdown {
  private constructor(readonly db: Database.Database) {}

  static open(dataDir: string): GatewayStateDb {
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, 'gateway-state.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS rate_counters (id TEXT PRIMARY KEY, day INTEGER NOT NULL, doc TEXT NOT NULL);
      DROP TABLE IF EXISTS limiter_snapshots;
      CREATE TABLE IF NOT EXISTS key_usage (
        id TEXT PRIMARY KEY, key_id TEXT NOT NULL, team_id TEXT NOT NULL, day TEXT NOT NULL,
        requests INTEGER NOT NULL, bytes INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS key_usage_team_day ON key_usage (team_id, day);
    `);
    return new GatewayStateDb(db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  onApplicationShutdown(): void {
    this.close();
  }
}
