import Database from 'better-sqlite3';
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
import { LiveSubscriptions } from './live-subscriptions';

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:' for tests. */
  filename: string;
  /**
   * FULL fsyncs every commit (survives power loss); NORMAL survives a process crash only.
   * FULL is the default because an acknowledged append must never be lost.
   */
  synchronous?: 'FULL' | 'NORMAL';
  readonly?: boolean;
  /**
   * Also check for new events every this many ms. Needed when other processes append to the same
   * file (the distributed topology without EventStoreDB): their appends cannot wake us.
   */
  pollIntervalMs?: number;
}

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

/**
 * A row as better-sqlite3's raw mode returns it: an array in the order of COLUMNS. Replays read a
 * million of these; arrays instead of keyed row objects cut the read path's CPU by ~15% here.
 */
type EventRow = [
  position: number,
  stream: string,
  revision: number,
  id: string,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string,
];
const COLUMNS = 'position, stream, revision, id, type, schema_version, data, metadata';

/** readStreamExcept's row: the stream's head revision, then an event (all null when none is left). */
type HeadAndEventRow = [head: number | null, ...EventRow] | [head: number | null, ...null[]];

/**
 * A stream's events less some types and its head revision, in one statement (one snapshot, so the
 * two agree while another process appends). The left join keeps the head's row when no event is
 * left. A skipped row is read as far as its type: its data, stored after it, is neither returned nor
 * (when it overflows the row's page, as a comment chunk does) read from disk.
 */
const READ_STREAM_EXCEPT = `
SELECT h.head, e.position, e.stream, e.revision, e.id, e.type, e.schema_version, e.data, e.metadata
FROM (SELECT max(revision) AS head FROM events WHERE stream = @stream) AS h
LEFT JOIN events AS e ON e.stream = @stream AND e.revision >= @fromRevision
  AND e.type NOT IN (SELECT value FROM json_each(@skipTypes))
ORDER BY e.revision`;
/** Event data (JSON characters) per page of readAll, about: bounds a catch-up's memory. */
const PAGE_BYTES = 8 * 1024 * 1024;

/**
 * The team of an event, as the team index stores it and its queries name it (SQLite uses an
 * expression index only for the very same expression): NULL for a system event.
 */
const TEAM_OF_EVENT = "json_extract(metadata, '$.teamId')";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream, revision);
CREATE INDEX IF NOT EXISTS events_team_position ON events (${TEAM_OF_EVENT}, position);
`;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row[3],
    type: row[4],
    schemaVersion: row[5],
    data: JSON.parse(row[6]),
    metadata: JSON.parse(row[7]),
    streamId: row[1],
    revision: row[2],
    position: row[0],
  };
}

/**
 * The embedded event store: one SQLite table in WAL mode. The global position is the row id,
 * and (stream, revision) is unique, so two racing appends to one stream cannot both commit.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly subscriptions: LiveSubscriptions;
  private readonly appendTx: Database.Transaction<
    (streamId: string, events: NewEvent[], expected: ExpectedRevision) => AppendResult
  >;
  private readonly batchTx: Database.Transaction<(batch: PendingAppend[], outcomes: AppendOutcome[]) => void>;
  private readonly pending: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly stmt: {
    lastRevision: Database.Statement<[string], { revision: number | null }>;
    insert: Database.Statement;
    readStream: Database.Statement<[string, number], EventRow>;
    readStreamExcept: Database.Statement<
      [{ stream: string; fromRevision: number; skipTypes: string }],
      HeadAndEventRow
    >;
    readAll: Database.Statement<[number, number], EventRow>;
    head: Database.Statement<[], { position: number | null }>;
    teamHead: Database.Statement<[string], { position: number }>;
  };

  constructor(options: SqliteEventStoreOptions) {
    this.subscriptions = new LiveSubscriptions(this, options.pollIntervalMs);
    this.db = new Database(options.filename, { readonly: options.readonly ?? false });
    if (!options.readonly) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      this.db.exec(SCHEMA);
    }
    this.db.pragma('busy_timeout = 5000');
    this.stmt = {
      lastRevision: this.db.prepare('SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (stream, revision, id, type, schema_version, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      readStream: this.db
        .prepare<[string, number], EventRow>(
          `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`,
        )
        .raw(true),
      readStreamExcept: this.db
        .prepare<[{ stream: string; fromRevision: number; skipTypes: string }], HeadAndEventRow>(
          READ_STREAM_EXCEPT,
        )
        .raw(true),
      readAll: this.db
        .prepare<[number, number], EventRow>(
          `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
        )
        .raw(true),
      head: this.db.prepare('SELECT MAX(position) AS position FROM events'),
      // Two lookups at the end of the team index (one for the team, one for system events), not a
      // scan: EXPLAIN QUERY PLAN reads SEARCH ... USING COVERING INDEX events_team_position for both.
      teamHead: this.db.prepare(
        `SELECT max(
           coalesce((SELECT max(position) FROM events WHERE ${TEAM_OF_EVENT} = ?), -1),
           coalesce((SELECT max(position) FROM events WHERE ${TEAM_OF_EVENT} IS NULL), -1)
         ) AS position`,
      ),
    };
    // better-sqlite3 transactions are synchronous, so the check and the insert cannot interleave
    // with another append in this process; the unique index guards against other processes.
    this.appendTx = this.db.transaction(
      (streamId: string, events: NewEvent[], expected: ExpectedRevision) => {
        const last = this.stmt.lastRevision.get(streamId)?.revision ?? null;
        const actual = last === null ? 'no_stream' : last;
        if (expected === 'no_stream' ? last !== null : expected !== 'any' && expected !== last) {
          throw new ConcurrencyError(streamId, expected, actual);
        }
        let revision = last === null ? -1 : last;
        let position = -1;
        for (const event of events) {
          revision += 1;
          const info = this.stmt.insert.run(
            streamId,
            revision,
            event.id,
            event.type,
            event.schemaVersion,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata),
          );
          position = Number(info.lastInsertRowid);
        }
        return { nextExpectedRevision: revision, position };
      },
    );
    this.batchTx = this.db.transaction((batch: PendingAppend[], outcomes: AppendOutcome[]) => {
      for (const item of batch) {
        try {
          outcomes.push({ ok: true, result: this.appendTx(item.streamId, item.events, item.expected) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    });
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ streamId, events, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Group commit: every append requested in the same turn of the event loop is written in one
   * transaction, so they share one fsync. Each append runs in its own savepoint (better-sqlite3 nests
   * transactions that way), so one append's concurrency error rolls back only that append.
   */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const outcomes: AppendOutcome[] = [];
    try {
      // IMMEDIATE takes the write lock before reading any stream's revision: with several processes
      // on one file, a deferred transaction that read first could not wait for the lock (SQLITE_BUSY).
      this.batchTx.immediate(batch, outcomes);
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) item.resolve(outcome.result);
      else item.reject(this.asConcurrencyError(outcome.error, item.streamId, item.expected));
    });
    this.subscriptions.wake();
  }

  /** Another process won the race for a (stream, revision): the unique index says so. */
  private asConcurrencyError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
    if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') return error;
    const last = this.stmt.lastRevision.get(streamId)?.revision ?? null;
    return new ConcurrencyError(streamId, expected, last === null ? 'no_stream' : last);
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.stmt.readStream.all(streamId, fromRevision).map(toRecorded);
  }

  async readStreamExcept(
    streamId: string,
    skipTypes: readonly string[],
    fromRevision = 0,
  ): Promise<StreamReadExcept> {
    const rows = this.stmt.readStreamExcept.all({
      stream: streamId,
      fromRevision,
      skipTypes: JSON.stringify(skipTypes),
    });
    const events: RecordedEvent[] = [];
    for (const [, ...event] of rows) if (event[0] !== null) events.push(toRecorded(event as EventRow));
    return { events, revision: rows[0]?.[0] ?? -1 };
  }

  /**
   * Pages of at most `pageSize` events and about `PAGE_BYTES` of event data (at least one event):
   * 5,000 comment chunks of 250 comments would be 400 MB in memory at once, where 5,000 small events
   * are a few MB.
   */
  async *readAll(afterPosition = -1, pageSize = 5000): AsyncIterable<RecordedEvent[]> {
    let after = afterPosition;
    for (;;) {
      const rows: EventRow[] = [];
      let bytes = 0;
      let more = false;
      for (const row of this.stmt.readAll.iterate(after, pageSize)) {
        rows.push(row);
        bytes += row[6].length;
        if (bytes >= PAGE_BYTES && rows.length < pageSize) {
          more = true;
          break; // leaving the loop ends the statement's iteration
        }
      }
      if (rows.length === 0) return;
      after = rows[rows.length - 1][0];
      yield rows.map(toRecorded);
      if (!more && rows.length < pageSize) return;
    }
  }

  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>): Promise<Subscription> {
    return this.subscriptions.subscribeToAll(...args);
  }

  subscribeToAllPages(...args: Parameters<EventStore['subscribeToAllPages']>): Promise<Subscription> {
    return this.subscriptions.subscribeToAllPages(...args);
  }

  /** Wakes subscribers after appends made by another process on the same file. */
  poke(): void {
    this.subscriptions.wake();
  }

  async headPosition(): Promise<number> {
    return this.stmt.head.get()?.position ?? -1;
  }

  async teamHeadPosition(teamId: string): Promise<number> {
    return this.stmt.teamHead.get(teamId)?.position ?? -1;
  }

  /** The query plan of teamHeadPosition, one line per step (tests check the index serves it). */
  teamHeadPlan(): string[] {
    return this.db
      .prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${this.stmt.teamHead.source}`)
      .all('plan')
      .map((row) => row.detail);
  }

  async close(): Promise<void> {
    if (this.db.open) this.flush(); // appends already requested are written, not dropped
    await this.subscriptions.close();
    if (this.db.open) this.db.close();
  }
}
