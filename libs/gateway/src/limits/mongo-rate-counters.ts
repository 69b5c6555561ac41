import type { Collection, Db } from 'mongodb';
import { dayBucket, minuteBucket, type RateClassId } from '@analyst/domain-identity';
import { GroupCommit } from '../batching/group-commit';
import type { CounterReading, RateCounters } from './rate-counters';

/** One collection: a document per key and UTC day, and one per address and minute for failed authentications. */
export const RATE_COUNTER_COLLECTION = 'rate_counters';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How long this replica trusts its reading of an address's failed authentications (other replicas' failures show after this). */
export const AUTH_FAILURE_CACHE_MS = 1000;
/** Minutes behind the current one whose counts a charge clears from the day document. */
const STALE_MINUTES = 3;

/**
 * `{ _id: "<keyId>:<day>", d: { <class>: n }, m: { t<minute>: { <class>: n } }, b: bytes, expire }`:
 * a request's whole charge (its classes' minute and day counts) is one `findOneAndUpdate` with `$inc`,
 * which MongoDB applies atomically to the one document and answers with the counts after, the
 * day's bytes included. So admission costs one round trip, where a counter per limiter key took five.
 */
interface KeyDayDoc {
  _id: string;
  d?: Partial<Record<RateClassId, number>>;
  m?: Record<string, Partial<Record<RateClassId, number>>>;
  b?: number;
  n?: number;
  expire: Date;
}

/** A charge (+1 to each class), a refund (-1) or response bytes, as one request asked for it. */
interface CounterChange {
  classes: readonly RateClassId[];
  step: 1 | -1;
  bytes: number;
}

/** A change with the windows it lands in. */
interface LaneChange extends CounterChange {
  minute: number;
  now: Date;
}

/**
 * The distributed gateway's counters in MongoDB, shared by every replica. Increments are atomic per
 * document on MongoDB. Expired documents are deleted by `sweep()` (FerretDB has no TTL indexes), which
 * the gateway runs every minute.
 */
export class MongoRateCounters implements RateCounters {
  readonly shared = true;
  private readonly failures = new Map<string, { minute: number; count: number; at: number }>();
  private readonly lanes = new GroupCommit<LaneChange, CounterReading>((lane, batch) =>
    this.applyBatch(lane, batch),
  );

  private constructor(private readonly collection: Collection<KeyDayDoc>) {}

  static async connect(db: Db): Promise<MongoRateCounters> {
    const collection = db.collection<KeyDayDoc>(RATE_COUNTER_COLLECTION);
    await collection.createIndex({ expire: 1 }, { name: 'rate_counters_expire' });
    return new MongoRateCounters(collection);
  }

  async charge(keyId: string, classes: readonly RateClassId[], now: Date): Promise<CounterReading> {
    return this.change(keyId, now, { classes, step: 1, bytes: 0 });
  }

  async refund(keyId: string, classes: readonly RateClassId[], now: Date): Promise<void> {
    await this.change(keyId, now, { classes, step: -1, bytes: 0 });
  }

  async read(keyId: string, now: Date): Promise<CounterReading> {
    const minute = minuteBucket(now);
    const doc = await this.collection.findOne(
      { _id: this.dayId(keyId, now) },
      { projection: { d: 1, b: 1, [`m.t${minute}`]: 1 } },
    );
    return { minute: { ...doc?.m?.[`t${minute}`] }, day: { ...doc?.d }, bytes: doc?.b ?? 0 };
  }

  async addBytes(keyId: string, bytes: number, now: Date): Promise<number> {
    if (bytes === 0) return (await this.read(keyId, now)).bytes;
    return (await this.change(keyId, now, { classes: [], step: 1, bytes })).bytes;
  }

  /**
   * Read from the store at most once a second per address: every request asks, and almost every
   * answer is 0. This replica's own failures count at once; another replica's show within the second.
   */
  async authFailures(ip: string, now: Date): Promise<number> {
    const minute = minuteBucket(now);
    const seen = this.failures.get(ip);
    if (seen && seen.minute === minute && Date.now() - seen.at < AUTH_FAILURE_CACHE_MS) return seen.count;
    const at = Date.now();
    const doc = await this.collection.findOne({ _id: this.failureId(ip, minute) }, { projection: { n: 1 } });
    this.remember(ip, minute, doc?.n ?? 0, at);
    return doc?.n ?? 0;
  }

  async recordAuthFailure(ip: string, now: Date): Promise<void> {
    const minute = minuteBucket(now);
    const at = Date.now();
    const doc = await this.upsert(this.failureId(ip, minute), {
      $inc: { n: 1 },
      $setOnInsert: { expire: new Date((minute + 2) * MINUTE_MS) },
    });
    this.remember(ip, minute, doc?.n ?? 1, at);
  }

  /** Deletes documents whose window has passed; returns how many. */
  async sweep(now: Date): Promise<number> {
    return (await this.collection.deleteMany({ expire: { $lt: now } })).deletedCount;
  }

  private remember(ip: string, minute: number, count: number, at: number): void {
    // Addresses of past minutes are dropped, so the map holds one minute's addresses at most.
    const first = this.failures.values().next();
    if (!first.done && first.value.minute !== minute) {
      for (const [k, v] of this.failures) if (v.minute !== minute) this.failures.delete(k);
    }
    this.failures.set(ip, { minute, count, at });
  }

  /**
   * Every change to a key's day document goes through that document's lane: one
   * `findOneAndUpdate` in flight per document from this replica, and what arrives meanwhile goes
   * next as one. See `applyBatch`.
   */
  private change(keyId: string, now: Date, change: CounterChange): Promise<CounterReading> {
    return this.lanes.submit(this.dayId(keyId, now), { ...change, minute: minuteBucket(now), now });
  }

  /**
   * A batch's changes summed into one atomic `$inc` on the day document, which answers the counts
   * after all of them. Each change is then answered the counts as if the batch had been applied one
   * change at a time in arrival order: the final counts less every later change. On MongoDB the
   * counters stay exact across replicas (another replica's update lands wholly before or after the
   * batch), and a busy key costs one round trip per batch instead of one per request. On FerretDB
   * v1, whose findAndModify is a read then a write, one replica's own changes to a key no longer
   * race each other.
   */
  private async applyBatch(id: string, batch: LaneChange[]): Promise<CounterReading[]> {
    const doc = await this.upsert(id, batchUpdate(batch, this.dayExpiry(batch[0].now)));
    return readingsInOrder(doc, batch);
  }

  /**
   * An upsert that answers the document after. Two replicas upserting a new document at once can
   * collide on `_id` (E11000) where the server does not retry that itself; the loser retries, and
   * its retry finds the document and increments it.
   */
  private async upsert(id: string, update: Record<string, unknown>): Promise<KeyDayDoc | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.collection.findOneAndUpdate({ _id: id }, update, {
          upsert: true,
          // No projection: FerretDB's findAndModify refuses one. The document stays small, since
          // each charge clears the minutes before its own.
          returnDocument: 'after',
        });
      } catch (error) {
        if ((error as { code?: number }).code !== 11000 || attempt >= 3) throw error;
      }
    }
  }

  private dayId(keyId: string, now: Date): string {
    return `${keyId}:${dayBucket(now)}`;
  }

  private failureId(ip: string, minute: number): string {
    return `ip:${ip}:${minute}`;
  }

  /** Kept a day past its own: a request charged at 23:59:59 may still be refunded or read just after midnight. */
  private dayExpiry(now: Date): Date {
    return new Date((dayBucket(now) + 2) * DAY_MS);
  }
}

/** One update for a whole batch: every change summed into one `$inc`, the stale minutes cleared. */
function batchUpdate(batch: readonly LaneChange[], expire: Date): Record<string, unknown> {
  const inc: Record<string, number> = {};
  const add = (path: string, n: number) => (inc[path] = (inc[path] ?? 0) + n);
  let newest = batch[0].minute;
  for (const change of batch) {
    for (const c of change.classes) {
      add(`d.${c}`, change.step);
      add(`m.t${change.minute}.${c}`, change.step);
    }
    if (change.bytes !== 0) add('b', change.bytes);
    newest = Math.max(newest, change.minute);
  }
  // The minutes before the newest are cleared, except one this batch counts in (a batch that
  // spans a minute's turn): clearing and counting the same path in one update is refused.
  const counted = new Set(batch.map((c) => c.minute));
  const unset: Record<string, ''> = {};
  for (let m = newest - STALE_MINUTES; m < newest; m++) if (!counted.has(m)) unset[`m.t${m}`] = '';
  return {
    ...(Object.keys(inc).length > 0 ? { $inc: inc } : {}),
    ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
    $setOnInsert: { expire },
  };
}

/**
 * Each change's counts as if the batch had been applied one change at a time in arrival order:
 * walking back from the counts after the whole batch, taking out each change as it is passed.
 */
function readingsInOrder(doc: KeyDayDoc | null, batch: readonly LaneChange[]): CounterReading[] {
  const minuteCounts = new Map<number, Partial<Record<RateClassId, number>>>();
  for (const change of batch)
    if (!minuteCounts.has(change.minute))
      minuteCounts.set(change.minute, { ...doc?.m?.[`t${change.minute}`] });
  const dayCounts: Partial<Record<RateClassId, number>> = { ...doc?.d };
  let bytes = doc?.b ?? 0;
  const readings: CounterReading[] = new Array<CounterReading>(batch.length);
  for (let i = batch.length - 1; i >= 0; i--) {
    const change = batch[i];
    const minuteOf = minuteCounts.get(change.minute)!;
    readings[i] = { minute: { ...minuteOf }, day: { ...dayCounts }, bytes };
    for (const c of change.classes) {
      minuteOf[c] = (minuteOf[c] ?? 0) - change.step;
      dayCounts[c] = (dayCounts[c] ?? 0) - change.step;
    }
    bytes -= change.bytes;
  }
  return readings;
}
