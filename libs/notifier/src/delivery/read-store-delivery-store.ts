import { DuplicateKeyError, type Doc, type Filter, type ReadStore } from '@analyst/platform';
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

export const DELIVERIES_COLLECTION = 'webhook_deliveries';
export const ENDPOINT_HEALTH_COLLECTION = 'webhook_endpoint_health';

/**
 * A delivery as stored: the record, plus its due time and claim as numbers (milliseconds) so the
 * due query and the claim's compare-and-set are plain comparisons on indexed fields. `claimUntil`
 * is 0 when unclaimed; `dueAt` is null once final.
 */
interface DeliveryDoc extends Doc, Omit<DeliveryRecord, 'id'> {
  dueAt: number | null;
  claimHolder: string | null;
  claimUntil: number;
}

interface HealthDoc extends Doc {
  health: EndpointHealth;
  /** Bumped by every write: a fold is written only over the version it read. */
  version: number;
}

const toRecord = (doc: DeliveryDoc): DeliveryRecord => ({
  id: doc._id,
  endpointId: doc.endpointId,
  teamId: doc.teamId,
  partition: doc.partition,
  eventId: doc.eventId,
  eventType: doc.eventType,
  body: doc.body,
  createdAt: doc.createdAt,
  status: doc.status,
  nextAttemptAt: doc.nextAttemptAt,
  attempts: doc.attempts,
  claim: doc.claim,
});

const ms = (at: string | null) => (at === null ? null : Date.parse(at));

/**
 * Deliveries and endpoint health on the read store (MongoDB in the distributed topology), shared
 * by every notifier replica. Each step is one document write filtered on what must still hold:
 * insert-if-absent is an `insertOne` refused by `_id`; a claim and a completion are `updateOne`s
 * filtered on status and claim, so of two replicas only one matches. On FerretDB v1, which writes
 * by reading first, these are not atomic (see libs/adapter-mongo): two replicas could both claim
 * a delivery in the same instant and the receiver get it twice (still at least once).
 */
export class ReadStoreDeliveryStore implements DeliveryStore {
  private constructor(private readonly store: ReadStore) {}

  /** Creates the indexes the due query and the endpoint's list read by. */
  static async open(store: ReadStore): Promise<ReadStoreDeliveryStore> {
    const deliveries = store.collection(DELIVERIES_COLLECTION);
    await deliveries.createIndex({ keys: { status: 1, partition: 1, dueAt: 1 } });
    await deliveries.createIndex({ keys: { endpointId: 1, createdAt: -1, _id: -1 } });
    return new ReadStoreDeliveryStore(store);
  }

  private get deliveries() {
    return this.store.collection<DeliveryDoc>(DELIVERIES_COLLECTION);
  }

  private get health() {
    return this.store.collection<HealthDoc>(ENDPOINT_HEALTH_COLLECTION);
  }

  async insertIfAbsent(record: DeliveryRecord): Promise<boolean> {
    const { id, ...rest } = structuredClone(record);
    try {
      await this.deliveries.insertOne(
        {
          _id: id,
          ...rest,
          dueAt: ms(record.nextAttemptAt),
          claimHolder: record.claim?.holder ?? null,
          claimUntil: ms(record.claim?.until ?? null) ?? 0,
        },
        { idOnly: true },
      );
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async due(partitions: readonly number[], now: string, limit: number): Promise<DeliveryRecord[]> {
    const at = Date.parse(now);
    const docs = await this.deliveries.find(
      {
        status: 'pending',
        partition: { $in: [...partitions] },
        dueAt: { $lte: at },
        claimUntil: { $lte: at },
      },
      { sort: { dueAt: 1, _id: 1 }, limit },
    );
    return docs.map(toRecord);
  }

  async claim(
    id: string,
    holder: string,
    now: string,
    until: string,
    asRead?: DeliveryRecord,
  ): Promise<DeliveryRecord | null> {
    const due = { $lte: Date.parse(now), ...(asRead ? { $eq: ms(asRead.nextAttemptAt) } : {}) };
    const claimed = await this.deliveries.updateOne(
      {
        _id: id,
        status: 'pending',
        dueAt: due,
        $or: [{ claimUntil: { $lte: Date.parse(now) } }, { claimHolder: holder }],
      },
      { $set: { claim: { holder, until }, claimHolder: holder, claimUntil: Date.parse(until) } },
    );
    if (claimed.matched === 0) return null;
    // Still due at the time read: no attempt was recorded since, so the record read is the stored one.
    if (asRead) return { ...structuredClone(asRead), claim: { holder, until } };
    const doc = await this.deliveries.findOne({ _id: id });
    return doc && doc.claimHolder === holder ? toRecord(doc) : null;
  }

  async complete(id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean> {
    const done = await this.deliveries.updateOne(
      { _id: id, claimHolder: holder },
      {
        $set: {
          status: outcome.status,
          nextAttemptAt: outcome.nextAttemptAt,
          dueAt: ms(outcome.nextAttemptAt),
          claim: null,
          claimHolder: null,
          claimUntil: 0,
        },
        ...(outcome.attempt ? { $push: { attempts: structuredClone(outcome.attempt) } } : {}),
      },
    );
    return done.matched === 1;
  }

  /** Read, fold, write over the version read; a concurrent write makes it fold again. */
  async recordEndpointAttempts(
    endpointId: string,
    attempts: readonly AttemptRecord[],
  ): Promise<EndpointHealth> {
    for (;;) {
      const current = await this.health.findOne({ _id: endpointId });
      const health = attempts.reduce(recordEndpointAttempt, current?.health ?? NEW_ENDPOINT_HEALTH);
      if (!current) {
        try {
          await this.health.insertOne({ _id: endpointId, health, version: 1 }, { idOnly: true });
          return health;
        } catch (error) {
          if (error instanceof DuplicateKeyError) continue;
          throw error;
        }
      }
      const written = await this.health.updateOne(
        { _id: endpointId, version: current.version },
        { $set: { health, version: current.version + 1 } },
      );
      if (written.matched === 1) return health;
    }
  }

  async get(id: string): Promise<DeliveryRecord | null> {
    const doc = await this.deliveries.findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async pruneFinished(createdBefore: string): Promise<number> {
    return this.deliveries.deleteMany({ status: { $ne: 'pending' }, createdAt: { $lt: createdBefore } });
  }

  async forEndpoint(
    endpointId: string,
    limit: number,
    after?: DeliveryPageCursor,
  ): Promise<DeliveryRecord[]> {
    const filter: Filter = { endpointId };
    if (after)
      filter.$or = [
        { createdAt: { $lt: after.createdAt } },
        { createdAt: after.createdAt, _id: { $lt: after.id } },
      ];
    const docs = await this.deliveries.find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
    return docs.map(toRecord);
  }
}
