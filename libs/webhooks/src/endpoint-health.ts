import type { AttemptRecord } from './retry-schedule';

/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 72 * 3600 * 1000;

/** An endpoint's attempts across all its deliveries, folded to what the disabling rule reads. */
export interface EndpointHealth {
  lastDeliveredAt: string | null;
  /** The first failure after the last delivered attempt; null while the endpoint is not failing. */
  failingSince: string | null;
  lastFailedAt: string | null;
}

export const NEW_ENDPOINT_HEALTH: EndpointHealth = {
  lastDeliveredAt: null,
  failingSince: null,
  lastFailedAt: null,
};

const time = (at: string | null) => (at === null ? -Infinity : Date.parse(at));

/**
 * Folds one attempt in. Attempts of concurrent deliveries may be recorded out of order: a failure
 * older than the last delivery is ignored; a delivery older than the last failure restarts the
 * streak at that failure (the streak's true start is unknown then, so the rule disables later,
 * never earlier, than it should).
 */
export function recordEndpointAttempt(health: EndpointHealth, attempt: AttemptRecord): EndpointHealth {
  const at = Date.parse(attempt.at);
  if (attempt.outcome === 'failed') {
    if (at <= time(health.lastDeliveredAt)) return health;
    const failingSince =
      health.failingSince && time(health.failingSince) <= at ? health.failingSince : attempt.at;
    const lastFailedAt = at > time(health.lastFailedAt) ? attempt.at : health.lastFailedAt;
    return { ...health, failingSince, lastFailedAt };
  }
  if (at <= time(health.lastDeliveredAt)) return health;
  const stillFailing = at < time(health.lastFailedAt);
  return { ...health, lastDeliveredAt: attempt.at, failingSince: stillFailing ? health.lastFailedAt : null };
}

export function endpointHealthOf(attempts: readonly AttemptRecord[]): EndpointHealth {
  return attempts.reduce(recordEndpointAttempt, NEW_ENDPOINT_HEALTH);
}

/** Failing continuously for three days: every attempt over a span of at least 72 hours failed. */
export function shouldDisableEndpoint(
  health: EndpointHealth,
  failingForMs = DISABLE_AFTER_FAILING_MS,
): boolean {
  if (health.failingSince === null || health.lastFailedAt === null) return false;
  return time(health.lastFailedAt) - time(health.failingSince) >= failingForMs;
}
