/**
 * An immutable map whose `set` is O(1) along a single line of history. Every version shares one
 * log of changes; a lookup sees only changes at or below its own version. Setting on an older
 * version (a branch) first copies what that version sees, so every version keeps answering as it
 * did: the map behaves exactly like a copied Map, without copying on every event of a long stream.
 * This keeps `evolve` pure while a ledger stream folds a million events in linear time.
 */
interface History<V> {
  /** Ascending versions at which the key was written, with the value written. */
  versions: number[];
  values: V[];
}

class Log<K, V> {
  head = 0;
  readonly entries = new Map<K, History<V>>();
}

export class PersistentMap<K, V> {
  private constructor(
    private readonly log: Log<K, V>,
    private readonly version: number,
    readonly size: number,
  ) {}

  static empty<K, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(new Log<K, V>(), 0, 0);
  }

  get(key: K): V | undefined {
    const history = this.log.entries.get(key);
    if (!history) return undefined;
    for (let i = history.versions.length - 1; i >= 0; i--) {
      if (history.versions[i] <= this.version) return history.values[i];
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): PersistentMap<K, V> {
    const log = this.log.head === this.version ? this.log : this.branch();
    const size = this.get(key) === undefined ? this.size + 1 : this.size;
    const version = log.head + 1;
    log.head = version;
    let history = log.entries.get(key);
    if (!history) {
      history = { versions: [], values: [] };
      log.entries.set(key, history);
    }
    history.versions.push(version);
    history.values.push(value);
    return new PersistentMap(log, version, size);
  }

  *entries(): IterableIterator<[K, V]> {
    for (const key of this.log.entries.keys()) {
      const value = this.get(key);
      if (value !== undefined) yield [key, value];
    }
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  /** A fresh log holding only what this version sees, so the old line of history stays untouched. */
  private branch(): Log<K, V> {
    const log = new Log<K, V>();
    log.head = this.version;
    for (const [key, value] of this.entries())
      log.entries.set(key, { versions: [this.version], values: [value] });
    return log;
  }
}
