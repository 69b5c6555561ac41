import {
  ContentError,
  contentJobDecider,
  contentJobStream,
  type ContentJob,
  type JobError,
  type JobRequest,
} from '@analyst/domain-content';
import type { CommandRunner } from '@analyst/platform';

type Ctx = Parameters<CommandRunner['run']>[3];

/**
 * Opens a job under its id. Null when the id is taken: a retry of the same request on another
 * replica opened it a moment ago (both claimed the same id), and the caller joins that job.
 */
export async function openJob(runner: CommandRunner, request: JobRequest, ctx: Ctx) {
  try {
    return await runner.run(
      contentJobStream(request.jobId),
      contentJobDecider,
      { type: 'OpenJob', data: request },
      ctx,
    );
  } catch (error) {
    if (error instanceof ContentError && error.code === 'job_exists') return null;
    throw error;
  }
}

/** The job as its own stream says, or null when it was never opened. */
export async function loadJob(runner: CommandRunner, jobId: string): Promise<ContentJob | null> {
  const { state } = await runner.load(contentJobStream(jobId), contentJobDecider);
  return state.status === 'absent' ? null : state;
}

/** Fails the job with the error its client reads; the decider appends nothing once the job is past `queuing`. */
export function failJob(runner: CommandRunner, jobId: string, error: JobError, at: string, ctx: Ctx) {
  return runner.run(
    contentJobStream(jobId),
    contentJobDecider,
    { type: 'FailJob', data: { error, at } },
    ctx,
  );
}
