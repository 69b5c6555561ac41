import { Inject, Injectable } from '@nestjs/common';
import {
  ContentError,
  settledStatus,
  type ContentJob,
  type JobOutcome,
  type JobStatus,
} from '@analyst/domain-content';
import { CLOCK, ProjectionService, READ_STORE, type Clock, type ReadStore } from '@analyst/platform';
import type { PostDoc } from '../projections/post-doc';
import { listJobs } from '../queries/jobs';
import { findPostsByIds } from '../queries/posts';
import { ContentJobCommands } from '../commands/content-job-commands';

const FINAL: readonly string[] = ['complete', 'failed', 'unreachable', 'cancelled', 'holding'];

/**
 * GET /content/jobs/{id}: every read refreshes the job from its member posts and settles it when
 * every member is done (the same decider command the settlement process manager sends).
 */
@Injectable()
export class JobReader {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly jobs: ContentJobCommands,
    private readonly projections: ProjectionService,
  ) {}

  async read(
    teamId: string,
    jobId: string,
    correlationId: string,
  ): Promise<{ job: ContentJob; posts: Map<string, PostDoc> }> {
    let job = await this.find(teamId, jobId);
    let posts = await findPostsByIds(
      this.store,
      job.accepted.map((a) => a.postId),
    );
    if (job.status === 'syncing') {
      const outcomes: ({ postId: string } & JobOutcome)[] = [];
      for (const a of job.accepted) {
        const o = posts.get(a.postId)?.versionOutcomes[String(a.dataVersion)];
        const known = job.outcomes[a.postId];
        if (o && FINAL.includes(o.status) && (!known || known.status !== o.status))
          outcomes.push({ postId: a.postId, ...o });
      }
      // Also when nothing is new but the job is done (a job with nothing accepted, if its settle was lost).
      if (outcomes.length > 0 || settledStatus(job, job.outcomes) !== null) {
        const result = await this.jobs.handle(
          jobId,
          { type: 'RecordPostOutcomes', data: { outcomes, at: this.clock.now().toISOString() } },
          { correlationId, teamId },
        );
        await this.projections.waitFor(result.position);
        job = result.events.length > 0 ? (result.state as ContentJob) : await this.find(teamId, jobId);
        posts = await findPostsByIds(
          this.store,
          job.accepted.map((a) => a.postId),
        );
      }
    }
    return { job, posts };
  }

  async list(teamId: string, status: JobStatus | undefined, limit: number): Promise<ContentJob[]> {
    return listJobs(this.store, teamId, this.clock.now(), { status, limit });
  }

  /**
   * The job as its own stream has it (a few dozen events), not as a read model that may lag the
   * log or, written by several replicas at once on a store without atomic updates, miss an outcome.
   * Another team's job, or one past its retention, is not found.
   */
  private async find(teamId: string, jobId: string): Promise<ContentJob> {
    const { state } = await this.jobs.state(jobId);
    if (
      state.status === 'absent' ||
      state.teamId !== teamId ||
      state.expiresAt <= this.clock.now().toISOString()
    ) {
      throw new ContentError('job_not_found', `content job ${jobId} not found`);
    }
    return state;
  }
}
