import { MongoClient, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import {
  DuplicateKeyError,
  type Doc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type Update,
  type UpdateResult,
} from '../read-store/read-store.port';

const DUPLICATE_KEY = 11000;

function duplicateIndex(error: MongoServerError): string {
  const match = /index: (\S+)/.exec(error.message);
  const name = match?.[1] ?? 'unknown';
  return name === '_id_' ? '_id' : name;
}

/** FerretDB v1 reports a unique clash on update as an InternalError carrying SQLite's message. */
const FERRET_UNIQUE = /UNIQUE constraint failed: index '.+?_[0-9a-f]{8}_(.+?)'/;

async function guard<T>(collection: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
      throw new DuplicateKeyError(collection, duplicateIndex(error));
    }
    const ferret = error instanceof MongoServerError ? FERRET_UNIQUE.exec(error.message) : null;
    if (ferret) throw new DuplicateKeyError(collection, ferret[1] === '_id_' ? '_id' : ferret[1]);
    throw error;
  }
}

/**
 * A read collection on MongoDB (or FerretDB). Only plain CRUD and indexes are used: no TTL indexes,
 * no transactions and no aggregation beyond $sum/$count, which FerretDB v1 lacks.
 */
/**
 * Where a write conditional on more than `_id` (the projection runtime's `{ _id, _version }`) is
 * checked. `server`: in the filter, atomically (MongoDB). `client`: the document is read by `_id`
 * and compared here, then written by `_id` alone; for FerretDB v1, which scans the whole collection
 * for any filter but a bare `_id` and does not make updates atomic anyway.
 */
export type ConditionalWrites = 'server' | 'client';

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

class MongoCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    readonly name: string,
    private readonly collection: Collection<Document>,
    private readonly conditionalWrites: ConditionalWrites,
  ) {}

  /**
   * With client-side conditions: `{ _id }` when the document exists and matches the rest of the
   * filter, `null` when it does not, `undefined` when the filter is not an `_id` equality one.
   */
  private async byIdWhenMatching(filter: Filter): Promise<Filter | null | undefined> {
    const keys = Object.keys(filter);
    if (this.conditionalWrites !== 'client' || typeof filter._id !== 'string' || keys.length < 2) return undefined;
    if (!keys.every((k) => !k.startsWith('$') && !k.includes('.') && isScalar(filter[k]))) return undefined;
    const current = await this.collection.findOne({ _id: filter._id } as Document);
    if (!current || !keys.every((k) => current[k] === filter[k])) return null;
    return { _id: filter._id };
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.collection.find(filter, options.projection ? { projection: options.projection } : {});
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.collection.countDocuments(filter);
  }

  async insertOne(doc: T): Promise<void> {
    await guard(this.name, () => this.collection.insertOne({ ...doc } as Document));
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    if (!options.upsert) {
      const byId = await this.byIdWhenMatching(filter);
      if (byId === null) return { matched: 0, modified: 0, upsertedId: null };
      if (byId) filter = byId;
    }
    const result = await guard(this.name, () =>
      this.collection.updateOne(filter, update as Document, { upsert: options.upsert ?? false }),
    );
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
    };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const { $setOnInsert: _ignored, ...rest } = update;
    const result = await guard(this.name, () => this.collection.updateMany(filter, rest as Document));
    return { matched: result.matchedCount, modified: result.modifiedCount, upsertedId: null };
  }

  async replaceOne(filter: Filter, doc: T, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    if (!options.upsert) {
      const byId = await this.byIdWhenMatching(filter);
      if (byId === null) return { matched: 0, modified: 0, upsertedId: null };
      if (byId) filter = byId;
    }
    const { _id, ...body } = doc;
    const result = await guard(this.name, () =>
      this.collection.replaceOne(filter, options.upsert ? { _id, ...body } : body, { upsert: options.upsert ?? false }),
    );
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
    };
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.collection.deleteMany(filter)).deletedCount;
  }

  async createIndex(index: IndexSpec): Promise<void> {
    const name = index.name ?? Object.keys(index.keys).join('_');
    await this.collection.createIndex(index.keys, { unique: index.unique ?? false, name });
  }

  async drop(): Promise<void> {
    // Deleting documents keeps the indexes, as the in-memory store does.
    await this.collection.deleteMany({});
  }
}

export class MongoReadStore implements ReadStore {
  private readonly db: Db;

  private constructor(
    private readonly client: MongoClient,
    database: string,
    private readonly conditionalWrites: ConditionalWrites,
  ) {
    this.db = client.db(database);
  }

  static async connect(url: string, database = 'analyst', conditionalWrites: ConditionalWrites = 'server'): Promise<MongoReadStore> {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
    return new MongoReadStore(client, database, conditionalWrites);
  }

  /** The driver's database handle, for adapters that share the connection (rate limits). */
  get database(): Db {
    return this.db;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MongoCollection<T>(name, this.db.collection(name), this.conditionalWrites);
  }

  async listCollections(): Promise<string[]> {
    return (await this.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
