import { Inject, Injectable } from '@nestjs/common';
import type { ContentJob } from '@analyst/domain-content';
import { CLOCK, READ_STORE, type Clock, type ReadStore } from '@analyst/platform';
import { StreamSweeper } from '../pipeline/stream-sweeper';
import { AddPostsHandler } from '../add-posts/add-posts.handler';
import { ContentJobCommands } from '../commands/content-job-commands';
import { PostCommands } from '../commands/post-commands';
import { CONTENT_JOBS, INGEST_OPTIONS, type IngestOptions } from '../ingest.tokens';
import { LedgerClient } from '../pipeline/ledger-client';
import { finishInterruptedRefresh } from '../refresh-posts/finish-interrupted-refresh';

export interface ResumeRun {
  resumed: string[];
  failed: string[];
}

/**
 * Every started job ends: a posts or refresh job left in `queuing` (its request died between claiming links
 * and queuing the job) is finished here once it has been quiet for `queuingResumeAfterMs`, whether
 * or not the client ever retries. Its reserved credits then follow the normal path: a created post
 * settles or refunds when it is processed; a link that could not be funded or created is released.
 * Finishing is idempotent (claims, deterministic reservation ids), so several ingest replicas
 * sweeping at once, or a live request still running, is harmless.
 */
@Injectable()
export class QueuingJobResumer extends StreamSweeper<'resumed' | 'waiting'> {
  constructor(
    private readonly addPosts: AddPostsHandler,
    private readonly ledger: LedgerClient,
    private readonly jobs: ContentJobCommands,
    private readonly posts: PostCommands,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
  ) {
    super('QueuingJobResumer', options.queuingSweepMs, 'jobs left in queuing');
  }

  /** Finishes every job quiet in `queuing` for longer than the bound; returns their ids. */
  async runOnce(): Promise<ResumeRun> {
    const quietSince = new Date(this.clock.now().getTime() - this.options.queuingResumeAfterMs).toISOString();
    // The read model only nominates; the job's own stream decides whether it is still queuing.
    const stale = await this.store
      .collection(CONTENT_JOBS)
      .find({ status: 'queuing', updatedAt: { $lte: quietSince } }, { projection: { _id: 1 }, limit: 100 });
    const result = await this.sweep(
      stale.map((doc) => String(doc._id)),
      async (jobId) => {
        const { state } = await this.jobs.state(jobId);
        if (state.status !== 'queuing') return 'waiting';
        await this.finish(state);
        return 'resumed';
      },
      (jobId) => `finishing job ${jobId} left in queuing`,
    );
    const run: ResumeRun = { resumed: StreamSweeper.idsWith(result, 'resumed'), failed: result.failed };
    if (run.resumed.length > 0)
      this.logger.warn(`finished ${run.resumed.length} job(s) left in queuing: ${run.resumed.join(', ')}`);
    return run;
  }

  private async finish(job: ContentJob): Promise<void> {
    if (job.kind === 'posts' && job.links) {
      await this.addPosts.resume(job);
      return;
    }
    if (job.kind === 'refresh' && job.refreshPosts) {
      const queued = await finishInterruptedRefresh(job, {
        posts: this.posts,
        jobs: this.jobs,
        ledger: this.ledger,
        clock: this.clock,
      });
      await this.jobs.settleIfNothingAccepted(queued, this.clock.now().toISOString(), {
        correlationId: `resume-${job.jobId}`,
        teamId: job.teamId,
      });
      return;
    }
    // Opened before jobs recorded their links or posts: nothing to finish with. Nothing was queued, so the
    // job fails; the ledger audit lists any reservation it left open.
    await this.jobs.fail(
      job.jobId,
      {
        code: 'interrupted',
        message: 'the request was interrupted before its posts were queued; send it again',
      },
      this.clock.now().toISOString(),
      { correlationId: `resume-${job.jobId}`, teamId: job.teamId },
    );
  }
}
