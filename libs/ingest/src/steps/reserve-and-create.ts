import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PostStatus } from '@analyst/contracts';
import { ContentError, type AcceptedEntry, type JobRequest } from '@analyst/domain-content';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@analyst/platform';
import type { JobEntries } from '../commands/content-job-commands';
import { LinkClaimCommands, type LinkClaimKey } from '../commands/link-claim-commands';
import { PostCommands } from '../commands/post-commands';
import { LedgerClient, type LedgerCallBudget } from '../pipeline/ledger-client';
import type { LinkCandidate } from './classify-links';
import { presentSkipReason, type Deduped } from './dedupe';
import { requesterContext, type Requester } from '../request/requester';
import { reservationIdFor, withReservation } from './with-reservation';
import { WriteFence } from '../request/write-fence';

/** One request's step 7 under way: who asks, for which job, its write fence and its ledger budget. */
interface Run {
  requester: Requester;
  job: JobRequest;
  fence: WriteFence;
  ctx: { correlationId: string; teamId: string };
  budget: LedgerCallBudget | undefined;
}

/**
 * Step 7 of the add path, link by link: claim the link, reserve one unit, create the post; then the
 * request's collections and tags are merged onto the posts already on the team. Shared by posts
 * jobs (fresh, replayed and resumed) and account jobs.
 *
 * The claim (a stream per team and link, LinkClaimCommands) makes the post unique across replicas:
 * a link claimed by another job is skipped as that job's post; one claimed by this job (a retry or
 * a resumed job) continues with the claimed post id. Reservation and command ids come from the job
 * id and the link, so a retry gets the ledger's first answer instead of a second reservation. Once a
 * reservation comes back unfunded, the rest are `insufficient_credits`; a post that cannot be
 * created gives its reservation back (`create_failed`). Either way the claim is released.
 */
@Injectable()
export class ReserveAndCreate {
  private readonly logger = new Logger('ReserveAndCreate');

  constructor(
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly posts: PostCommands,
    private readonly linkClaims: LinkClaimCommands,
    private readonly ledger: LedgerClient,
  ) {}

  /**
   * The job's entries for the deduped links: accepted, skipped (by dedupe, then the links another
   * job claimed first) and rejected. Every append is recorded on `fence`. `budget`: inside an HTTP
   * request, REQUEST_PATH_LEDGER_BUDGET (a broker gone mid-request is a 503 in seconds); absent,
   * the ledger client's default (background work).
   */
  async run(
    requester: Requester,
    job: JobRequest,
    deduped: Deduped,
    fence = new WriteFence(),
    budget?: LedgerCallBudget,
  ): Promise<JobEntries> {
    const run: Run = { requester, job, fence, ctx: requesterContext(requester), budget };
    const entries: JobEntries = { accepted: [], skipped: [...deduped.skipped], rejected: [] };
    // Posts another job claimed first: like the present ones, they get the request's collections and tags.
    const taken: string[] = [];
    let exhausted = false;
    for (const c of deduped.fresh) {
      const holder = await this.claim(run, c);
      if (holder.jobId !== job.jobId) {
        const existing = await this.postStatus(holder.postId);
        entries.skipped.push({
          link: c.link,
          reason: existing === null ? 'already_processing' : presentSkipReason(existing),
        });
        if (existing !== null) taken.push(holder.postId);
        continue;
      }
      const resumed = await this.createdByJob(holder.postId, c.normalized, job.jobId);
      if (resumed !== null) {
        // Created by this job before it was interrupted: accepted, charged through its reservation.
        entries.accepted.push(accepted(job, c, holder.postId, resumed));
        continue;
      }
      const outcome = exhausted
        ? 'insufficient_credits'
        : await this.reserveAndCreateOne(run, c, holder.postId);
      if (outcome === 'insufficient_credits') exhausted = true;
      if (typeof outcome === 'string') {
        await this.release(run, c, holder.postId, outcome);
        entries.rejected.push({ link: c.link, reason: outcome });
      } else entries.accepted.push(outcome);
    }
    await this.tagPresent(run, [...deduped.present.map((p) => p.id), ...taken]);
    return entries;
  }

  /** Claims the link for a new post of this job; the claim's holder (this job or another). */
  private async claim(run: Run, c: LinkCandidate) {
    const claimed = await this.linkClaims.claim(
      claimKey(run, c),
      { postId: this.ids.next('po_'), jobId: run.job.jobId, at: this.now() },
      run.ctx,
    );
    return run.fence.record(claimed).holder;
  }

  /** Gives the link back: its post was not created. */
  private async release(
    run: Run,
    c: LinkCandidate,
    postId: string,
    reason: 'insufficient_credits' | 'create_failed',
  ): Promise<void> {
    run.fence.record(
      await this.linkClaims.release(
        claimKey(run, c),
        { postId, jobId: run.job.jobId, reason, at: this.now() },
        run.ctx,
      ),
    );
  }

  /** One claimed link: reserve, create the post; a failed create refunds its reservation. */
  private async reserveAndCreateOne(
    run: Run,
    c: LinkCandidate,
    postId: string,
  ): Promise<AcceptedEntry | 'insufficient_credits' | 'create_failed'> {
    const { requester, job } = run;
    const reservationId = reservationIdFor(job.jobId, c.normalized);
    const reserved = await withReservation(
      this.ledger,
      {
        teamId: requester.teamId,
        reservationId,
        unitCost: job.credits.perPost,
        source: job.credits.source,
        correlationId: requester.correlationId,
        budget: run.budget,
      },
      () => this.createPost(run, c, postId, reservationId),
    );
    if (reserved.outcome === 'unfunded') return 'insufficient_credits';
    if (reserved.outcome === 'done') return accepted(job, c, postId, reserved.value);
    this.logger.warn(
      `creating the post for ${c.normalized} failed: ${String(reserved.error)}; its reservation was returned`,
    );
    return 'create_failed';
  }

  /** Creates the post; its status. A `post_exists` that is this job's own post (another replica resuming it) is that post. */
  private async createPost(
    run: Run,
    c: LinkCandidate,
    postId: string,
    reservationId: string,
  ): Promise<PostStatus> {
    const { requester, job } = run;
    try {
      run.fence.record(
        await this.posts.handle(
          postId,
          {
            type: 'CreatePost',
            data: {
              postId,
              teamId: requester.teamId,
              link: c.link,
              normalizedLink: c.normalized,
              platform: c.platform,
              collectionIds: job.collections.map((x) => x.id),
              tags: job.tags,
              addedVia: 'api',
              addedBy: { id: requester.keyId, name: requester.keyName },
              isDemo: requester.isDemo === true,
              dataVersion: 1,
              jobId: job.jobId,
              reservationId,
              creditSource: 'credit',
              unitCost: job.credits.perPost,
              fullRead: job.capture.fullRead,
              commentLimit: job.capture.commentLimit,
              requestedAt: this.now(),
            },
          },
          run.ctx,
        ),
      );
      return 'fetching';
    } catch (error) {
      const mine =
        error instanceof ContentError && error.code === 'post_exists'
          ? await this.createdByJob(postId, c.normalized, job.jobId)
          : null;
      // Another replica resuming this same job created it a moment ago: one post, one reservation.
      if (mine) return mine;
      throw error;
    }
  }

  /** Merges the request's collections and tags onto posts already on the team. */
  private async tagPresent(run: Run, postIds: string[]): Promise<void> {
    const collectionIds = run.job.collections.map((c) => c.id);
    const tags = run.job.tags;
    if (collectionIds.length === 0 && tags.length === 0) return;
    for (const postId of postIds) {
      run.fence.record(
        await this.posts.handle(
          postId,
          { type: 'TagPost', data: { collectionIds, tags, at: this.now() } },
          run.ctx,
        ),
      );
    }
  }

  /** The post's status as its own stream says, or null when it does not exist (yet). */
  private async postStatus(postId: string): Promise<PostStatus | null> {
    const { state } = await this.posts.state(postId);
    return state.status === 'absent' ? null : state.status;
  }

  /** The post's status when it is this job's post for this link, else null (an id clash is a failure). */
  private async createdByJob(
    postId: string,
    normalizedLink: string,
    jobId: string,
  ): Promise<PostStatus | null> {
    const { state } = await this.posts.state(postId);
    if (state.status === 'absent' || state.normalizedLink !== normalizedLink || state.current.jobId !== jobId)
      return null;
    return state.status;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

function claimKey(run: Run, c: LinkCandidate): LinkClaimKey {
  return { teamId: run.requester.teamId, normalizedLink: c.normalized };
}

/** A post of this job accepted at the job's price (added posts are always paid). */
function accepted(job: JobRequest, c: LinkCandidate, postId: string, postStatus: PostStatus): AcceptedEntry {
  return {
    link: c.link,
    postId,
    postStatus,
    creditSource: 'credit',
    creditCost: job.credits.perPost,
    dataVersion: 1,
  };
}
