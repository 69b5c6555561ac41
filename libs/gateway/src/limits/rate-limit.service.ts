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

/** Counters that answer in the same turn (in this process). */
type SyncCounters = Required<
  Pick<RateCounters, 'chargeNow' | 'refundNow' | 'authFailuresNow' | 'recordAuthFailureNow'>
>;

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
  private readonly syncCounters: SyncCounters | null;

  constructor(
    @Inject(RATE_COUNTERS) private readonly counters: RateCounters,
    @Optional() @Inject(ANALYST_CONFIG) config?: AnalystConfig,
  ) {
    this.authFailuresPerMinute = config?.ANALYST_AUTH_FAILURES_PER_MINUTE ?? FAILED_AUTH_PER_MINUTE;
    this.leases = counters.shared ? new ByteLeases(counters) : null;
    this.syncCounters =
      !counters.shared &&
      counters.chargeNow &&
      counters.refundNow &&
      counters.authFailuresNow &&
      counters.recordAuthFailureNow
        ? (counters as SyncCounters)
        : null;
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

  async admit(keyId: string, rateClass: RateClassId, limits: EffectiveLimits, now: Date): Promise<Admission> {
    // One call charges every counter and reads the day's bytes (one round trip to a shared store).
    const reading = await this.counters.charge(keyId, classesOf(rateClass), now);
    const admission = this.judge(rateClass, limits, reading, this.bytesUsed(keyId, reading, now), now);
    if (!admission.admitted) await this.handBack(keyId, rateClass, now);
    return admission;
  }

  /**
   * True when the counters live in this process (standalone): `admitNow`, `authBlockedNow` and
   * `recordAuthFailureNow` may be used, and decide without a promise.
   */
  get decidesNow(): boolean {
    return this.syncCounters !== null;
  }

  /** `admit` in the same turn; only where `decidesNow`. */
  admitNow(keyId: string, rateClass: RateClassId, limits: EffectiveLimits, now: Date): Admission {
    const counters = this.syncCounters!;
    const reading = counters.chargeNow(keyId, classesOf(rateClass), now);
    const admission = this.judge(rateClass, limits, reading, this.bytesUsed(keyId, reading, now), now);
    if (!admission.admitted && rateClass !== 'global') counters.refundNow(keyId, [rateClass], now);
    return admission;
  }

  /**
   * What the counters say after a charge. Refused when the day's bytes are spent or any counter
   * went over its cap; then the snapshot shows the route class's counts as they are once its
   * charges are handed back (the global ones stay).
   */
  private judge(
    rateClass: RateClassId,
    limits: EffectiveLimits,
    reading: CounterReading,
    bytesUsed: number,
    now: Date,
  ): Admission {
    const counts = countsOf(rateClass, reading);
    if (bytesUsed >= limits.dailyBytes) {
      const snapshot = this.snapshot(rateClass, limits, counts, true, bytesUsed, now);
      return {
        admitted: false,
        trip: { kind: 'bytes', rateClass, cap: limits.dailyBytes, retryAfter: snapshot.secondsToMidnight },
        snapshot,
        reading,
      };
    }
    const worst = worstOver(rateClass, limits, counts);
    if (worst === null)
      return {
        admitted: true,
        snapshot: this.snapshot(rateClass, limits, counts, false, bytesUsed, now),
        reading,
      };
    const snapshot = this.snapshot(rateClass, limits, counts, true, bytesUsed, now);
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
    return this.usageOf(keyId, limits, now, admitted ?? (await this.counters.read(keyId, now)));
  }

  /** `usage` from a reading at hand (the one the request's admission took). */
  usageOf(
    keyId: string,
    limits: EffectiveLimits,
    now: Date,
    reading: CounterReading,
  ): { classes: Record<RateClassId, ClassUsage>; bytesUsed: number } {
    const classes = {} as Record<RateClassId, ClassUsage>;
    for (const c of RATE_CLASS_IDS) {
      classes[c] = usageOf(limits.classes[c], reading.minute[c] ?? 0, reading.day[c] ?? 0);
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

  /** `authBlocked` in the same turn; only where `decidesNow`. */
  authBlockedNow(ip: string, now: Date): number | null {
    const failures = this.syncCounters!.authFailuresNow(ip, now);
    return failures >= this.authFailuresPerMinute ? secondsUntilNextMinute(now) : null;
  }

  /** `recordAuthFailure` in the same turn; only where `decidesNow`. */
  recordAuthFailureNow(ip: string, now: Date): void {
    this.syncCounters!.recordAuthFailureNow(ip, now);
  }

  /** `handedBack`: the route class's counts less this request's charge (a refusal hands it back). */
  private snapshot(
    rateClass: RateClassId,
    limits: EffectiveLimits,
    counts: Counts,
    handedBack: boolean,
    bytesUsed: number,
    now: Date,
  ): LimitSnapshot {
    const global = usageOf(limits.classes.global, counts.globalMinute, counts.globalDay);
    const back = handedBack ? 1 : 0;
    return {
      rateClass,
      global,
      routeClass:
        rateClass === 'global'
          ? global
          : usageOf(limits.classes[rateClass], counts.classMinute - back, counts.classDay - back),
      dailyBytes: limits.dailyBytes,
      remainingBytes: Math.max(0, limits.dailyBytes - bytesUsed),
      secondsToMinute: secondsUntilNextMinute(now),
      secondsToMidnight: secondsUntilMidnight(now),
    };
  }
}

/** A request's counts right after its charge: the global class's and its route class's (the same for `global`). */
interface Counts {
  globalMinute: number;
  globalDay: number;
  classMinute: number;
  classDay: number;
}

function countsOf(rateClass: RateClassId, reading: CounterReading): Counts {
  const globalMinute = reading.minute.global ?? 0;
  const globalDay = reading.day.global ?? 0;
  if (rateClass === 'global')
    return { globalMinute, globalDay, classMinute: globalMinute, classDay: globalDay };
  return {
    globalMinute,
    globalDay,
    classMinute: reading.minute[rateClass] ?? 0,
    classDay: reading.day[rateClass] ?? 0,
  };
}

/**
 * The counter over its cap that names a refusal, or null when none is. The longest wait wins: a
 * daily budget outlasts a burst cap; the route's class names it on a tie.
 */
function worstOver(
  rateClass: RateClassId,
  limits: EffectiveLimits,
  counts: Counts,
): { rateClass: RateClassId; window: Window; cap: number } | null {
  const globalCaps = limits.classes.global;
  const classCaps = limits.classes[rateClass];
  const routed = rateClass !== 'global';
  if (routed && counts.classDay > classCaps.perDay)
    return { rateClass, window: 'day', cap: classCaps.perDay };
  if (counts.globalDay > globalCaps.perDay)
    return { rateClass: 'global', window: 'day', cap: globalCaps.perDay };
  if (routed && counts.classMinute > classCaps.perMinute)
    return { rateClass, window: 'minute', cap: classCaps.perMinute };
  if (counts.globalMinute > globalCaps.perMinute)
    return { rateClass: 'global', window: 'minute', cap: globalCaps.perMinute };
  return null;
}

const GLOBAL_ONLY: readonly RateClassId[] = ['global'];
/** The classes one request is charged to: the global one and the route's own. */
function classesOf(rateClass: RateClassId): readonly RateClassId[] {
  return rateClass === 'global' ? GLOBAL_ONLY : ['global', rateClass];
}

function usageOf(caps: { perMinute: number; perDay: number }, minute: number, day: number): ClassUsage {
  return {
    perMinute: caps.perMinute,
    perDay: caps.perDay,
    remainingPerMinute: Math.max(0, caps.perMinute - minute),
    remainingPerDay: Math.max(0, caps.perDay - day),
  };
}
