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
  /** How often held posts are checked for a reopened quota window. */
  holdSweepMs: number;
  /** When the platform held a post without saying when its window reopens, try again this long after. */
  holdRetryMs: number;
  /** A post held this many times fails instead of waiting again (a platform that never lets it through). */
  maxHolds: number;
}

export const DEFAULT_INGEST_OPTIONS: IngestOptions = {
  discoveryBackoffMs: [500, 1000, 2000],
  fetchBackoffMs: [200, 400, 800],
  ledgerTimeoutMs: 10_000,
  queuingResumeAfterMs: 120_000,
  queuingSweepMs: 15_000,
  holdSweepMs: 15_000,
  holdRetryMs: 300_000,
  maxHolds: 10,
};

export const INGEST_OPTIONS = Symbol('IngestOptions');

/** Variables that tune the ingest service, read once at start. A bad value stops the process (exit 2). */
export function ingestOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): IngestOptions {
  const ms = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new IngestConfigError(
        `${name} must be an integer number of milliseconds from ${min} to ${max}, got "${raw}"`,
      );
    }
    return value;
  };
  const resumeAfter = ms(
    'ANALYST_QUEUING_RESUME_AFTER_MS',
    DEFAULT_INGEST_OPTIONS.queuingResumeAfterMs,
    1_000,
    86_400_000,
  );
  const holdRetry = ms('ANALYST_HOLD_RETRY_MS', DEFAULT_INGEST_OPTIONS.holdRetryMs, 1_000, 86_400_000);
  return {
    ...DEFAULT_INGEST_OPTIONS,
    queuingResumeAfterMs: resumeAfter,
    // Sweep a few times per bound, so a job ends within about 1.25 bounds of going quiet.
    queuingSweepMs: Math.min(
      DEFAULT_INGEST_OPTIONS.queuingSweepMs,
      Math.max(250, Math.floor(resumeAfter / 4)),
    ),
    holdRetryMs: holdRetry,
    holdSweepMs: Math.min(DEFAULT_INGEST_OPTIONS.holdSweepMs, Math.max(250, Math.floor(holdRetry / 4))),
  };
}

export class IngestConfigError extends Error {
  override readonly name = 'IngestConfigError';
}
