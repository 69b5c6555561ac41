import type { EndpointHealth } from '../endpoint-health';
import type { AttemptRecord } from '../retry-schedule';
import type { DeliveryAttempt, DeliveryRecord, DeliveryStatus } from './delivery-record';

/** What an attempt leaves behind: the attempt (none when the endpoint was gone) and where the delivery stands. */
export interface DeliveryOutcome {
  attempt: DeliveryAttempt | null;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
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
   * Claims a pending delivery for one attempt until `until`: succeeds when it is unclaimed, its
   * claim lapsed, or the holder's own. The claimed record, or null when another holds it or it is final.
   */
  claim(id: string, holder: string, now: string, until: string): Promise<DeliveryRecord | null>;
  /**
   * Records an attempt's outcome and drops the claim, only while `holder` still holds it: false
   * when the claim lapsed and another replica took it (that one's attempt is the one recorded).
   */
  complete(id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean>;
  /** Folds an attempt into its endpoint's health (all its deliveries) and answers the new health. */
  recordEndpointAttempt(endpointId: string, attempt: AttemptRecord): Promise<EndpointHealth>;
  get(id: string): Promise<DeliveryRecord | null>;
  /** An endpoint's deliveries, newest first: `GET /webhooks/{id}/deliveries`. */
  forEndpoint(endpointId: string, limit: number): Promise<DeliveryRecord[]>;
}
