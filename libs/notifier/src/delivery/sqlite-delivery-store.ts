import {
  NEW_ENDPOINT_HEALTH,
  recordEndpointAttempt,
  type AttemptRecord,
  type DeliveryOutcome,
  type DeliveryPageCursor,
  type DeliveryRecord,
  type DeliveryStore,
  type EndpointHealth,
} from '@analyst/webhooks';
import type { NotifierStateDb } from './notifier-state-db';

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  team_id: string;
  partition: number;
  event_id: string;
  event_type: DeliveryRecord['eventType'];
  body: string;
  created_at: string;
  status: DeliveryRecord['status'];
  next_attempt_at: string | null;
  claim_holder: string | null;
  claim_until: number;
  attempts: string;
}

const toRecord = (row: DeliveryRow): DeliveryRecord => ({
  id: row.id,
  endpointId: row.endpoint_id,
  teamId: row.team_id,
  partition: row.partition,
  eventId: row.event_id,
  eventType: row.event_type,
  body: row.body,
  createdAt: row.created_at,
  status: row.status,
  nextAttemptAt: row.next_attempt_at,
  attempts: JSON.parse(row.attempts),
  claim:
    row.claim_holder === null
      ? null
      : { holder: row.claim_holder, until: new Date(row.claim_until).toISOString() },
});

/**
 * Deliveries and endpoint health in the standalone notifier's SQLite file. One process holds the
 * file and better-sqlite3 runs each statement to its end before the next, so every step (an
 * `INSERT OR IGNORE`, an `UPDATE ... WHERE` on status and claim) is atomic as the interface asks.
 */
export class SqliteDeliveryStore implements DeliveryStore {
  private readonly statements;

  constructor(state: NotifierStateDb) {
    const db = state.db;
    this.statements = {
      insert: db.prepare(
        `INSERT OR IGNORE INTO deliveries (id, endpoint_id, team_id, partition, event_id, event_type, body,
           created_at, status, next_attempt_at, due_at, claim_holder, claim_until, attempts)
         VALUES (@id, @endpoint_id, @team_id, @partition, @event_id, @event_type, @body,
           @created_at, @status, @next_attempt_at, @due_at, @claim_holder, @claim_until, @attempts)`,
      ),
      // The held partitions come as one JSON array: one statement whatever their number.
      due: db.prepare(
        `SELECT * FROM deliveries WHERE status = 'pending' AND partition IN (SELECT value FROM json_each(?))
           AND due_at <= ? AND claim_until <= ? ORDER BY due_at, id LIMIT ?`,
      ),
      claim: db.prepare(
        `UPDATE deliveries SET claim_holder = @holder, claim_until = @until
         WHERE id = @id AND status = 'pending' AND due_at <= @now
           AND (claim_until <= @now OR claim_holder = @holder)`,
      ),
      complete: db.prepare(
        `UPDATE deliveries SET status = @status, next_attempt_at = @next_attempt_at, due_at = @due_at,
           claim_holder = NULL, claim_until = 0,
           attempts = CASE WHEN @attempt IS NULL THEN attempts ELSE json_insert(attempts, '$[#]', json(@attempt)) END
         WHERE id = @id AND claim_holder = @holder`,
      ),
      get: db.prepare(`SELECT * FROM deliveries WHERE id = ?`),
      prune: db.prepare(`DELETE FROM deliveries WHERE status != 'pending' AND created_at < ?`),
      health: db.prepare(`SELECT health FROM endpoint_health WHERE endpoint_id = ?`),
      saveHealth: db.prepare(
        `INSERT INTO endpoint_health (endpoint_id, health) VALUES (?, ?)
         ON CONFLICT (endpoint_id) DO UPDATE SET health = excluded.health`,
      ),
      forEndpoint: db.prepare(
        `SELECT * FROM deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
      ),
      forEndpointAfter: db.prepare(
        `SELECT * FROM deliveries WHERE endpoint_id = @endpointId
           AND (created_at < @createdAt OR (created_at = @createdAt AND id < @id))
         ORDER BY created_at DESC, id DESC LIMIT @limit`,
      ),
    };
  }

  async insertIfAbsent(record: DeliveryRecord): Promise<boolean> {
    const inserted = this.statements.insert.run({
      id: record.id,
      endpoint_id: record.endpointId,
      team_id: record.teamId,
      partition: record.partition,
      event_id: record.eventId,
      event_type: record.eventType,
      body: record.body,
      created_at: record.createdAt,
      status: record.status,
      next_attempt_at: record.nextAttemptAt,
      due_at: record.nextAttemptAt === null ? null : Date.parse(record.nextAttemptAt),
      claim_holder: record.claim?.holder ?? null,
      claim_until: record.claim ? Date.parse(record.claim.until) : 0,
      attempts: JSON.stringify(record.attempts),
    });
    return inserted.changes === 1;
  }

  async due(partitions: readonly number[], now: string, limit: number): Promise<DeliveryRecord[]> {
    const at = Date.parse(now);
    const rows = this.statements.due.all(JSON.stringify(partitions), at, at, limit) as DeliveryRow[];
    return rows.map(toRecord);
  }

  async claim(id: string, holder: string, now: string, until: string): Promise<DeliveryRecord | null> {
    const claimed = this.statements.claim.run({ id, holder, now: Date.parse(now), until: Date.parse(until) });
    if (claimed.changes === 0) return null;
    return this.get(id);
  }

  async complete(id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean> {
    const done = this.statements.complete.run({
      id,
      holder,
      status: outcome.status,
      next_attempt_at: outcome.nextAttemptAt,
      due_at: outcome.nextAttemptAt === null ? null : Date.parse(outcome.nextAttemptAt),
      attempt: outcome.attempt ? JSON.stringify(outcome.attempt) : null,
    });
    return done.changes === 1;
  }

  async recordEndpointAttempts(
    endpointId: string,
    attempts: readonly AttemptRecord[],
  ): Promise<EndpointHealth> {
    // Read and write with nothing in between: better-sqlite3 is synchronous and this is one process.
    const row = this.statements.health.get(endpointId) as { health: string } | undefined;
    const health = attempts.reduce(recordEndpointAttempt, row ? JSON.parse(row.health) : NEW_ENDPOINT_HEALTH);
    this.statements.saveHealth.run(endpointId, JSON.stringify(health));
    return health;
  }

  async get(id: string): Promise<DeliveryRecord | null> {
    const row = this.statements.get.get(id) as DeliveryRow | undefined;
    return row ? toRecord(row) : null;
  }

  async pruneFinished(createdBefore: string): Promise<number> {
    return this.statements.prune.run(createdBefore).changes;
  }

  async forEndpoint(
    endpointId: string,
    limit: number,
    after?: DeliveryPageCursor,
  ): Promise<DeliveryRecord[]> {
    const rows = (
      after
        ? this.statements.forEndpointAfter.all({
            endpointId,
            limit,
            createdAt: after.createdAt,
            id: after.id,
          })
        : this.statements.forEndpoint.all(endpointId, limit)
    ) as DeliveryRow[];
    return rows.map(toRecord);
  }
}
