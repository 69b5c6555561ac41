import { Query, update as applyUpdate } from 'mingo';
import rfdc from 'rfdc';
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
} from './read-store.port';
import { projectDocument } from './project-document';
import { upsertSeed } from './upsert-seed';

/** Documents are copied on the way out, so no reader can change a stored one; a written document
 * belongs to the store (see ReadCollection). rfdc copies JSON-like documents about five times faster
 * than structuredClone. */
const clone = rfdc();

interface UniqueIndex {
  name: string;
  fields: string[];
  entries: Map<string, string>; // index key -> _id
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A top-level field compared with a scalar, as `{ _version: 3 }`: no path, no operator. */
function isPlainEquality(key: string, value: unknown): boolean {
  return !key.includes('.') && !key.startsWith('$') && isScalar(value);
}

function getPath(doc: Record<string, unknown>, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** An in-memory collection queried with mingo, so query documents behave as on MongoDB. */
class MemoryCollection<T extends Doc> implements ReadCollection<T> {
  private readonly docs = new Map<string, T>();
  private readonly uniques: UniqueIndex[] = [];

  constructor(readonly name: string) {}

  /** Lookups by `_id` (the projection runtime's every read) touch one document, not the collection. */
  private candidates(filter: Filter): T[] {
    const id = filter._id;
    if (typeof id === 'string') {
      const doc = this.docs.get(id);
      return doc ? [doc] : [];
    }
    const ids = (id as { $in?: unknown } | undefined)?.$in;
    if (Array.isArray(ids) && Object.keys(id as object).length === 1) {
      return ids.flatMap((i) => (typeof i === 'string' && this.docs.has(i) ? [this.docs.get(i)!] : []));
    }
    return [...this.docs.values()];
  }

  private matching(filter: Filter, options: FindOptions = {}): T[] {
    const keys = Object.keys(filter);
    if (keys.length === 0 && !options.sort && !options.skip && !options.limit) return [...this.docs.values()];
    if (typeof filter._id === 'string' && keys.every((k) => isPlainEquality(k, filter[k])))
      return this.byIdEquality(filter._id, filter, keys, options);
    return this.queried(filter, options);
  }

  /**
   * `{ _id }` (the commonest query by far: every projection step), `{ _id, _version }` (the
   * projection runtime's conditional write) and other plain equalities beside an `_id`: one lookup,
   * no mingo query compiled.
   */
  private byIdEquality(id: string, filter: Filter, keys: string[], options: FindOptions): T[] {
    const doc = this.docs.get(id);
    return doc && !options.skip && keys.every((k) => doc[k] === filter[k]) ? [doc] : [];
  }

  private queried(filter: Filter, options: FindOptions): T[] {
    let cursor = new Query(filter).find<T>(this.candidates(filter));
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return cursor.all() as T[];
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const found = this.matching(filter, options);
    // Projected first: what a projection leaves out is never copied.
    const { projection } = options;
    return (projection ? found.map((d) => projectDocument(d, projection)) : found).map((d) => clone(d));
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async count(filter: Filter = {}): Promise<number> {
    return Object.keys(filter).length === 0 ? this.docs.size : this.matching(filter).length;
  }

  async insertOne(doc: T): Promise<void> {
    if (this.docs.has(doc._id)) throw new DuplicateKeyError(this.name, '_id');
    this.write(null, doc);
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const [target] = this.matching(filter, { limit: 1 });
    if (target) {
      const next = clone(target);
      const { $setOnInsert: _ignored, ...rest } = update;
      const changed = applyUpdate(next, rest as never);
      this.write(target, next);
      return { matched: 1, modified: changed.length > 0 ? 1 : 0, upsertedId: null };
    }
    if (!options.upsert) return { matched: 0, modified: 0, upsertedId: null };
    const seed = upsertSeed(filter) as T;
    const { $setOnInsert, ...rest } = update;
    if ($setOnInsert) applyUpdate(seed, { $set: $setOnInsert } as never);
    applyUpdate(seed, rest as never);
    if (typeof seed._id !== 'string')
      throw new Error(`upsert into ${this.name} needs a string _id in the filter`);
    if (this.docs.has(seed._id)) throw new DuplicateKeyError(this.name, '_id');
    this.write(null, seed);
    return { matched: 0, modified: 0, upsertedId: seed._id };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const { $setOnInsert: _ignored, ...rest } = update;
    let modified = 0;
    const targets = this.matching(filter);
    for (const target of targets) {
      const next = clone(target);
      if (applyUpdate(next, rest as never).length > 0) modified += 1;
      this.write(target, next);
    }
    return { matched: targets.length, modified, upsertedId: null };
  }

  async replaceOne(filter: Filter, doc: T, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const [target] = this.matching(filter, { limit: 1 });
    if (target) {
      this.write(target, { ...doc, _id: target._id });
      return { matched: 1, modified: 1, upsertedId: null };
    }
    if (!options.upsert) return { matched: 0, modified: 0, upsertedId: null };
    await this.insertOne(doc);
    return { matched: 0, modified: 0, upsertedId: doc._id };
  }

  async deleteMany(filter: Filter): Promise<number> {
    const targets = this.matching(filter);
    for (const target of targets) this.remove(target);
    return targets.length;
  }

  async createIndex(index: IndexSpec): Promise<void> {
    if (!index.unique) return; // plain indexes only speed up MongoDB; a scan is fine in memory
    const fields = Object.keys(index.keys);
    const name = index.name ?? fields.join('_');
    if (this.uniques.some((u) => u.name === name)) return;
    const unique: UniqueIndex = { name, fields, entries: new Map() };
    for (const doc of this.docs.values()) {
      const key = this.indexKey(unique, doc);
      if (unique.entries.has(key)) throw new DuplicateKeyError(this.name, name);
      unique.entries.set(key, doc._id);
    }
    this.uniques.push(unique);
  }

  async drop(): Promise<void> {
    this.docs.clear();
    for (const unique of this.uniques) unique.entries.clear();
  }

  private indexKey(unique: UniqueIndex, doc: T): string {
    return JSON.stringify(unique.fields.map((f) => getPath(doc, f) ?? null));
  }

  /** Checks every unique index before touching anything, so a rejected write changes nothing. */
  private write(previous: T | null, next: T): void {
    for (const unique of this.uniques) {
      const owner = unique.entries.get(this.indexKey(unique, next));
      if (owner !== undefined && owner !== next._id) throw new DuplicateKeyError(this.name, unique.name);
    }
    if (previous) this.remove(previous);
    this.docs.set(next._id, next);
    for (const unique of this.uniques) unique.entries.set(this.indexKey(unique, next), next._id);
  }

  private remove(doc: T): void {
    this.docs.delete(doc._id);
    for (const unique of this.uniques) {
      const key = this.indexKey(unique, doc);
      if (unique.entries.get(key) === doc._id) unique.entries.delete(key);
    }
  }
}

export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection<Doc>>();

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MemoryCollection<Doc>(name);
      this.collections.set(name, collection);
    }
    return collection as unknown as ReadCollection<T>;
  }

  async listCollections(): Promise<string[]> {
    return [...this.collections.keys()];
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
