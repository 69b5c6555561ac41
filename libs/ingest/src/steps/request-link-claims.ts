import type { PostStatus } from '@analyst/contracts';
import type { AcceptedEntry, JobRequest, LinkClaimCommand, LinkClaimState } from '@analyst/domain-content';
import type { Clock, IdGenerator } from '@analyst/platform';
import type { LinkClaimCommands } from '../commands/link-claim-commands';
import type { LinkCandidate } from './link-candidate';
import { requesterContext, type Requester } from './requester';
import type { WriteFence } from './write-fence';

/**
 * One request's claims on its links (the claim stream per team and link makes a post unique across
 * replicas): who asks, for which job, every append recorded on the request's write fence.
 */
export class RequestLinkClaims {
  readonly ctx: { correlationId: string; teamId: string };

  constructor(
    private readonly claims: LinkClaimCommands,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    readonly requester: Requester,
    readonly job: JobRequest,
    readonly fence: WriteFence,
  ) {
    this.ctx = requesterContext(requester);
  }

  /** Claims the link for a new post of this job; the claim's holder (this job or another). */
  async claim(c: LinkCandidate): Promise<Extract<LinkClaimState, { status: 'claimed' }>> {
    const state = await this.append(c, {
      type: 'ClaimLink',
      data: {
        teamId: this.requester.teamId,
        normalizedLink: c.normalized,
        postId: this.ids.next('po_'),
        jobId: this.job.jobId,
        at: this.clock.now().toISOString(),
      },
    });
    return state as Extract<LinkClaimState, { status: 'claimed' }>;
  }

  /** Gives the link back: its post was not created (unfunded, or the create failed). */
  async release(
    c: LinkCandidate,
    postId: string,
    reason: 'insufficient_credits' | 'create_failed',
  ): Promise<void> {
    await this.append(c, {
      type: 'ReleaseLink',
      data: { postId, jobId: this.job.jobId, reason, at: this.clock.now().toISOString() },
    });
  }

  /** A post of this job accepted at the job's price (added posts are always paid). */
  accepted(c: LinkCandidate, postId: string, postStatus: PostStatus): AcceptedEntry {
    return {
      link: c.link,
      postId,
      postStatus,
      creditSource: 'credit',
      creditCost: this.job.credits.perPost,
      dataVersion: 1,
    };
  }

  private async append(c: LinkCandidate, command: LinkClaimCommand): Promise<LinkClaimState> {
    const outcome = await this.claims.handle(
      { teamId: this.requester.teamId, normalizedLink: c.normalized },
      command,
      this.ctx,
    );
    return this.fence.record(outcome).state;
  }
}
