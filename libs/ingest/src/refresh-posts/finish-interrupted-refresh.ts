import type { AcceptedEntry, ContentJob, RefreshJobRequest, RejectedEntry } from '@analyst/domain-content';
import type { Clock } from '@analyst/platform';
import type { ContentJobCommands } from '../commands/content-job-commands';
import type { PostCommands } from '../commands/post-commands';
import { reservationIdFor } from '../steps/with-reservation';
import { LedgerRuleError, type LedgerClient } from '../pipeline/ledger-client';

/** A refund that finds nothing to return (never reserved, or already returned) is already done. */
const NOTHING_TO_REFUND = new Set(['reservation_not_found', 'reservation_already_refunded']);

/**
 * Finishes a refresh job left in `queuing`: a post whose current version this job requested is
 * accepted as it stands; any other post of the job was not refreshed, so its reservation (if one
 * was made) is refunded and it is rejected `create_failed` (retry). Then the job is queued; its
 * state after that is returned.
 */
export async function finishInterruptedRefresh(
  job: ContentJob & RefreshJobRequest,
  deps: { posts: PostCommands; jobs: ContentJobCommands; ledger: LedgerClient; clock: Clock },
): Promise<ContentJob> {
  const { posts, jobs, ledger, clock } = deps;
  const correlationId = `resume-${job.jobId}`;
  const accepted: AcceptedEntry[] = [];
  const rejected: RejectedEntry[] = [];
  for (const { postId, link } of job.refreshPosts ?? []) {
    const { state } = await posts.state(postId);
    if (state.status !== 'absent' && state.current.jobId === job.jobId) {
      const v = state.current;
      accepted.push({
        link,
        postId,
        postStatus: state.status,
        creditSource: v.creditSource,
        creditCost: v.unitCost,
        dataVersion: v.dataVersion,
      });
      continue;
    }
    const reservationId = reservationIdFor(job.jobId, postId);
    try {
      await ledger.refund(
        job.teamId,
        { commandId: `refund-${reservationId}`, reservationId, reason: 'create_failed' },
        correlationId,
      );
    } catch (error) {
      if (!(error instanceof LedgerRuleError && NOTHING_TO_REFUND.has(error.code))) throw error;
    }
    rejected.push({ link, reason: 'create_failed' });
  }
  const queued = await jobs.queue(job.jobId, { accepted, skipped: [], rejected }, clock.now().toISOString(), {
    correlationId,
    teamId: job.teamId,
  });
  return queued.job;
}
