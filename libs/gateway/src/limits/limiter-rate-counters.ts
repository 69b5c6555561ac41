import { RATE_CLASS_IDS, dayBucket, minuteBucket, type RateClassId } from '@analyst/domain-identity';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterStoreFactory } from './limiter-store';
import type { CounterReading, RateCounters } from './rate-counters';

const MINUTE_TTL = 120;
const DAY_TTL = 2 * 86_400 + 60;

/**
 * Counters as one rate-limiter-flexible limiter per window (standalone: memory limiters saved to
 * the state db). Each count is its own limiter key, so a charge is several calls; in memory they
 * cost nothing, which is why the shared store uses MongoRateCounters' single document instead.
 */
export class LimiterRateCounters implements RateCounters {
  private readonly minute: RateLimiterAbstract;
  private readonly day: RateLimiterAbstract;
  private readonly bytes: RateLimiterAbstract;
  private readonly failures: RateLimiterAbstract;

  constructor(store: LimiterStoreFactory) {
    // The prefixes are the saved snapshots' names: changing them would forget today's counts.
    this.minute = store.create({ keyPrefix: 'gw_minute', durationSeconds: MINUTE_TTL });
    this.day = store.create({ keyPrefix: 'gw_day', durationSeconds: DAY_TTL });
    this.bytes = store.create({ keyPrefix: 'gw_bytes', durationSeconds: DAY_TTL });
    this.failures = store.create({ keyPrefix: 'gw_authfail', durationSeconds: MINUTE_TTL });
  }

  async charge(keyId: string, classes: readonly RateClassId[], now: Date): Promise<CounterReading> {
    const m = minuteBucket(now);
    const d = dayBucket(now);
    const [bytes, ...counts] = await Promise.all([
      this.count(this.bytes, `${keyId}:${d}`),
      ...classes.flatMap((c) => [
        this.minute.penalty(`${keyId}:${c}:${m}`, 1),
        this.day.penalty(`${keyId}:${c}:${d}`, 1),
      ]),
    ]);
    const reading: CounterReading = { minute: {}, day: {}, bytes };
    classes.forEach((c, i) => {
      reading.minute[c] = counts[2 * i].consumedPoints;
      reading.day[c] = counts[2 * i + 1].consumedPoints;
    });
    return reading;
  }

  async refund(keyId: string, classes: readonly RateClassId[], now: Date): Promise<void> {
    const m = minuteBucket(now);
    const d = dayBucket(now);
    await Promise.all(
      classes.flatMap((c) => [
        this.minute.reward(`${keyId}:${c}:${m}`, 1),
        this.day.reward(`${keyId}:${c}:${d}`, 1),
      ]),
    );
  }

  async read(keyId: string, now: Date): Promise<CounterReading> {
    const m = minuteBucket(now);
    const d = dayBucket(now);
    const [bytes, ...counts] = await Promise.all([
      this.count(this.bytes, `${keyId}:${d}`),
      ...RATE_CLASS_IDS.flatMap((c) => [
        this.count(this.minute, `${keyId}:${c}:${m}`),
        this.count(this.day, `${keyId}:${c}:${d}`),
      ]),
    ]);
    const reading: CounterReading = { minute: {}, day: {}, bytes };
    RATE_CLASS_IDS.forEach((c, i) => {
      reading.minute[c] = counts[2 * i];
      reading.day[c] = counts[2 * i + 1];
    });
    return reading;
  }

  async addBytes(keyId: string, bytes: number, now: Date): Promise<number> {
    const key = `${keyId}:${dayBucket(now)}`;
    if (bytes > 0) return (await this.bytes.penalty(key, bytes)).consumedPoints;
    if (bytes < 0) return (await this.bytes.reward(key, -bytes)).consumedPoints;
    return this.count(this.bytes, key);
  }

  authFailures(ip: string, now: Date): Promise<number> {
    return this.count(this.failures, `${ip}:${minuteBucket(now)}`);
  }

  async recordAuthFailure(ip: string, now: Date): Promise<void> {
    await this.failures.penalty(`${ip}:${minuteBucket(now)}`, 1);
  }

  private async count(limiter: RateLimiterAbstract, key: string): Promise<number> {
    return (await limiter.get(key))?.consumedPoints ?? 0;
  }
}
