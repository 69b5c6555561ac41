import type { Pool } from 'pg';
import type { RecordedEvent } from '@analyst/eventsourcing';

/** The one table of the log; (stream, revision) is unique, so two appends cannot take one revision. */
export const EVENTS_TABLE = 'analyst_events';
/** The channel an append notifies on commit, so subscribers in every process wake at once. */
export const APPEND_CHANNEL = 'analyst_events_appended';

/**
 * Advisory lock keys (pg_advisory_xact_lock's two-int form, first key naming this adapter): one
 * serializes the appends (see append-events.ts), one the creation of the schema by racing clients.
 */
export const LOCK_NAMESPACE = 0x616e61; // 'ana'
export const APPEND_LOCK = 1;
export const SCHEMA_LOCK = 2;

/** The team of an event as the team index stores it (a query must name the same expression): NULL for a system event. */
export const TEAM_OF_EVENT = "(metadata->>'teamId')";

// `json`, not `jsonb`: the text is stored as the producer wrote it (key order kept) and the only
// query inside it is the team index's one field, so jsonb's parse on every insert would buy nothing.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${EVENTS_TABLE} (
  position bigserial PRIMARY KEY,
  stream text NOT NULL,
  revision integer NOT NULL,
  id text NOT NULL,
  type text NOT NULL,
  schema_version integer NOT NULL,
  data json NOT NULL,
  metadata json NOT NULL,
  CONSTRAINT ${EVENTS_TABLE}_stream_revision UNIQUE (stream, revision)
)`;

/**
 * A team's last events (teamHeadPosition): built once on a table that predates it, which holds
 * appends back while it is built (a plain CREATE INDEX; CONCURRENTLY cannot run in the schema's
 * transaction, and the lock keeps racing clients from building it twice).
 */
const TEAM_INDEX = `
CREATE INDEX IF NOT EXISTS ${EVENTS_TABLE}_team_position ON ${EVENTS_TABLE} (${TEAM_OF_EVENT}, position)`;

export const COLUMNS = 'position, stream, revision, id, type, schema_version, data, metadata';

export interface EventRow {
  /** bigint: node-postgres hands it over as a string. */
  position: string;
  stream: string;
  revision: number;
  id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: RecordedEvent['metadata'];
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream,
    revision: row.revision,
    position: Number(row.position),
  };
}

/**
 * Creates the table and its team index when missing. CREATE TABLE IF NOT EXISTS is not safe against a concurrent twin
 * (both may pass the check, one then fails on the catalog's unique index), so clients take turns.
 */
export async function ensureSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, SCHEMA_LOCK]);
    await client.query(SCHEMA);
    await client.query(TEAM_INDEX);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
