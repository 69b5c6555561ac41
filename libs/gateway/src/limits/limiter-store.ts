import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Builds the counters the gateway keeps. Standalone uses memory limiters saved to its state db
 * (SnapshotLimiterStore); the distributed topology provides a RateLimiterMongo-backed factory under
 * the same token, so every replica shares the counts.
 * Windows are fixed UTC buckets chosen by the gateway (the bucket is part of the key), so a
 * store's own `duration` only has to outlive its bucket.
 */
export interface LimiterStoreFactory {
  create(options: { keyPrefix: string; durationSeconds: number }): RateLimiterAbstract;
}

export const LIMITER_STORE = Symbol('LimiterStoreFactory');

/** Counts, never refuses: the gateway compares counts with each team's caps itself. */
export const UNBOUNDED_POINTS = Number.MAX_SAFE_INTEGER;
