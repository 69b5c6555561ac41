import type { BeforeApplicationShutdown, OnApplicationShutdown } from '@nestjs/common';
import { dayBucket, minuteBucket, type RateClassId } from '@analyst/domain-identity';
import type { GatewayStateDb } from '../state/gateway-state-db';
import type { CounterReading, RateCounters } from './rate-counters';

type Counts = Partial<Record<RateClassId, number>>;

/** A key's counts of one UTC day: the same shape as MongoRateCounters' document, kept in a Map. */
interface KeyDay {
  day: number;
  /** Counts per class for the whole day. */
  d: Counts;
  /** Counts per class for each of the last few minutes, by minute bucket. */
  m: Map<number, Counts>;
  /** Response bytes sent today. */
  b: number;
}

/** Minutes behind the current one kept for a late refund or read (as MongoRateCounters keeps). */
const STALE_MINUTES = 3;

interface SavedKeyDay {
  d: Counts;
  m: [number, Counts][];
  b: number;
}

/**
 * The standalone gateway's counters: one plain object per key and UTC day in a Map, so a request's
 * charge is a few property increments with no I/O, no timers and no per-counter promises (the
 * rate-limiter-flexible memory limiters this replaces cost /me 23 promise-returning lookups).
 * One process holds every count, so increments are exact. Documents that changed are written to the
 * gateway state db every `intervalMs` and at shutdown, and loaded at start: a restart keeps every
 * daily budget, burst count and the byte cap; a crash loses at most the last interval. Failed
 * authentications per address live one minute in memory only.
 */
export class MemoryRateCounters implements RateCounters, BeforeApplicationShutdown, OnApplicationShutdown {
  readonly shared = false;
  private readonly docs = new Map<string, KeyDay>();
  private readonly changed = new Set<string>();
  private readonly failures = new Map<string, { minute: number; count: number }>();
  private failureMinute = -1;
  private readonly timer: NodeJS.Timeout | null;

  /** `clock` is the app's: which days are current (kept, loaded) is its call, as every window is. */
  constructor(
    private readonly state: GatewayStateDb | null = null,
    intervalMs = 1000,
    private readonly clock: { now(): Date } = { now: () => new Date() },
  ) {
    this.load(clock.now());
    this.timer = state ? setInterval(() => this.save(), intervalMs) : null;
    this.timer?.unref();
  }

  charge(keyId: string, classes: readonly RateClassId[], now: Date): Promise<CounterReading> {
    return Promise.resolve(this.chargeNow(keyId, classes, now));
  }

  chargeNow(keyId: string, classes: readonly RateClassId[], now: Date): CounterReading {
    const doc = this.doc(keyId, now, true)!;
    const minute = minuteBucket(now);
    let counts = doc.m.get(minute);
    if (!counts) {
      counts = {};
      doc.m.set(minute, counts);
      for (const t of doc.m.keys()) if (t < minute - STALE_MINUTES) doc.m.delete(t);
    }
    for (const c of classes) {
      doc.d[c] = (doc.d[c] ?? 0) + 1;
      counts[c] = (counts[c] ?? 0) + 1;
    }
    this.changed.add(this.id(keyId, doc.day));
    return { minute: { ...counts }, day: { ...doc.d }, bytes: doc.b };
  }

  refund(keyId: string, classes: readonly RateClassId[], now: Date): Promise<void> {
    this.refundNow(keyId, classes, now);
    return Promise.resolve();
  }

  refundNow(keyId: string, classes: readonly RateClassId[], now: Date): void {
    const doc = this.doc(keyId, now, false);
    const counts = doc?.m.get(minuteBucket(now));
    if (doc) {
      for (const c of classes) {
        if (doc.d[c] !== undefined) doc.d[c]! -= 1;
        if (counts?.[c] !== undefined) counts[c]! -= 1;
      }
      this.changed.add(this.id(keyId, doc.day));
    }
  }

  read(keyId: string, now: Date): Promise<CounterReading> {
    const doc = this.doc(keyId, now, false);
    if (!doc) return Promise.resolve({ minute: {}, day: {}, bytes: 0 });
    const counts = doc.m.get(minuteBucket(now));
    return Promise.resolve({ minute: { ...counts }, day: { ...doc.d }, bytes: doc.b });
  }

  addBytes(keyId: string, bytes: number, now: Date): Promise<number> {
    return Promise.resolve(this.addBytesNow(keyId, bytes, now));
  }

  addBytesNow(keyId: string, bytes: number, now: Date): number {
    if (bytes === 0) return this.doc(keyId, now, false)?.b ?? 0;
    const doc = this.doc(keyId, now, true)!;
    doc.b += bytes;
    this.changed.add(this.id(keyId, doc.day));
    return doc.b;
  }

  authFailures(ip: string, now: Date): Promise<number> {
    return Promise.resolve(this.authFailuresNow(ip, now));
  }

  authFailuresNow(ip: string, now: Date): number {
    const seen = this.failures.get(ip);
    return seen && seen.minute === minuteBucket(now) ? seen.count : 0;
  }

  recordAuthFailure(ip: string, now: Date): Promise<void> {
    this.recordAuthFailureNow(ip, now);
    return Promise.resolve();
  }

  recordAuthFailureNow(ip: string, now: Date): void {
    const minute = minuteBucket(now);
    // Addresses of past minutes are dropped, so the map holds one minute's addresses at most.
    if (minute !== this.failureMinute) {
      for (const [k, v] of this.failures) if (v.minute !== minute) this.failures.delete(k);
      this.failureMinute = minute;
    }
    const seen = this.failures.get(ip);
    this.failures.set(ip, { minute, count: seen && seen.minute === minute ? seen.count + 1 : 1 });
  }

  /** Writes the documents that changed since the last save, and drops days that have passed, in one transaction. */
  save(now: Date = this.clock.now()): void {
    const db = this.state?.db;
    if (!db?.open) return;
    const oldest = dayBucket(now) - 1;
    const ids = [...this.changed];
    this.changed.clear();
    const upsert = db.prepare(
      'INSERT INTO rate_counters (id, day, doc) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET day = excluded.day, doc = excluded.doc',
    );
    db.transaction(() => {
      for (const id of ids) {
        const doc = this.docs.get(id);
        if (doc) upsert.run(id, doc.day, JSON.stringify(this.saved(doc)));
      }
      db.prepare('DELETE FROM rate_counters WHERE day < ?').run(oldest);
    })();
    for (const [id, doc] of this.docs) if (doc.day < oldest) this.docs.delete(id);
  }

  /** Before the HTTP server closes, and again after (for requests that finished meanwhile) while the db is open. */
  beforeApplicationShutdown(): void {
    this.save();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.save();
  }

  private load(now: Date): void {
    const db = this.state?.db;
    if (!db) return;
    // Yesterday's documents too: a request charged at 23:59:59 may be refunded just after midnight.
    const rows = db
      .prepare('SELECT id, day, doc FROM rate_counters WHERE day >= ?')
      .all(dayBucket(now) - 1) as { id: string; day: number; doc: string }[];
    for (const row of rows) {
      const saved = JSON.parse(row.doc) as SavedKeyDay;
      this.docs.set(row.id, { day: row.day, d: saved.d, m: new Map(saved.m), b: saved.b });
    }
  }

  private saved(doc: KeyDay): SavedKeyDay {
    return { d: doc.d, m: [...doc.m], b: doc.b };
  }

  private doc(keyId: string, now: Date, create: boolean): KeyDay | undefined {
    const day = dayBucket(now);
    const id = this.id(keyId, day);
    let doc = this.docs.get(id);
    if (!doc && create) {
      doc = { day, d: {}, m: new Map(), b: 0 };
      this.docs.set(id, doc);
    }
    return doc;
  }

  private id(keyId: string, day: number): string {
    return `${keyId}:${day}`;
  }
}
