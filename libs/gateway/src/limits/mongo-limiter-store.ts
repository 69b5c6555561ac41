import type { Db } from 'mongodb';
import { RateLimiterMongo, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { UNBOUNDED_POINTS, type LimiterStoreFactory } from './limiter-store';

/** One collection holds every counter; its documents are `{ key, points, expire }`. */
export const RATE_LIMIT_COLLECTION = 'rate_limits';

/**
 * Counters in MongoDB, shared by every gateway replica. The index is created here, not by
 * rate-limiter-flexible: FerretDB has no TTL indexes, so `disableIndexesCreation` is set and
 * expired counters are swept by `sweep()` instead of by the server.
 */
export class MongoLimiterStore implements LimiterStoreFactory {
  private constructor(private readonly db: Db) {}

  static async connect(db: Db): Promise<MongoLimiterStore> {
    await db
      .collection(RATE_LIMIT_COLLECTION)
      .createIndex({ key: 1 }, { unique: true, name: 'rate_limits_key' });
    return new MongoLimiterStore(db);
  }

  create(options: { keyPrefix: string; durationSeconds: number }): RateLimiterAbstract {
    return new RateLimiterMongo({
      storeClient: this.db.client,
      dbName: this.db.databaseName,
      tableName: RATE_LIMIT_COLLECTION,
      keyPrefix: options.keyPrefix,
      points: UNBOUNDED_POINTS,
      duration: options.durationSeconds,
      disableIndexesCreation: true,
    });
  }

  /** Deletes counters whose window has passed; returns how many. */
  async sweep(now: Date): Promise<number> {
    return (await this.db.collection(RATE_LIMIT_COLLECTION).deleteMany({ expire: { $lt: now } }))
      .deletedCount;
  }
}
