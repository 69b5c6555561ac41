import { contentJobDecider, contentJobStream, type ContentJob } from '@analyst/domain-content';
import type { CommandRunner } from '@analyst/platform';

/**
 * A job queued with nothing accepted has no post outcome to wait for. It is answered `syncing`
 * (the spec's creation row); recording no outcomes then settles it `failed` with the reason, so
 * the next read sees the terminal status even if nobody polls in between.
 */
export async function settleIfNothingAccepted(
  runner: CommandRunner,
  job: Pick<ContentJob, 'jobId' | 'accepted'>,
  at: string,
  ctx: Parameters<CommandRunner['run']>[3],
): Promise<void> {
  if (job.accepted.length > 0) return;
  await runner.run(
    contentJobStream(job.jobId),
    contentJobDecider,
    { type: 'RecordPostOutcomes', data: { outcomes: [], at } },
    ctx,
  );
}
