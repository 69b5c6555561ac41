import type { Db } from 'mongodb';

/**
 * What the MongoDB-protocol server behind a MongoReadStore guarantees, where the servers the
 * project runs on differ (MongoDB, the local stack's mongo-java-server, FerretDB v1).
 */
export interface MongoServerCapabilities {
  /** `ferretdb` when the server says so in `buildInfo`; any other server speaks for itself as MongoDB. */
  readonly server: 'ferretdb' | 'mongodb';
  /**
   * One update of one document is applied atomically: concurrent `$inc`s, `$max`es and writes
   * guarded by `{ _id, _version }` lose nothing. FerretDB v1 reads and writes an update in two steps.
   */
  readonly atomicDocumentWrites: boolean;
}

/** Reads the capabilities from `buildInfo`: FerretDB adds `ferretdbVersion` to it. */
export async function readServerCapabilities(db: Db): Promise<MongoServerCapabilities> {
  const info = await db.admin().command({ buildInfo: 1 });
  const ferretdb = typeof info.ferretdbVersion === 'string';
  return { server: ferretdb ? 'ferretdb' : 'mongodb', atomicDocumentWrites: !ferretdb };
}
