/** A read-model document. `_id` is always a string chosen by the projector. */
export type Doc = { _id: string } & Record<string, unknown>;

/** A MongoDB query document; the same filter runs on mingo and on MongoDB. */
export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  limit?: number;
  skip?: number;
  projection?: Projection;
}

/** The update operators every adapter supports. */
export interface Update {
  $set?: Record<string, unknown>;
  $inc?: Record<string, number>;
  $setOnInsert?: Record<string, unknown>;
  $push?: Record<string, unknown>;
  $unset?: Record<string, '' | 1 | true>;
  /** Sets a field only when the given value is greater (checkpoints only ever move forward). */
  $max?: Record<string, number>;
}

export interface UpdateResult {
  matched: number;
  modified: number;
  upsertedId: string | null;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

/**
 * A document passed to `insertOne` or `replaceOne` belongs to the store from then on: callers do not
 * change it afterwards (the in-memory store keeps the object rather than a copy). Documents returned
 * by `find`/`findOne` are the caller's own copies.
 */
export interface ReadCollection<T extends Doc = Doc> {
  readonly name: string;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort' | 'projection'>): Promise<T | null>;
  count(filter?: Filter): Promise<number>;
  /**
   * Throws DuplicateKeyError when `_id` or a unique index collides. `idOnly`: the caller knows only
   * `_id` can refuse this document (a write-once document in a collection without other unique
   * indexes), so a clash is reported as `_id` without asking the server which index it was (on
   * FerretDB that question is a scan of the collection).
   */
  insertOne(doc: T, options?: { idOnly?: boolean }): Promise<void>;
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Replaces the whole document, or inserts it with `upsert`. */
  replaceOne(filter: Filter, doc: T, options?: { upsert?: boolean }): Promise<UpdateResult>;
  deleteMany(filter: Filter): Promise<number>;
  createIndex(index: IndexSpec): Promise<void>;
  drop(): Promise<void>;
}

export interface ReadStore {
  collection<T extends Doc = Doc>(name: string): ReadCollection<T>;
  listCollections(): Promise<string[]>;
  /** Answers when the backing server is reachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('ReadStore');

/** The index of a DuplicateKeyError when the server did not say which one and it could not be found. */
export const UNKNOWN_INDEX = 'unknown';

/**
 * A write refused by a unique index. `index` is `_id` for the primary key, the index name for any
 * other, or UNKNOWN_INDEX when the server did not name it (FerretDB) and no clash could be found.
 */
export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
  constructor(
    readonly collection: string,
    readonly index: string,
  ) {
    super(`duplicate key in ${collection} on ${index}`);
  }
}
