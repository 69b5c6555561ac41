import { Inject, Injectable, Optional } from '@nestjs/common';
import { ANALYST_CONFIG, type AnalystConfig } from '@analyst/platform';
import {
  FAILED_AUTH_PER_MINUTE,
  RATE_CLASS_IDS,
  dayBucket,
  minuteBucket,
  secondsUntilMidnight,
  secondsUntilNextMinute,
  type EffectiveLimits,
  type RateClassId,
} from '@analyst/domain-identity';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { LIMITER_STORE, type LimiterStoreFactory } from './limiter-store';

const MINUTE_TTL = 120;
const DAY_TTL = 2 * 86_400 + 60;

export type Window = 'minute' | 'day';

/** One counter a request was charged to. */
interface Charge {
  rateClass: RateClassId;
  window: Window;
  cap: number;
  limiter: RateLimiterAbstract;
  key: string;
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

export type Admission =
  { admitted: true; snapshot: LimitSnapshot } | { admitted: false; trip: Trip; snapshot: LimitSnapshot };

/**
 * Per-key counters in fixed UTC windows. A request is charged to the global class and its route's
 * class, each per minute and per day. Every charge is an atomic increment; if any counter went
 * over its cap the route class's charges are handed back, so exactly `cap` concurrent requests get
 * through. The global ones stay: the contract counts every request against the global budget,
 * refused ones included, so a client hammering past a 429 keeps spending it.
 */
@Injectable()
export class RateLimitService {
  private readonly minute: RateLimiterAbstract;
  private readonly day: RateLimiterAbstract;
  private readonly bytes: RateLimiterAbstract;
  private readonly authFailures: RateLimiterAbstract;

  /** Failed authentications per address and UTC minute before the address is refused (the spec's 30 by default). */
  readonly authFailuresPerMinute: number;

  constructor(
    @Inject(LIMITER_STORE) store: LimiterStoreFactory,
    @Optional() @Inject(ANALYST_CONFIG) config?: AnalystConfig,
  ) {
    this.authFailuresPerMinute = config?.ANALYST_AUTH_FAILURES_PER_MINUTE ?? FAILED_AUTH_PER_MINUTE;
    this.minute = store.create({ keyPrefix: 'gw_minute', durationSeconds: MINUTE_TTL });
    this.day = store.create({ keyPrefix: 'gw_day', durationSeconds: DAY_TTL });
    this.bytes = store.create({ keyPrefix: 'gw_bytes', durationSeconds: DAY_TTL });
    this.authFailures = store.create({ keyPrefix: 'gw_authfail', durationSeconds: MINUTE_TTL });
  }

  private charges(keyId: string, rateClass: RateClassId, limits: EffectiveLimits, now: Date): Charge[] {
    const m = minuteBucket(now);
    const d = dayBucket(now);
    const classes: RateClassId[] = rateClass === 'global' ? ['global'] : ['global', rateClass];
    return classes.flatMap((c) => [
      {
        rateClass: c,
        window: 'minute' as const,
        cap: limits.classes[c].perMinute,
        limiter: this.minute,
        key: `${keyId}:${c}:${m}`,
      },
      {
        rateClass: c,
        window: 'day' as const,
        cap: limits.classes[c].perDay,
        limiter: this.day,
        key: `${keyId}:${c}:${d}`,
      },
    ]);
  }

  async admit(keyId: string, rateClass: RateClassId, limits: EffectiveLimits, now: Date): Promise<Admission> {
    const charges = this.charges(keyId, rateClass, limits, now);
    // Charge and read the byte total together (one round trip to a shared store, not two).
    const [bytesUsed, ...results] = await Promise.all([
      this.bytesUsed(keyId, now),
      ...charges.map((c) => c.limiter.penalty(c.key, 1)),
    ]);
    if (bytesUsed >= limits.dailyBytes) {
      await this.handBack(charges);
      const counts = results.map((r, i) => r.consumedPoints - (charges[i].rateClass === 'global' ? 0 : 1));
      const snapshot = this.snapshot(rateClass, limits, charges, counts, bytesUsed, now);
      return {
        admitted: false,
        trip: { kind: 'bytes', rateClass, cap: limits.dailyBytes, retryAfter: snapshot.secondsToMidnight },
        snapshot,
      };
    }
    const counts = results.map((r) => r.consumedPoints);
    const over = charges.filter((c, i) => counts[i] > c.cap);
    if (over.length === 0)
      return { admitted: true, snapshot: this.snapshot(rateClass, limits, charges, counts, bytesUsed, now) };
    await this.handBack(charges);
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
    };
  }

  /** A refused request: the route class's charges are returned; the global ones stay counted. */
  private async handBack(charges: Charge[]): Promise<void> {
    await Promise.all(charges.filter((c) => c.rateClass !== 'global').map((c) => c.limiter.reward(c.key, 1)));
  }

  /** Counts without charging: what `GET /me` reports for every class. */
  async usage(keyId: string, limits: EffectiveLimits, now: Date): Promise<Record<RateClassId, ClassUsage>> {
    const m = minuteBucket(now);
    const d = dayBucket(now);
    const counts = await Promise.all(
      RATE_CLASS_IDS.flatMap((c) => [
        this.count(this.minute, `${keyId}:${c}:${m}`),
        this.count(this.day, `${keyId}:${c}:${d}`),
      ]),
    );
    const usage = {} as Record<RateClassId, ClassUsage>;
    RATE_CLASS_IDS.forEach((c, i) => {
      const caps = limits.classes[c];
      usage[c] = {
        perMinute: caps.perMinute,
        perDay: caps.perDay,
        remainingPerMinute: Math.max(0, caps.perMinute - counts[2 * i]),
        remainingPerDay: Math.max(0, caps.perDay - counts[2 * i + 1]),
      };
    });
    return usage;
  }

  async bytesUsed(keyId: string, now: Date): Promise<number> {
    return this.count(this.bytes, `${keyId}:${dayBucket(now)}`);
  }

  /** Adds sent bytes; returns the day's total. */
  async addBytes(keyId: string, bytes: number, now: Date): Promise<number> {
    if (bytes <= 0) return this.bytesUsed(keyId, now);
    return (await this.bytes.penalty(`${keyId}:${dayBucket(now)}`, bytes)).consumedPoints;
  }

  async removeBytes(keyId: string, bytes: number, now: Date): Promise<void> {
    if (bytes > 0) await this.bytes.reward(`${keyId}:${dayBucket(now)}`, bytes);
  }

  /** Seconds to wait when this IP has used up its failed attempts this minute, otherwise null. */
  async authBlocked(ip: string, now: Date): Promise<number | null> {
    const failures = await this.count(this.authFailures, `${ip}:${minuteBucket(now)}`);
    return failures >= this.authFailuresPerMinute ? secondsUntilNextMinute(now) : null;
  }

  async recordAuthFailure(ip: string, now: Date): Promise<void> {
    await this.authFailures.penalty(`${ip}:${minuteBucket(now)}`, 1);
  }

  private async count(limiter: RateLimiterAbstract, key: string): Promise<number> {
    return (await limiter.get(key))?.consumedPoints ?? 0;
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
