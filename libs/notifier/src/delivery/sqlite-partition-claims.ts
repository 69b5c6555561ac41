import type { Clock } from '@analyst/platform';
import { DEFAULT_DELIVERY_PARTITIONS, type HeldPartition, type PartitionClaims } from '@analyst/webhooks';
import type { NotifierStateDb } from './notifier-state-db';

interface PartitionRow {
  partition: number;
  holder: string | null;
  expires_at: number;
  checkpoint: number;
}

/**
 * Partition claims in the standalone notifier's SQLite file. One process runs one replica, so the
 * claims are all its own; what the file keeps across a restart is each partition's log checkpoint
 * (a restart carries on where it stopped, creating nothing twice). The same fair-share rules as the
 * shared stores, so the contract suite holds here too. Each refresh is one transaction.
 */
export class SqlitePartitionClaims implements PartitionClaims {
  private readonly refreshTx: (holder: string, now: number) => HeldPartition[];
  private readonly statements;

  constructor(
    state: NotifierStateDb,
    private readonly clock: Clock,
    readonly count = DEFAULT_DELIVERY_PARTITIONS,
    /** How long a claim and a heartbeat last without a refresh. */
    readonly ttlMs = 10_000,
  ) {
    const db = state.db;
    this.statements = {
      seed: db.prepare(
        `INSERT OR IGNORE INTO partitions (partition, holder, expires_at, checkpoint) VALUES (?, NULL, 0, ?)`,
      ),
      heartbeat: db.prepare(
        `INSERT INTO replicas (holder, expires_at) VALUES (?, ?)
         ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at`,
      ),
      live: db.prepare(`SELECT COUNT(*) AS n FROM replicas WHERE expires_at > ?`),
      all: db.prepare(`SELECT * FROM partitions ORDER BY partition`),
      hold: db.prepare(
        `INSERT INTO partitions (partition, holder, expires_at, checkpoint) VALUES (@partition, @holder, @expiresAt, -1)
         ON CONFLICT (partition) DO UPDATE SET holder = @holder, expires_at = @expiresAt`,
      ),
      free: db.prepare(
        `UPDATE partitions SET holder = NULL, expires_at = 0 WHERE partition = ? AND holder = ?`,
      ),
      save: db.prepare(
        `UPDATE partitions SET checkpoint = MAX(checkpoint, @position)
         WHERE partition = @partition AND holder = @holder AND expires_at > @now`,
      ),
      releaseAll: db.prepare(`UPDATE partitions SET holder = NULL, expires_at = 0 WHERE holder = ?`),
      forget: db.prepare(`DELETE FROM replicas WHERE holder = ?`),
    };
    this.refreshTx = db.transaction((holder: string, now: number) => this.refreshNow(holder, now));
  }

  async initialize(checkpoint: number): Promise<void> {
    for (let partition = 0; partition < this.count; partition++)
      this.statements.seed.run(partition, checkpoint);
  }

  async refresh(holder: string): Promise<HeldPartition[]> {
    return this.refreshTx(holder, this.clock.now().getTime());
  }

  private refreshNow(holder: string, now: number): HeldPartition[] {
    const expiresAt = now + this.ttlMs;
    this.statements.heartbeat.run(holder, expiresAt);
    const live = Math.max(1, (this.statements.live.get(now) as { n: number }).n);
    const share = Math.ceil(this.count / live);
    const rows = new Map((this.statements.all.all() as PartitionRow[]).map((r) => [r.partition, r]));
    const held: HeldPartition[] = [];
    for (const row of rows.values()) {
      if (row.holder !== holder) continue;
      // Above its share: give the highest back for a newcomer to take.
      if (held.length >= share) this.statements.free.run(row.partition, holder);
      else held.push({ partition: row.partition, checkpoint: row.checkpoint });
    }
    for (let partition = 0; partition < this.count && held.length < share; partition++) {
      const row = rows.get(partition);
      if (row?.holder === holder) continue;
      if (row && row.holder !== null && row.expires_at > now) continue;
      held.push({ partition, checkpoint: row?.checkpoint ?? -1 });
    }
    for (const { partition } of held) this.statements.hold.run({ partition, holder, expiresAt });
    return held.sort((a, b) => a.partition - b.partition);
  }

  async saveCheckpoint(holder: string, partition: number, position: number): Promise<boolean> {
    const now = this.clock.now().getTime();
    return this.statements.save.run({ partition, holder, position, now }).changes === 1;
  }

  async saveCheckpoints(holder: string, partitions: readonly number[], position: number): Promise<number[]> {
    const now = this.clock.now().getTime();
    return partitions.filter(
      (partition) => this.statements.save.run({ partition, holder, position, now }).changes === 1,
    );
  }

  async release(holder: string): Promise<void> {
    this.statements.releaseAll.run(holder);
    this.statements.forget.run(holder);
  }
}
