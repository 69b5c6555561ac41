import type { CreditSource } from '@analyst/contracts';
import { FINAL_POST_OUTCOMES, type ContentJob } from './content-job.decider';

// Read-side views of a content job (what the API shows); no part of the decider.

export interface JobCounts {
  requested: number;
  discovered: number | null;
  accepted: number;
  skipped: number;
  rejected: number;
  syncing: number;
  complete: number;
  failed: number;
}

export interface JobCredits {
  source: CreditSource;
  perPost: number;
  reserved: number;
  settled: number;
  refunded: number;
  estimated: number | null;
  included: number | null;
}

/** `counts` as the API shows them; in-flight and held posts count as `syncing`. */
export function jobCounts(job: ContentJob): JobCounts {
  let complete = 0;
  let failed = 0;
  for (const a of job.accepted) {
    const o = job.outcomes[a.postId];
    if (o?.status === 'complete') complete += 1;
    else if (o && FINAL_POST_OUTCOMES.includes(o.status)) failed += 1;
  }
  return {
    requested: job.requested,
    discovered: job.kind === 'account' ? (job.discoveredCount ?? 0) : null,
    accepted: job.accepted.length,
    skipped: job.skipped.length,
    rejected: job.rejected.length,
    syncing: job.accepted.length - complete - failed,
    complete,
    failed,
  };
}

/** `credits` as the API shows them: what is held, what was consumed, what went back. */
export function jobCredits(job: ContentJob): JobCredits {
  let reserved = 0;
  let settled = 0;
  let refunded = 0;
  let included = 0;
  for (const a of job.accepted) {
    if (a.creditSource === 'included') {
      included += 1;
      continue;
    }
    reserved += a.creditCost;
    const o = job.outcomes[a.postId];
    if (!o) continue;
    if (o.charged) settled += a.creditCost;
    else refunded += a.creditCost;
  }
  return {
    source: job.credits.source,
    perPost: job.credits.perPost,
    reserved,
    settled,
    refunded,
    estimated: job.estimated,
    included: job.kind === 'refresh' ? included : null,
  };
}
