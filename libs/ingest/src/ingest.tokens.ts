/** Read-model collections of the ingest service. Other services read `posts` and `comments`. */
export const POSTS = 'posts';
export const COLLECTIONS = 'collections';
export const CONTENT_JOBS = 'content_jobs';
export const ACTIVITY = 'activity';
export const ACCOUNTS = 'accounts';

/** Consumer groups of the process managers. */
export const FETCH_GROUP = 'ingest-fetch';
export const CREDITS_GROUP = 'ingest-credits';
export const JOBS_GROUP = 'ingest-jobs';
export const DISCOVERY_GROUP = 'ingest-discovery';

export interface IngestOptions {
  /** Waits between the account-discovery attempts (3 retries after the first try). */
  discoveryBackoffMs: readonly number[];
  /** Waits between the attempts at a post fetch whose provider threw. */
  fetchBackoffMs: readonly number[];
  /** Timeout of a ledger request. */
  ledgerTimeoutMs: number;
  /**
   * A job still `queuing` this long after its last event lost its request (crash, timeout); the
   * resumer finishes it. Longer than any live request takes (a 100-link add: about 20 s).
   */
  queuingResumeAfterMs: number;
  /** How often the resumer looks for such jobs. */
  queuingSweepMs: number;
}

export const DEFAULT_INGEST_OPTIONS: IngestOptions = {
  discoveryBackoffMs: [500, 1000, 2000],
  fetchBackoffMs: [200, 400, 800],
  ledgerTimeoutMs: 10_000,
  queuingResumeAfterMs: 120_000,
  queuingSweepMs: 15_000,
};

export const INGEST_OPTIONS = Symbol('IngestOptions');
