import { createHash } from 'node:crypto';

export interface RetryPolicy {
  /** The ceiling of the first retry's delay; it doubles with each failure. */
  baseDelayMs: number;
  /** No delay's ceiling goes above this. */
  maxDelayMs: number;
  /** The floor of every delay: a jitter near zero would hit a receiver again the moment it failed. */
  minDelayMs: number;
  /** From the first attempt; the last attempt falls at its end at the latest, then the delivery is given up. */
  giveUpAfterMs: number;
}

const HOUR_MS = 3600 * 1000;
/** 27 to 44 attempts in 72 hours (median 34 over 1,000 delivery ids): 10 to 13 in the first four hours, then one every 3 hours on average. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 6 * HOUR_MS,
  minDelayMs: 1_000,
  giveUpAfterMs: 72 * HOUR_MS,
};

export interface AttemptRecord {
  at: string;
  outcome: 'delivered' | 'failed';
}

/** A number in [0, 1) for the n-th failed attempt (1-based). */
export type Jitter = (failedAttempts: number) => number;

/**
 * Jitter drawn from the delivery's id and the attempt's number: the same history gives the same
 * next time on any replica and after a restart, and deliveries that failed together spread out.
 */
export function deliveryJitter(deliveryId: string): Jitter {
  return (failedAttempts) =>
    createHash('sha256').update(`${deliveryId}:${failedAttempts}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** The ceiling of the delay after `failedAttempts` failures: base × 2^(failures − 1), capped. */
export function backoffCeilingMs(failedAttempts: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  const doublings = Math.min(Math.max(failedAttempts - 1, 0), 52);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** doublings);
}

/** Full jitter: uniform below the ceiling, never under the floor. */
export function retryDelayMs(
  failedAttempts: number,
  jitter: Jitter,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  const ceiling = backoffCeilingMs(failedAttempts, policy);
  return Math.max(policy.minDelayMs, Math.floor(jitter(failedAttempts) * ceiling));
}

export type DeliveryStep =
  | { kind: 'delivered'; at: string }
  | { kind: 'retry'; at: string; attempt: number }
  | { kind: 'given_up'; at: string; attempts: number };

/**
 * What comes after a delivery's attempts (in any order, at least one): done once one delivered;
 * else another attempt after the jittered backoff, no later than 72 hours after the first; an
 * attempt failing at or past that end gives the delivery up.
 */
export function nextDeliveryStep(
  attempts: readonly AttemptRecord[],
  jitter: Jitter,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): DeliveryStep {
  if (attempts.length === 0) throw new Error('nextDeliveryStep needs at least one attempt');
  const sorted = [...attempts].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const delivered = sorted.find((a) => a.outcome === 'delivered');
  if (delivered) return { kind: 'delivered', at: delivered.at };
  const last = Date.parse(sorted[sorted.length - 1].at);
  const end = Date.parse(sorted[0].at) + policy.giveUpAfterMs;
  if (last >= end) return { kind: 'given_up', at: sorted[sorted.length - 1].at, attempts: sorted.length };
  const next = Math.min(last + retryDelayMs(sorted.length, jitter, policy), end);
  return { kind: 'retry', at: new Date(next).toISOString(), attempt: sorted.length + 1 };
}
