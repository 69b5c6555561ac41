import type { PoolClient } from 'pg';
import {
  type AppendResult,
  ConcurrencyError,
  type ExpectedRevision,
  type NewEvent,
} from '@analyst/eventsourcing';
import { APPEND_CHANNEL, APPEND_LOCK, EVENTS_TABLE, LOCK_NAMESPACE } from './event-table';

/**
 * One append, inside a transaction the caller has begun (and commits or rolls back).
 *
 * The global order: a bigserial alone is not a safe cursor. Sequence values are handed out when a
 * row is inserted, not when its transaction commits, so a slow transaction holding position 7 can
 * commit after a fast one holding 8; a reader that saw 8 and moved its cursor past it would never
 * see 7. Every append therefore first takes one transaction-level advisory lock, which PostgreSQL
 * releases only after the commit is visible to other sessions: the next append takes its positions
 * only then, so positions become visible in increasing order and "position > cursor" never skips
 * one. The cost is one append at a time across all clients (the expected-revision check is then
 * free of races too); gaps from rolled-back appends remain, which the port allows.
 */
export async function appendInTransaction(
  client: PoolClient,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, APPEND_LOCK]);
  const last = await lastRevision(client, streamId);
  if (expected === 'no_stream' ? last !== null : expected !== 'any' && expected !== last) {
    throw new ConcurrencyError(streamId, expected, last ?? 'no_stream');
  }
  const first = (last ?? -1) + 1;
  let position = -1;
  for (let offset = 0; offset < events.length; offset += ROWS_PER_INSERT) {
    position = await insertRows(
      client,
      streamId,
      events.slice(offset, offset + ROWS_PER_INSERT),
      first + offset,
    );
  }
  // Delivered to listeners only when (and if) the transaction commits.
  await client.query(`SELECT pg_notify('${APPEND_CHANNEL}', '')`);
  return { nextExpectedRevision: first + events.length - 1, position };
}

/** A statement takes at most 65,535 parameters; 7 per event. */
const ROWS_PER_INSERT = 1000;

/** Inserts events at revisions from `firstRevision`; returns the position of the last one. */
async function insertRows(
  client: PoolClient,
  streamId: string,
  events: readonly NewEvent[],
  firstRevision: number,
): Promise<number> {
  const params: unknown[] = [];
  const rows = events.map((event, i) => {
    params.push(
      streamId,
      firstRevision + i,
      event.id,
      event.type,
      event.schemaVersion,
      JSON.stringify(event.data),
      JSON.stringify(event.metadata),
    );
    const n = i * 7;
    return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7})`;
  });
  // The rows of a VALUES list are inserted in their order, so positions rise with revisions.
  const inserted = await client.query<{ position: string }>(
    `WITH written AS (
       INSERT INTO ${EVENTS_TABLE} (stream, revision, id, type, schema_version, data, metadata)
       VALUES ${rows.join(', ')} RETURNING position
     ) SELECT max(position) AS position FROM written`,
    params,
  );
  return Number(inserted.rows[0].position);
}

export async function lastRevision(
  client: Pick<PoolClient, 'query'>,
  streamId: string,
): Promise<number | null> {
  const result = await client.query<{ revision: number | null }>(
    `SELECT max(revision) AS revision FROM ${EVENTS_TABLE} WHERE stream = $1`,
    [streamId],
  );
  return result.rows[0].revision;
}
