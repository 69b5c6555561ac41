import { NEW_ENDPOINT_HEALTH, recordEndpointAttempt, type EndpointHealth } from '../endpoint-health';
import type { AttemptRecord } from '../retry-schedule';
import type { DeliveryRecord } from './delivery-record';
import {
  isAfterCursor,
  type DeliveryOutcome,
  type DeliveryPageCursor,
  type DeliveryStore,
} from './delivery-store';

const claimable = (record: DeliveryRecord, now: number, holder?: string) =>
  record.claim === null || Date.parse(record.claim.until) <= now || record.claim.holder === holder;

/** Code-unit order, as MongoDB and SQLite compare strings (ISO times sort as they read). */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The delivery store in one process's memory, for tests and a single in-process notifier; answers copies. */
export class InMemoryDeliveryStore implements DeliveryStore {
  private readonly records = new Map<string, DeliveryRecord>();
  private readonly health = new Map<string, EndpointHealth>();

  async insertIfAbsent(record: DeliveryRecord): Promise<boolean> {
    if (this.records.has(record.id)) return false;
    this.records.set(record.id, structuredClone(record));
    return true;
  }

  async due(partitions: readonly number[], now: string, limit: number): Promise<DeliveryRecord[]> {
    const at = Date.parse(now);
    const held = new Set(partitions);
    return [...this.records.values()]
      .filter(
        (r) =>
          r.status === 'pending' &&
          held.has(r.partition) &&
          r.nextAttemptAt !== null &&
          Date.parse(r.nextAttemptAt) <= at &&
          claimable(r, at),
      )
      .sort((a, b) => Date.parse(a.nextAttemptAt!) - Date.parse(b.nextAttemptAt!))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }

  async claim(id: string, holder: string, now: string, until: string): Promise<DeliveryRecord | null> {
    const record = this.records.get(id);
    const at = Date.parse(now);
    if (!record || record.status !== 'pending' || !claimable(record, at, holder)) return null;
    if (record.nextAttemptAt === null || Date.parse(record.nextAttemptAt) > at) return null;
    record.claim = { holder, until };
    return structuredClone(record);
  }

  async complete(id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean> {
    const record = this.records.get(id);
    if (!record || record.claim?.holder !== holder) return false;
    if (outcome.attempt) record.attempts.push(structuredClone(outcome.attempt));
    record.status = outcome.status;
    record.nextAttemptAt = outcome.nextAttemptAt;
    record.claim = null;
    return true;
  }

  async recordEndpointAttempts(
    endpointId: string,
    attempts: readonly AttemptRecord[],
  ): Promise<EndpointHealth> {
    const health = attempts.reduce(recordEndpointAttempt, this.health.get(endpointId) ?? NEW_ENDPOINT_HEALTH);
    this.health.set(endpointId, health);
    return health;
  }

  async get(id: string): Promise<DeliveryRecord | null> {
    const record = this.records.get(id);
    return record ? structuredClone(record) : null;
  }

  async pruneFinished(createdBefore: string): Promise<number> {
    let removed = 0;
    for (const [id, r] of this.records)
      if (r.status !== 'pending' && r.createdAt < createdBefore && this.records.delete(id)) removed++;
    return removed;
  }

  async forEndpoint(
    endpointId: string,
    limit: number,
    after?: DeliveryPageCursor,
  ): Promise<DeliveryRecord[]> {
    return [...this.records.values()]
      .filter((r) => r.endpointId === endpointId && (!after || isAfterCursor(r, after)))
      .sort((a, b) => (a.createdAt === b.createdAt ? cmp(b.id, a.id) : cmp(b.createdAt, a.createdAt)))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }
}
