import type { BeforeApplicationShutdown, OnApplicationShutdown } from '@nestjs/common';
import {
  RateLimiterMemory,
  type IRateLimiterMemoryExport,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { GatewayStateDb } from '../state/gateway-state-db';
import { UNBOUNDED_POINTS, type LimiterStoreFactory } from './limiter-store';

/** A memory limiter that notes when its counters changed, so unchanged ones are not saved again. */
class TrackedMemoryLimiter extends RateLimiterMemory {
  changed = false;

  override penalty(
    ...args: Parameters<RateLimiterMemory['penalty']>
  ): ReturnType<RateLimiterMemory['penalty']> {
    this.changed = true;
    return super.penalty(...args);
  }

  override reward(...args: Parameters<RateLimiterMemory['reward']>): ReturnType<RateLimiterMemory['reward']> {
    this.changed = true;
    return super.reward(...args);
  }
}

/**
 * Standalone counters: rate-limiter-flexible's memory limiters (no I/O on the request path), whose
 * own `dump()` is saved to the gateway state db every `intervalMs` and at shutdown, and `restore()`d
 * when the limiter is created. A restart keeps every daily budget and the byte cap; a crash loses
 * at most the last interval's counts. The distributed gateway uses MongoRateCounters instead.
 */
export class SnapshotLimiterStore
  implements LimiterStoreFactory, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly limiters = new Map<string, TrackedMemoryLimiter>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly state: GatewayStateDb,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => this.save(), intervalMs);
    this.timer.unref();
  }

  create(options: { keyPrefix: string; durationSeconds: number }): RateLimiterAbstract {
    const limiter = new TrackedMemoryLimiter({
      keyPrefix: options.keyPrefix,
      points: UNBOUNDED_POINTS,
      duration: options.durationSeconds,
    });
    const row = this.state.db
      .prepare('SELECT dump FROM limiter_snapshots WHERE prefix = ?')
      .get(options.keyPrefix) as { dump: string } | undefined;
    if (row) limiter.restore(JSON.parse(row.dump) as IRateLimiterMemoryExport); // expired counters are skipped by restore()
    this.limiters.set(options.keyPrefix, limiter);
    return limiter;
  }

  /** Writes the counters of every limiter that changed since the last save, in one transaction. */
  save(): void {
    if (!this.state.db.open) return;
    const changed = [...this.limiters].filter(([, limiter]) => limiter.changed);
    if (changed.length === 0) return;
    const upsert = this.state.db.prepare(
      'INSERT INTO limiter_snapshots (prefix, dump, saved_at) VALUES (?, ?, ?) ON CONFLICT(prefix) DO UPDATE SET dump = excluded.dump, saved_at = excluded.saved_at',
    );
    this.state.db.transaction(() => {
      for (const [prefix, limiter] of changed) {
        limiter.changed = false;
        upsert.run(prefix, JSON.stringify(limiter.dump()), Date.now());
      }
    })();
  }

  /** Before the HTTP server closes, and again after (for requests that finished meanwhile) while the db is open. */
  beforeApplicationShutdown(): void {
    this.save();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.save();
  }
}
