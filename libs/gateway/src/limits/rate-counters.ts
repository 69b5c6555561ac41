import type { RateClassId } from '@analyst/domain-identity';

/** A key's counts in the current UTC minute and day, per rate class, and its response bytes today. */
export interface CounterReading {
  minute: Partial<Record<RateClassId, number>>;
  day: Partial<Record<RateClassId, number>>;
  bytes: number;
}

/**
 * The gateway's shared counters. Windows are the fixed UTC minute and day of `now`; callers pass
 * the same `now` to a charge and its refund so both land in the same windows.
 */
export interface RateCounters {
  /** True when other processes charge the same counters (replicas): the byte cap then spends leases. */
  readonly shared: boolean;
  /** Adds one to each class's minute and day count, atomically; answers the counts after, and the day's bytes. */
  charge(keyId: string, classes: readonly RateClassId[], now: Date): Promise<CounterReading>;
  /** Takes one back from each class's minute and day count. */
  refund(keyId: string, classes: readonly RateClassId[], now: Date): Promise<void>;
  /** Counts without charging. */
  read(keyId: string, now: Date): Promise<CounterReading>;
  /** Adds (or, negative, removes) response bytes; answers the day's total after. */
  addBytes(keyId: string, bytes: number, now: Date): Promise<number>;
  /** The same without a promise, where the counters live in this process. */
  addBytesNow?(keyId: string, bytes: number, now: Date): number;
  /**
   * `charge`, `refund`, `authFailures` and `recordAuthFailure` without a promise, where the counters
   * live in this process: an admission then decides in the same turn. All four or none.
   */
  chargeNow?(keyId: string, classes: readonly RateClassId[], now: Date): CounterReading;
  refundNow?(keyId: string, classes: readonly RateClassId[], now: Date): void;
  authFailuresNow?(ip: string, now: Date): number;
  recordAuthFailureNow?(ip: string, now: Date): void;
  /** Failed authentications from this address in the current minute. */
  authFailures(ip: string, now: Date): Promise<number>;
  recordAuthFailure(ip: string, now: Date): Promise<void>;
}

export const RATE_COUNTERS = Symbol('RateCounters');
