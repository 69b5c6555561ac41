import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ANALYST_CONFIG, type AnalystConfig } from '@analyst/platform';
import {
  FAILED_AUTH_PER_MINUTE,
  RATE_CLASS_IDS,
  secondsUntilMidnight,
  secondsUntilNextMinute,
  type EffectiveLimits,
  type RateClassId,
} from '@analyst/domain-identity';
import { ByteLeases } from './byte-leases';
import { RATE_COUNTERS, type CounterReading, type RateCounters } from './rate-counters';

export type Window = 'minute' | 'day';

/** One counter a request was charged to. */
interface Charge {
  rateClass: RateClassId;
  window: Window;
  cap: number;
}

export interface ClassUsage {
  perMinute: number;
  perDay: number;
  remainingPerMinute: number;
  remainingPerDay: number;
}

/** The numbers the rate-limit headers and `GET /me` report, taken right after admission. */
export interface LimitSnapshot {
  rateClass: RateClassId;
  global: ClassUsage;
  routeClass: ClassUsage;
  dailyBytes: number;
  remainingBytes: number;
  secondsToMinute: number;
  secondsToMidnight: number;
}

export interface Trip {
  kind: 'burst' | 'daily' | 'bytes';
  rateClass: RateClassId;
  cap: number;
  retryAfter: number;
}

/** `reading`: every counter of the key right after this request's charge (what `GET /me` reports). */
export type Admission =
  | { admitted: true; snapshot: LimitSnapshot; reading: CounterReading }
  | { admitted: false; trip: Trip; snapshot: LimitSnapshot; reading: CounterReading };

/**
 * Per-key counters in fixed UTC windows. A request is charged to the global class and its route's
 * class, each per minute and per day. Every charge is an atomic increment; if any counter went
 * over its cap the route class's charges are handed back, so exactly `cap` concurrent requests get
 * through. The global ones stay: the contract counts every request against the global budget,
 * refused ones included, so a client hammering past a 429 keeps spending it.
 */
@Injectable()
export class RateLimitService implements BeforeApplicationShutdown, OnApplicationShutdown {
  /** Failed authentications per address and UTC minute before the address is refused (the spec's 30 by default). */
  readonly authFailuresPerMinute: number;
  /** Replicas share the counters: the byte cap is spent from leases (see ByteLeases). */
  private readonly leases: ByteLeases | null;

  constructor(
    @Inject(RATE_COUNTERS) private readonly counters: RateCounters,
    @Optional() @Inject(ANALYST_CONFIG) config?: AnalystConfig,
  ) {
    this.authFailuresPerMinute = config?.ANALYST_AUTH_FAILURES_PER_MINUTE ?? FAILED_AUTH_PER_MINUTE;
    this.leases = counters.shared ? new ByteLeases(counters) : null;
  }

  /**
   * Unused byte leases go back to the shared count: before the HTTP server closes, and again after
   * it (a request answered in between may have taken a new lease; the store may be closed by then).
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.leases?.release(new Date());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.leases?.release(new Date()).catch(() => undefined);
  }

  /** The day's response bytes as the store counts them, less this replica's unused lease. */
  private bytesUsed(keyId: string, reading: CounterReading, now: Date): number {
    return reading.bytes - (this.leases?.unused(keyId, now) ?? 0);
  }

  private charges(rateClass: RateClassId, limits: EffectiveLimits): Charge[] {
    const classes: RateClassId[] = rateClass === 'global' ? ['global'] : ['global', rateClass];
    return classes.flatMap((c) => [
      { rateClass: c, window: 'minute' as const, cap: limits.classes[c].perMinute },
      { rateClass: c, window: 'day' as const, cap: limits.classes[c].perDay },
    ]);
  }

  async admit(keyId: string, rateClass: RateClassId, limits: EffectiveLimits, now: Date): Promise<Admission> {
    const charges = this.charges(rateClass, limits);
    const classes: RateClassId[] = rateClass === 'global' ? ['global'] : ['global', rateClass];
    // One call charges every counter and reads the day's bytes (one round trip to a shared store).
    const reading = await this.counters.charge(keyId, classes, now);
    const bytesUsed = this.bytesUsed(keyId, reading, now);
    const counts = charges.map((c) => countOf(reading, c));
    if (bytesUsed >= limits.dailyBytes) {
      await this.handBack(keyId, rateClass, now);
      const after = counts.map((n, i) => n - (charges[i].rateClass === 'global' ? 0 : 1));
      const snapshot = this.snapshot(rateClass, limits, charges, after, bytesUsed, now);
      return {
        admitted: false,
        trip: { kind: 'bytes', rateClass, cap: limits.dailyBytes, retryAfter: snapshot.secondsToMidnight },
        snapshot,
        reading,
      };
    }
    const over = charges.filter((c, i) => counts[i] > c.cap);
    if (over.length === 0)
      return {
        admitted: true,
        snapshot: this.snapshot(rateClass, limits, charges, counts, bytesUsed, now),
        reading,
      };
    await this.handBack(keyId, rateClass, now);
    const after = counts.map((n, i) => n - (charges[i].rateClass === 'global' ? 0 : 1));
    const snapshot = this.snapshot(rateClass, limits, charges, after, bytesUsed, now);
    // The longest wait wins: a daily budget outlasts a burst cap; the route's class names it on a tie.
    const worst = over.reduce((a, b) => {
      if (a.window !== b.window) return a.window === 'day' ? a : b;
      return a.rateClass === 'global' ? b : a;
    });
    const kind = worst.window === 'day' ? 'daily' : 'burst';
    const retryAfter = kind === 'daily' ? snapshot.secondsToMidnight : snapshot.secondsToMinute;
    return {
      admitted: false,
      trip: { kind, rateClass: worst.rateClass, cap: worst.cap, retryAfter },
      snapshot,
      reading,
    };
  }

  /** A refused request: the route class's charges are returned; the global ones stay counted. */
  private async handBack(keyId: string, rateClass: RateClassId, now: Date): Promise<void> {
    if (rateClass !== 'global') await this.counters.refund(keyId, [rateClass], now);
  }

  /**
   * What `GET /me` reports for every class, and the day's bytes: from the reading its admission
   * took (no second round trip), or read without charging.
   */
  async usage(
    keyId: string,
    limits: EffectiveLimits,
    now: Date,
    admitted?: CounterReading | null,
  ): Promise<{ classes: Record<RateClassId, ClassUsage>; bytesUsed: number }> {
    const reading = admitted ?? (await this.counters.read(keyId, now));
    const classes = {} as Record<RateClassId, ClassUsage>;
    for (const c of RATE_CLASS_IDS) {
      const caps = limits.classes[c];
      classes[c] = {
        perMinute: caps.perMinute,
        perDay: caps.perDay,
        remainingPerMinute: Math.max(0, caps.perMinute - (reading.minute[c] ?? 0)),
        remainingPerDay: Math.max(0, caps.perDay - (reading.day[c] ?? 0)),
      };
    }
    return { classes, bytesUsed: this.bytesUsed(keyId, reading, now) };
  }

  /**
   * Counts a response body of `size` bytes against the key's daily cap; false, with nothing counted,
   * when sending it would take the day past `cap` (the body must not be sent).
   */
  async spendBytes(keyId: string, size: number, cap: number, now: Date): Promise<boolean> {
    if (this.leases) return this.leases.spend(keyId, size, cap, now);
    const total = await this.counters.addBytes(keyId, size, now);
    if (total <= cap) return true;
    await this.counters.addBytes(keyId, -size, now);
    return false;
  }

  /**
   * `spendBytes` without a promise where it can be decided here (counters in this process, or a
   * lease that covers the body); null, with nothing counted, where it needs the shared store.
   */
  spendBytesNow(keyId: string, size: number, cap: number, now: Date): boolean | null {
    if (this.leases) return this.leases.spendFromLease(keyId, size, now) ? true : null;
    if (!this.counters.addBytesNow) return null;
    if (this.counters.addBytesNow(keyId, size, now) <= cap) return true;
    this.counters.addBytesNow(keyId, -size, now);
    return false;
  }

  /** `countBytes` without a promise where it can be done here; false, with nothing counted, otherwise. */
  countBytesNow(keyId: string, bytes: number, now: Date): boolean {
    if (bytes <= 0) return true;
    if (this.leases) return this.leases.spendFromLease(keyId, bytes, now);
    if (!this.counters.addBytesNow) return false;
    this.counters.addBytesNow(keyId, bytes, now);
    return true;
  }

  /** Counts bytes sent whatever the cap (an error answer, the envelope of a refusal). */
  async countBytes(keyId: string, bytes: number, now: Date): Promise<void> {
    if (bytes <= 0) return;
    if (this.leases) await this.leases.count(keyId, bytes, now);
    else await this.counters.addBytes(keyId, bytes, now);
  }

  /** Seconds to wait when this IP has used up its failed attempts this minute, otherwise null. */
  async authBlocked(ip: string, now: Date): Promise<number | null> {
    const failures = await this.counters.authFailures(ip, now);
    return failures >= this.authFailuresPerMinute ? secondsUntilNextMinute(now) : null;
  }

  recordAuthFailure(ip: string, now: Date): Promise<void> {
    return this.counters.recordAuthFailure(ip, now);
  }

  private snapshot(
    rateClass: RateClassId,
    limits: EffectiveLimits,
    charges: Charge[],
    counts: number[],
    bytesUsed: number,
    now: Date,
  ): LimitSnapshot {
    const usageOf = (c: RateClassId): ClassUsage => {
      const minute = charges.findIndex((x) => x.rateClass === c && x.window === 'minute');
      const day = charges.findIndex((x) => x.rateClass === c && x.window === 'day');
      const caps = limits.classes[c];
      return {
        perMinute: caps.perMinute,
        perDay: caps.perDay,
        remainingPerMinute: Math.max(0, caps.perMinute - counts[minute]),
        remainingPerDay: Math.max(0, caps.perDay - counts[day]),
      };
    };
    return {
      rateClass,
      global: usageOf('global'),
      routeClass: usageOf(rateClass),
      dailyBytes: limits.dailyBytes,
      remainingBytes: Math.max(0, limits.dailyBytes - bytesUsed),
      secondsToMinute: secondsUntilNextMinute(now),
      secondsToMidnight: secondsUntilMidnight(now),
    };
  }
}

function countOf(reading: CounterReading, charge: Charge): number {
  return (charge.window === 'minute' ? reading.minute : reading.day)[charge.rateClass] ?? 0;
}
