import type { EndpointHealth } from '../endpoint-health';
import type { AttemptRecord } from '../retry-schedule';
import type { DeliveryAttempt, DeliveryRecord, DeliveryStatus } from './delivery-record';

/** What an attempt leaves behind: the attempt (none when the endpoint was gone) and where the delivery stands. */
export interface DeliveryOutcome {
  attempt: DeliveryAttempt | null;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
}

/** Where the previous page of an endpoint's deliveries ended: its last record's `createdAt` and id. */
export interface DeliveryPageCursor {
  createdAt: string;
  id: string;
}

/** Whether `record` comes after the cursor, newest first (createdAt descending, then id descending). */
export function isAfterCursor(
  record: Pick<DeliveryRecord, 'createdAt' | 'id'>,
  cursor: DeliveryPageCursor,
): boolean {
  return (
    record.createdAt < cursor.createdAt || (record.createdAt === cursor.createdAt && record.id < cursor.id)
  );
}

/**
 * Where deliveries live, shared by every notifier replica. Each method is one atomic step on one
 * record (a document update with a filter, a row update with a WHERE), so replicas need no lock
 * beyond the claim.
 */
export interface DeliveryStore {
  /** Inserts the record unless one with its id exists; true when inserted. */
  insertIfAbsent(record: DeliveryRecord): Promise<boolean>;
  /** Pending deliveries of these partitions due at `now` and not claimed by anyone (or claimed until before `now`), soonest first. */
  due(partitions: readonly number[], now: string, limit: number): Promise<DeliveryRecord[]>;
  /**
   * Claims a pending delivery due at `now` for one attempt until `until`: succeeds when it is
   * unclaimed, its claim lapsed, or the holder's own. The claimed record, or null when another holds
   * it, it is final, or it is not due (another replica attempted it since it was read as due and
   * scheduled the retry: attempting now would send it early, a second time). `asRead` is the
   * record as `due` answered it: a store may then claim it only while its `nextAttemptAt` is still
   * the one read (every completion moves or clears it, so nothing else changed) and answer that
   * record with the claim instead of reading it again (a round trip less on a remote store).
   */
  claim(
    id: string,
    holder: string,
    now: string,
    until: string,
    asRead?: DeliveryRecord,
  ): Promise<DeliveryRecord | null>;
  /**
   * Records an attempt's outcome and drops the claim, only while `holder` still holds it: false
   * when the claim lapsed and another replica took it (that one's attempt is the one recorded).
   */
  complete(id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Folds attempts into their endpoint's health (all its deliveries) in one write and answers the
   * new health; the fold does not depend on their order.
   */
  recordEndpointAttempts(endpointId: string, attempts: readonly AttemptRecord[]): Promise<EndpointHealth>;
  get(id: string): Promise<DeliveryRecord | null>;
  /**
   * An endpoint's deliveries, newest first (by `createdAt`, then id): `GET /webhooks/{id}/deliveries`.
   * With `after`, only those that come after that one in this order (the next page).
   */
  forEndpoint(endpointId: string, limit: number, after?: DeliveryPageCursor): Promise<DeliveryRecord[]>;
  /**
   * Removes the final deliveries (every status but `pending`) created before `createdBefore`; the
   * count removed. A pending one stays whatever its age (it is given up after 72 hours anyway).
   */
  pruneFinished(createdBefore: string): Promise<number>;
}
