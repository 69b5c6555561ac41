import { Inject, Injectable } from '@nestjs/common';
import { type ExistingPost } from '@analyst/domain-content';
import { CLOCK, READ_STORE, type Clock, type ReadStore } from '@analyst/platform';
import { StreamSweeper } from './stream-sweeper';
import { reservationIdFor } from '../steps/with-reservation';
import { INGEST_OPTIONS, POSTS, type IngestOptions } from '../ingest.tokens';
import { LedgerClient } from './ledger-client';
import { ContentJobCommands } from '../commands/content-job-commands';
import { PostCommands } from '../commands/post-commands';

export interface HoldSweep {
  resumed: string[];
  abandoned: string[];
  failed: string[];
}

/** The reservation of a held version's n-th resumption: every replica derives the same one. */
export function resumeReservationId(post: ExistingPost): string {
  return reservationIdFor(post.current.jobId, `${post.postId}#v${post.dataVersion}#resume${post.holds}`);
}

/**
 * A post the platform held (quota or rate limit spent) is fetched again once the window the
 * platform named reopens (`holdRetryMs` after the hold when it named none). Its job stays
 * `syncing` meanwhile, as the spec says. The hold's credit was refunded, so the resumed fetch
 * reserves again under an id derived from the version and its hold count: several replicas
 * sweeping at once reserve once (the ledger answers a repeated command id with its first answer)
 * and append one `PostHoldResumed` (the decider ignores a second). A team that can no longer fund
 * it gets the post `failed`, with nothing reserved, and so does a post held `maxHolds` times (10;
 * with YouTube's daily quota, ten days).
 */
@Injectable()
export class HeldPostResumer extends StreamSweeper<'resumed' | 'abandoned' | 'waiting'> {
  constructor(
    private readonly ledger: LedgerClient,
    private readonly jobs: ContentJobCommands,
    private readonly posts: PostCommands,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
  ) {
    super('HeldPostResumer', options.holdSweepMs, 'held posts');
  }

  /** Resumes every held post whose window has reopened; returns their ids. */
  async runOnce(): Promise<HoldSweep> {
    // The read model only nominates; each post's own stream decides whether it is still held.
    const held = await this.store
      .collection(POSTS)
      .find({ status: 'holding' }, { projection: { _id: 1 }, sort: { updatedAt: 1 }, limit: 200 });
    const result = await this.sweep(
      held.map((doc) => String(doc._id)),
      (postId) => this.resume(postId),
      (postId) => `resuming held post ${postId}`,
    );
    const sweep: HoldSweep = {
      resumed: StreamSweeper.idsWith(result, 'resumed'),
      abandoned: StreamSweeper.idsWith(result, 'abandoned'),
      failed: result.failed,
    };
    if (sweep.resumed.length + sweep.abandoned.length > 0)
      this.logger.log(
        `held posts: ${sweep.resumed.length} resumed, ${sweep.abandoned.length} could not be funded`,
      );
    return sweep;
  }

  private async resume(postId: string): Promise<'resumed' | 'abandoned' | 'waiting'> {
    const { state } = await this.posts.state(postId);
    if (state.status !== 'holding') return 'waiting';
    const now = this.clock.now();
    if (now.getTime() < this.reopensAt(state)) return 'waiting';
    const ctx = {
      correlationId: `resume-held-${postId}-v${state.dataVersion}-${state.holds}`,
      teamId: state.teamId,
    };
    const at = now.toISOString();
    if (state.holds >= this.options.maxHolds) {
      // Every hold refunded its credit, so giving up charges nothing; the job settles without it.
      const reason = `held by the platform ${state.holds} times; not fetched again (last: ${state.heldUntil ? `until ${state.heldUntil}` : 'no end given'})`;
      return this.abandon(state, reason, at, ctx);
    }
    let reservationId: string | null = null;
    if (state.current.reservationId !== null) {
      reservationId = resumeReservationId(state);
      const { state: job } = await this.jobs.state(state.current.jobId);
      const source = job.status === 'absent' ? 'auto' : job.credits.source;
      const reserved = await this.ledger.reserve(
        state.teamId,
        {
          commandId: `reserve-${reservationId}`,
          reservationId,
          units: 1,
          unitCost: state.current.unitCost,
          source,
        },
        ctx.correlationId,
      );
      if (reserved.fundedUnits < 1) {
        const reason = `held by the platform, then the team's credits could not fund fetching it again (${state.current.unitCost} credit${state.current.unitCost === 1 ? '' : 's'})`;
        return this.abandon(state, reason, at, ctx);
      }
    }
    // A second replica reaching this point with the same reservation appends nothing.
    await this.posts.handle(
      postId,
      { type: 'ResumeHeld', data: { dataVersion: state.dataVersion, reservationId, at } },
      ctx,
    );
    return 'resumed';
  }

  /** Gives the held version up: the post ends `failed` with `reason`, and nothing is reserved for it. */
  private async abandon(
    post: ExistingPost,
    reason: string,
    at: string,
    ctx: { correlationId: string; teamId: string },
  ): Promise<'abandoned'> {
    await this.posts.handle(
      post.postId,
      { type: 'AbandonHeld', data: { dataVersion: post.dataVersion, reason, at } },
      ctx,
    );
    return 'abandoned';
  }

  private reopensAt(post: ExistingPost): number {
    if (post.heldUntil) return Date.parse(post.heldUntil);
    return Date.parse(post.lastHeldAt ?? post.current.requestedAt) + this.options.holdRetryMs;
  }
}
