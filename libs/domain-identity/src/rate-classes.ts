import { RATE_CLASS_IDS, type RateClassId } from '@analyst/contracts';

// The class ids are part of the contract (its route table names them); re-exported for callers here.
export { RATE_CLASS_IDS, type RateClassId };

export interface RateCaps {
  perMinute: number;
  perDay: number;
}

export const RATE_CLASSES: Readonly<Record<RateClassId, RateCaps>> = {
  global: { perMinute: 300, perDay: 10_000 },
  comments: { perMinute: 120, perDay: 1_000 },
  analysis_comments: { perMinute: 20, perDay: 300 },
  collection_posts: { perMinute: 60, perDay: 1_000 },
  analysis_read: { perMinute: 60, perDay: 2_000 },
  analysis_create: { perMinute: 10, perDay: 100 },
  analysis_search: { perMinute: 2, perDay: 10 },
  content_add_posts: { perMinute: 10, perDay: 200 },
  content_add_accounts: { perMinute: 2, perDay: 20 },
  content_refresh: { perMinute: 10, perDay: 200 },
  content_jobs: { perMinute: 60, perDay: 2_000 },
  // Push extension: endpoints change rarely (at most 10 a team); a ping is a manual check.
  webhooks_write: { perMinute: 10, perDay: 200 },
  // A stream is opened once and held; this leaves room for reconnects after drops (retry 3 s).
  events_stream: { perMinute: 10, perDay: 500 },
};

const MB = 1024 * 1024;
/** Response bytes per key per UTC day: a hard cap. */
export const DAILY_RESPONSE_BYTES = 500 * MB;
/** A single response body larger than this is never sent (413). */
export const MAX_RESPONSE_BYTES = 5 * MB;
/** Failed authentication attempts per IP per UTC minute; the next attempt gets 429. */
export const FAILED_AUTH_PER_MINUTE = 30;
/** Active (not revoked) keys per team. */
export const MAX_ACTIVE_KEYS = 3;

export function isRateClassId(value: unknown): value is RateClassId {
  return typeof value === 'string' && (RATE_CLASS_IDS as readonly string[]).includes(value);
}

/** Per-team raises recorded by `TeamRateLimitsSet`; absent entries keep the contract's numbers. */
export interface RateLimitOverrides {
  limits: Partial<Record<string, Partial<RateCaps>>>;
  dailyBytes?: number;
}

export interface EffectiveLimits {
  classes: Record<RateClassId, RateCaps>;
  dailyBytes: number;
}

export function effectiveLimits(overrides: RateLimitOverrides | null | undefined): EffectiveLimits {
  const classes = {} as Record<RateClassId, RateCaps>;
  for (const id of RATE_CLASS_IDS) {
    const raised = overrides?.limits[id];
    classes[id] = {
      perMinute: raised?.perMinute ?? RATE_CLASSES[id].perMinute,
      perDay: raised?.perDay ?? RATE_CLASSES[id].perDay,
    };
  }
  return { classes, dailyBytes: overrides?.dailyBytes ?? DAILY_RESPONSE_BYTES };
}
