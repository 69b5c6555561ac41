import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import {
  DuplicateKeyError,
  UNKNOWN_INDEX,
  type Doc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type Update,
  type UpdateResult,
  valueAt,
} from '@analyst/eventsourcing';
import { duplicateKeyIndex } from './duplicate-key';
import { readServerCapabilities, type MongoServerCapabilities } from './server-capabilities';

/** The server's answer when a collection (hence its index list) does not exist yet. */
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

function codeOf(error: unknown): unknown {
  return error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

/**
 * A read collection on MongoDB (or mongo-java-server, or FerretDB). Only plain CRUD and indexes are
 * used: no TTL indexes, no transactions, no change streams and no aggregation beyond $sum/$count,
 * which FerretDB v1 or mongo-java-server lack.
 */
/**
 * Where a write conditional on more than `_id` (the projection runtime's `{ _id, _version }`) is
 * checked. `server`: in the filter, atomically (MongoDB). `client`: the document is read by `_id`
 * and compared here, then written by `_id` alone; for FerretDB v1 only, which scans the whole
 * collection for any filter but a bare `_id` and does not make updates atomic anyway (on an atomic
 * server, `client` would lose updates between the read and the write).
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
    if (this.conditionalWrites !== 'client' || typeof filter._id !== 'string' || keys.length < 2)
      return undefined;
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

  async insertOne(doc: T, options: { idOnly?: boolean } = {}): Promise<void> {
    await this.guard(
      doc,
      () => this.collection.insertOne({ ...doc } as Document),
      options.idOnly ? '_id' : undefined,
    );
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    if (!options.upsert) {
      const byId = await this.byIdWhenMatching(filter);
      if (byId === null) return { matched: 0, modified: 0, upsertedId: null };
      if (byId) filter = byId;
    }
    // Only an upsert can clash on `_id`; the server names the index of any other clash on update.
    const candidate = options.upsert && typeof filter._id === 'string' ? { _id: filter._id } : null;
    const result = await this.guard(candidate, () =>
      this.collection.updateOne(filter, update as Document, { upsert: options.upsert ?? false }),
    );
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      upsertedId:
        result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
    };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const { $setOnInsert: _ignored, ...rest } = update;
    const result = await this.guard(null, () => this.collection.updateMany(filter, rest as Document));
    return { matched: result.matchedCount, modified: result.modifiedCount, upsertedId: null };
  }

  async replaceOne(filter: Filter, doc: T, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    if (!options.upsert) {
      const byId = await this.byIdWhenMatching(filter);
      if (byId === null) return { matched: 0, modified: 0, upsertedId: null };
      if (byId) filter = byId;
    }
    const { _id, ...body } = doc;
    const result = await this.guard(doc, () =>
      this.collection.replaceOne(filter, options.upsert ? { _id, ...body } : body, {
        upsert: options.upsert ?? false,
      }),
    );
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      upsertedId:
        result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
    };
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.collection.deleteMany(filter)).deletedCount;
  }

  async createIndex(index: IndexSpec): Promise<void> {
    const name = index.name ?? Object.keys(index.keys).join('_');
    const unique = index.unique ?? false;
    const existing = (await this.indexes()).find((i) => i.name === name);
    if (
      existing &&
      (Boolean(existing.unique) !== unique || JSON.stringify(existing.key) !== JSON.stringify(index.keys))
    ) {
      // The declared index is the truth for a read model (one that stopped being unique must stop
      // refusing writes). MongoDB would refuse the new spec under the old name; FerretDB would
      // silently keep the old index.
      await this.collection.dropIndex(name).catch((error: unknown) => {
        if (codeOf(error) !== INDEX_NOT_FOUND) throw error; // another replica dropped it first
      });
    }
    await this.collection.createIndex(index.keys, { unique, name });
  }

  private async indexes(): Promise<{ name?: string; key: Record<string, unknown>; unique?: boolean }[]> {
    try {
      return await this.collection.indexes();
    } catch (error) {
      if (codeOf(error) === NAMESPACE_NOT_FOUND) return [];
      throw error;
    }
  }

  /** Runs a write, turning any server's unique-index violation into a DuplicateKeyError naming the index. */
  private async guard<R>(
    candidate: Record<string, unknown> | null,
    work: () => Promise<R>,
    unnamed?: string,
  ): Promise<R> {
    try {
      return await work();
    } catch (error) {
      const index = duplicateKeyIndex(error);
      if (index === null) throw error;
      throw new DuplicateKeyError(
        this.name,
        index === UNKNOWN_INDEX ? (unnamed ?? (await this.clashingIndex(candidate))) : index,
      );
    }
  }

  /**
   * Which unique index a refused document collides on, when the server did not say (FerretDB's
   * E11000 names none): `_id` when a document with its id exists, else the first unique index on
   * which another document holds the same values.
   */
  private async clashingIndex(candidate: Record<string, unknown> | null): Promise<string> {
    if (!candidate) return UNKNOWN_INDEX;
    try {
      if (
        candidate._id !== undefined &&
        (await this.collection.findOne({ _id: candidate._id } as Document, { projection: { _id: 1 } }))
      ) {
        return '_id';
      }
      for (const index of await this.indexes()) {
        if (!index.unique || index.name === '_id_' || !index.name) continue;
        const filter: Document = { _id: { $ne: candidate._id } };
        for (const key of Object.keys(index.key)) filter[key] = valueAt(candidate, key) ?? null;
        if (await this.collection.findOne(filter, { projection: { _id: 1 } })) return index.name;
      }
    } catch {
      // Best effort: the write was refused either way, only its index stays unnamed.
    }
    return UNKNOWN_INDEX;
  }

  async drop(): Promise<void> {
    // Deleting documents keeps the indexes, as the in-memory store does.
    await this.collection.deleteMany({});
  }
}

/** How long an operation waits for a reachable server before it fails (MongoServerSelectionError). */
export const SERVER_SELECTION_TIMEOUT_MS = 3_000;
/** How long `connect` keeps trying a server that is not up yet. */
const CONNECT_PATIENCE_MS = 10_000;

export class MongoReadStore implements ReadStore {
  private readonly db: Db;

  private constructor(
    private readonly client: MongoClient,
    database: string,
    private readonly conditionalWrites: ConditionalWrites,
    /** What the server guarantees (read from `buildInfo` at connect). */
    readonly capabilities: MongoServerCapabilities,
  ) {
    this.db = client.db(database);
  }

  static async connect(
    url: string,
    database = 'analyst',
    conditionalWrites: ConditionalWrites = 'server',
    tls: { caFile?: string } = {},
  ): Promise<MongoReadStore> {
    // A CA file means the servers speak TLS with certificates it signed (MONGO_CA_FILE).
    // Server selection bounds how long an operation waits for a server that is down: requests must
    // answer within seconds (503), so 3 s, where the driver's default is 30 s.
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
      ...(tls.caFile ? { tls: true, tlsCAFile: tls.caFile } : {}),
    });
    // At start-up the server may come up a little after us: keep trying for CONNECT_PATIENCE_MS.
    const giveUpAt = Date.now() + CONNECT_PATIENCE_MS;
    for (;;) {
      try {
        await client.connect();
        break;
      } catch (error) {
        if (Date.now() + SERVER_SELECTION_TIMEOUT_MS > giveUpAt) throw error;
      }
    }
    return new MongoReadStore(client, database, conditionalWrites, await readServerCapabilities(client.db()));
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
