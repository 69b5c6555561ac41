import { Pool, type PoolConfig } from 'pg';
import {
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamReadExcept,
  type Subscription,
} from '@analyst/eventsourcing';
import { LiveSubscriptions } from '@analyst/adapter-sqlite';
import { appendInTransaction, lastRevision } from './append-events';
import { AppendNotifications } from './append-notifications';
import { COLUMNS, EVENTS_TABLE, TEAM_OF_EVENT, ensureSchema, toRecorded, type EventRow } from './event-table';
import { asUnavailable } from './postgres-unavailable';

export interface PostgresEventStoreOptions {
  /** e.g. `postgres://user@127.0.0.1:55432/analyst`. */
  connectionString: string;
  /** Connections this client keeps open for appends and reads (default 10), beside one for LISTEN. */
  maxConnections?: number;
  /**
   * Subscriptions also look for new events this often (default 1 s), in case a notification was
   * lost while the LISTEN connection was down.
   */
  pollIntervalMs?: number;
}

/** How long a request waits for a connection before the store counts as unavailable. */
const CONNECT_TIMEOUT_MS = 3_000;
const DEFAULT_POLL_MS = 1_000;
/** teamHeadPosition's query: each max() is an index scan of one key's end of the team index. */
export const TEAM_HEAD_QUERY = `SELECT GREATEST(
  (SELECT max(position) FROM ${EVENTS_TABLE} WHERE ${TEAM_OF_EVENT} = $1),
  (SELECT max(position) FROM ${EVENTS_TABLE} WHERE ${TEAM_OF_EVENT} IS NULL)
) AS position`;

/**
 * readStreamExcept's query: a stream's head revision, joined to its events from a revision less the
 * skipped types (no event row, only the head, when none is left). One statement is one snapshot, so
 * the head and the events agree while others append; the skipped rows' data is never sent, and the
 * server reads a row's type without reading its (TOASTed, when large) data.
 */
export const READ_STREAM_EXCEPT_QUERY = `SELECT h.head, e.position, e.stream, e.revision, e.id, e.type,
  e.schema_version, e.data, e.metadata
FROM (SELECT max(revision) AS head FROM ${EVENTS_TABLE} WHERE stream = $1) AS h
LEFT JOIN ${EVENTS_TABLE} AS e ON e.stream = $1 AND e.revision >= $2 AND e.type <> ALL($3::text[])
ORDER BY e.revision`;

/**
 * The event store on PostgreSQL: one table, a bigserial global position that becomes visible in
 * order (see append-events.ts), (stream, revision) unique. Subscriptions read pages after their
 * last position and are woken by LISTEN/NOTIFY from any client of the database, or by a poll.
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: Pool;
  private readonly notifications: AppendNotifications;
  private readonly subscriptions: LiveSubscriptions;
  private schema: Promise<void> | null = null;

  constructor(options: PostgresEventStoreOptions) {
    const config: PoolConfig = {
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    };
    this.pool = new Pool(config);
    // An idle connection the server dropped: the pool discards it; the next query reconnects.
    this.pool.on('error', () => undefined);
    this.notifications = new AppendNotifications(
      { connectionString: options.connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
      () => this.subscriptions.wake(),
      () => undefined, // the poll keeps subscriptions going without notifications
    );
    // Listening before the first read: an append committed after that read still wakes us.
    this.subscriptions = new LiveSubscriptions(this, options.pollIntervalMs ?? DEFAULT_POLL_MS, () =>
      this.notifications.listen(),
    );
  }

  /** Created on first use, so constructing a store never touches the network (as EventStoreDB's). */
  private ready(): Promise<void> {
    this.schema ??= ensureSchema(this.pool).catch((error) => {
      this.schema = null;
      throw asUnavailable(error);
    });
    return this.schema;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    await this.ready();
    const client = await this.pool.connect().catch((error) => Promise.reject(asUnavailable(error)));
    try {
      await client.query('BEGIN');
      const result = await appendInTransaction(client, streamId, events, expected);
      await client.query('COMMIT');
      this.subscriptions.wake(); // ours at once; other clients' through NOTIFY
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw await this.asConcurrencyError(error, streamId, expected);
    } finally {
      client.release();
    }
  }

  /** The unique (stream, revision) refused a row: another writer took the revision first. */
  private async asConcurrencyError(
    error: unknown,
    streamId: string,
    expected: ExpectedRevision,
  ): Promise<unknown> {
    if ((error as { code?: string }).code !== '23505') return asUnavailable(error);
    const last = await lastRevision(this.pool, streamId);
    return new ConcurrencyError(streamId, expected, last ?? 'no_stream');
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const rows = await this.query<EventRow>(
      `SELECT ${COLUMNS} FROM ${EVENTS_TABLE} WHERE stream = $1 AND revision >= $2 ORDER BY revision`,
      [streamId, fromRevision],
    );
    return rows.map(toRecorded);
  }

  async readStreamExcept(
    streamId: string,
    skipTypes: readonly string[],
    fromRevision = 0,
  ): Promise<StreamReadExcept> {
    const rows = await this.query<{ head: number | null } & (EventRow | { [K in keyof EventRow]: null })>(
      READ_STREAM_EXCEPT_QUERY,
      [streamId, fromRevision, skipTypes],
    );
    const events: RecordedEvent[] = [];
    for (const row of rows) if (row.position !== null) events.push(toRecorded(row));
    return { events, revision: rows[0]?.head ?? -1 };
  }

  async *readAll(afterPosition = -1, pageSize = 5000): AsyncIterable<RecordedEvent[]> {
    let after = afterPosition;
    for (;;) {
      const rows = await this.query<EventRow>(
        `SELECT ${COLUMNS} FROM ${EVENTS_TABLE} WHERE position > $1 ORDER BY position LIMIT $2`,
        [after, pageSize],
      );
      if (rows.length === 0) return;
      const page = rows.map(toRecorded);
      after = page[page.length - 1].position;
      yield page;
      if (rows.length < pageSize) return;
    }
  }

  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>): Promise<Subscription> {
    return this.subscriptions.subscribeToAll(...args);
  }

  subscribeToAllPages(...args: Parameters<EventStore['subscribeToAllPages']>): Promise<Subscription> {
    return this.subscriptions.subscribeToAllPages(...args);
  }

  async headPosition(): Promise<number> {
    const [row] = await this.query<{ position: string | null }>(
      `SELECT max(position) AS position FROM ${EVENTS_TABLE}`,
    );
    return row.position === null ? -1 : Number(row.position);
  }

  /** Two backward steps in the team index, the team's and system events' (GREATEST skips a NULL). */
  async teamHeadPosition(teamId: string): Promise<number> {
    const [row] = await this.query<{ position: string | null }>(TEAM_HEAD_QUERY, [teamId]);
    return row.position === null ? -1 : Number(row.position);
  }

  private async query<R extends object>(text: string, params: unknown[] = []): Promise<R[]> {
    await this.ready();
    try {
      return (await this.pool.query<R>(text, params)).rows;
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  async close(): Promise<void> {
    await this.subscriptions.close();
    await this.notifications.close();
    await this.pool.end();
  }
}
