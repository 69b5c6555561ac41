/**
 * The contract's rate classes (spec, Limits), and the push extension's two (`webhooks_write` for
 * endpoint changes and pings, `events_stream` for opening `GET /events`). Burst caps are per UTC
 * minute, budgets per UTC day, per key. Every request counts against `global`; expensive routes
 * also against their own class.
 */
export const RATE_CLASS_IDS = [
  'global',
  'comments',
  'analysis_comments',
  'collection_posts',
  'analysis_read',
  'analysis_create',
  'analysis_search',
  'content_add_posts',
  'content_add_accounts',
  'content_refresh',
  'content_jobs',
  'webhooks_write',
  'events_stream',
] as const;
export type RateClassId = (typeof RATE_CLASS_IDS)[number];
