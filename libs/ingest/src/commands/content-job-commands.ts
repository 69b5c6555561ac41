import { Injectable } from '@nestjs/common';
import {
  ContentError,
  contentJobDecider,
  contentJobStream,
  type AcceptedEntry,
  type ContentJob,
  type ContentJobCommand,
  type ContentJobEvent,
  type ContentJobState,
  type JobError,
  type JobRequest,
  type RejectedEntry,
  type SkippedEntry,
} from '@analyst/domain-content';
import { CommandHandler, CommandRunner, type CommandContext } from '@analyst/platform';

/** What a job records of its links when it is queued: accepted, skipped and rejected, final from then on. */
export interface JobEntries {
  accepted: AcceptedEntry[];
  skipped: SkippedEntry[];
  rejected: RejectedEntry[];
}

/** A content job's stream, keyed by job id, bound to the content job decider; with the steps every content use case shares. */
@Injectable()
export class ContentJobCommands extends CommandHandler<
  string,
  ContentJobCommand,
  ContentJobEvent,
  ContentJobState
> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: contentJobDecider, streamOf: contentJobStream });
  }

  /**
   * Opens a job under its id. Null when the id is taken: a retry of the same request on another
   * replica opened it a moment ago (both claimed the same id), and the caller joins that job.
   */
  async open(request: JobRequest, ctx: CommandContext) {
    try {
      return await this.handle(request.jobId, { type: 'OpenJob', data: request }, ctx);
    } catch (error) {
      if (error instanceof ContentError && error.code === 'job_exists') return null;
      throw error;
    }
  }

  /** The job as its own stream says, or null when it was never opened. */
  async job(jobId: string): Promise<ContentJob | null> {
    const { state } = await this.state(jobId);
    return state.status === 'absent' ? null : state;
  }

  /**
   * Queues the job (the add path's step 8): its entries are final and it moves to `syncing`. The
   * job as queued, and the position written.
   */
  async queue(
    jobId: string,
    entries: JobEntries,
    at: string,
    ctx: CommandContext,
  ): Promise<{ job: ContentJob; position: number }> {
    const { accepted, skipped, rejected } = entries;
    const { state, position } = await this.handle(
      jobId,
      { type: 'QueueJob', data: { accepted, skipped, rejected, at } },
      ctx,
    );
    // The decider refuses QueueJob on a job never opened, so a queued job is always there.
    if (state.status === 'absent') throw new Error(`job ${jobId} was queued but its stream holds no job`);
    return { job: state, position };
  }

  /** Fails the job with the error its client reads; the decider appends nothing once the job is past `queuing`. */
  fail(jobId: string, error: JobError, at: string, ctx: CommandContext) {
    return this.handle(jobId, { type: 'FailJob', data: { error, at } }, ctx);
  }

  /**
   * A job queued with nothing accepted has no post outcome to wait for. It is answered `syncing`
   * (the spec's creation row); recording no outcomes then settles it `failed` with the reason, so
   * the next read sees the terminal status even if nobody polls in between.
   */
  async settleIfNothingAccepted(
    job: Pick<ContentJob, 'jobId' | 'accepted'>,
    at: string,
    ctx: CommandContext,
  ): Promise<void> {
    if (job.accepted.length > 0) return;
    await this.handle(job.jobId, { type: 'RecordPostOutcomes', data: { outcomes: [], at } }, ctx);
  }
}
