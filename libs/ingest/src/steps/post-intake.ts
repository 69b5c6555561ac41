import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CreditSource, PostStatus } from '@analyst/contracts';
import { readTeamCreditsAt } from '@analyst/ledger-read';
import {
  ContentError,
  IN_FLIGHT_STATUSES,
  type AcceptedEntry,
  type JobRequest,
  type RejectedEntry,
  type SkippedEntry,
} from '@analyst/domain-content';
import {
  CLOCK,
  ID_GENERATOR,
  READ_STORE,
  type Clock,
  type IdGenerator,
  type ReadStore,
} from '@analyst/platform';
import { LedgerClient, type LedgerCallBudget } from '../pipeline/ledger-client';
import type { PostDoc } from '../projections/post-doc';
import { findPostsByLinks } from '../queries/posts';
import { reservationIdFor } from './request-fingerprint';
import type { LinkCandidate } from './link-candidate';
import { RequestLinkClaims } from './request-link-claims';
import { requesterContext, type Requester } from './requester';
import { withReservation } from './with-reservation';
import { WriteFence } from './write-fence';
import { LinkClaimCommands } from '../commands/link-claim-commands';
import { PostCommands } from '../commands/post-commands';

export interface DedupeResult {
  fresh: LinkCandidate[];
  skipped: SkippedEntry[];
  /** Posts already on the team: they still get the request's collections and tags. */
  present: PostDoc[];
  /** How many of `fresh` the read model already shows as this job's posts (a resumed job). */
  resumed: number;
}

export interface IntakeResult {
  accepted: AcceptedEntry[];
  rejected: RejectedEntry[];
  /** Links another job claimed first (the read model had not seen them yet). */
  skipped: SkippedEntry[];
  /** Ids of the existing posts behind `skipped`: they still get the request's collections and tags. */
  taken: string[];
}

/**
 * Steps 5 to 7 of the add path, shared by posts and account jobs: dedupe against the team's posts,
 * check the batch can be funded at all, then reserve and create link by link.
 */
@Injectable()
export class PostIntake {
  private readonly logger = new Logger('PostIntake');

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly posts: PostCommands,
    private readonly linkClaims: LinkClaimCommands,
    private readonly ledger: LedgerClient,
  ) {}

  /**
   * Step 5, first pass: the team's posts as the read model knows them. It may lag the log (another
   * replica may have just created a post), so it only answers what is certainly present; whether a
   * link is free is decided by its claim in `reserveAndCreate`. Posts this same job created before
   * it was interrupted go on to the claim, which finds them (a retried request resumes the job).
   */
  async dedupe(teamId: string, jobId: string | null, candidates: LinkCandidate[]): Promise<DedupeResult> {
    const result: DedupeResult = { fresh: [], skipped: [], present: [], resumed: 0 };
    const existing = await findPostsByLinks(this.store, teamId, [
      ...new Set(candidates.map((c) => c.normalized)),
    ]);
    const seen = new Set<string>();
    for (const c of candidates) {
      if (seen.has(c.normalized)) {
        result.skipped.push({ link: c.link, reason: 'duplicate_in_batch' });
        continue;
      }
      seen.add(c.normalized);
      const post = existing.get(c.normalized);
      if (!post) {
        result.fresh.push(c);
      } else if (jobId !== null && post.jobId === jobId && post.dataVersion === 1) {
        result.fresh.push(c);
        result.resumed += 1;
      } else {
        result.skipped.push({ link: c.link, reason: skipReason(post.status) });
        result.present.push(post);
      }
    }
    return result;
  }

  /**
   * Step 6: can at least one post be paid for? Read from the ledger's balances read model as of
   * now: in a month the stored balances have not reached yet, the month's MAPs count (the reserve
   * that follows resets the month before it reserves).
   */
  async canFundOne(teamId: string, source: CreditSource, unitCost: number): Promise<boolean> {
    const credits = await readTeamCreditsAt(this.store, teamId, this.clock.now());
    const available = source === 'adhoc' ? credits.adhoc : credits.maps + credits.adhoc;
    return available >= unitCost;
  }

  /**
   * Before a request writes anything that needs ledger calls: DependencyUnavailableError (503) when
   * the broker cannot carry them now, so a request refused for it leaves no event and no reservation.
   */
  checkLedgerReachable(): Promise<void> {
    return this.ledger.checkReachable();
  }

  /** Merges the request's collections and tags onto posts already on the team. */
  async tagPresent(
    requester: Requester,
    postIds: string[],
    collectionIds: string[],
    tags: string[],
    fence = new WriteFence(),
  ): Promise<void> {
    if (collectionIds.length === 0 && tags.length === 0) return;
    for (const postId of postIds) {
      fence.record(
        await this.posts.handle(
          postId,
          { type: 'TagPost', data: { collectionIds, tags, at: this.now() } },
          requesterContext(requester),
        ),
      );
    }
  }

  /**
   * Step 7, link by link: claim the link, reserve one unit, create the post. The claim (a stream per
   * team and link, appended with the revision read) makes the post unique across replicas: a link
   * claimed by another job is skipped as that job's post; one claimed by this job (a retry or a
   * resumed job) continues with the claimed post id. Reservation and command ids come from the job
   * id and the link, so a retry gets the ledger's first answer instead of a second reservation.
   * Once a reservation comes back unfunded, the rest are `insufficient_credits`; a post that cannot
   * be created gives its reservation back (`create_failed`). Either way the claim is released.
   * `ledgerBudget`: inside an HTTP request, REQUEST_PATH_LEDGER_BUDGET (a broker gone mid-request is a 503 in seconds).
   */
  async reserveAndCreate(
    requester: Requester,
    job: JobRequest,
    fresh: LinkCandidate[],
    fence = new WriteFence(),
    ledgerBudget?: LedgerCallBudget,
  ): Promise<IntakeResult> {
    const result: IntakeResult = { accepted: [], rejected: [], skipped: [], taken: [] };
    const link = new RequestLinkClaims(this.linkClaims, this.ids, this.clock, requester, job, fence);
    let exhausted = false;
    for (const c of fresh) {
      const holder = await link.claim(c);
      if (holder.jobId !== job.jobId) {
        const existing = await this.postStatus(holder.postId);
        result.skipped.push({
          link: c.link,
          reason: existing === null ? 'already_processing' : skipReason(existing),
        });
        if (existing !== null) result.taken.push(holder.postId);
        continue;
      }
      const resumed = await this.createdByJob(holder.postId, c.normalized, job.jobId);
      if (resumed !== null) {
        // Created by this job before it was interrupted: accepted, charged through its reservation.
        result.accepted.push(link.accepted(c, holder.postId, resumed));
        continue;
      }
      const outcome = exhausted
        ? 'insufficient_credits'
        : await this.reserveAndCreateOne(link, c, holder.postId, ledgerBudget);
      if (outcome === 'insufficient_credits') exhausted = true;
      if (typeof outcome === 'string') {
        await link.release(c, holder.postId, outcome);
        result.rejected.push({ link: c.link, reason: outcome });
      } else result.accepted.push(outcome);
    }
    return result;
  }

  /** One claimed link: reserve, create the post; a failed create refunds its reservation. */
  private async reserveAndCreateOne(
    link: RequestLinkClaims,
    c: LinkCandidate,
    postId: string,
    budget: LedgerCallBudget | undefined,
  ): Promise<AcceptedEntry | 'insufficient_credits' | 'create_failed'> {
    const { requester, job } = link;
    const reservationId = reservationIdFor(job.jobId, c.normalized);
    const reserved = await withReservation(
      this.ledger,
      {
        teamId: requester.teamId,
        reservationId,
        unitCost: job.credits.perPost,
        source: job.credits.source,
        correlationId: requester.correlationId,
        budget,
      },
      () => this.createPost(link, c, postId, reservationId),
    );
    if (reserved.outcome === 'unfunded') return 'insufficient_credits';
    if (reserved.outcome === 'done') return link.accepted(c, postId, reserved.value);
    this.logger.warn(
      `creating the post for ${c.normalized} failed: ${String(reserved.error)}; its reservation was returned`,
    );
    return 'create_failed';
  }

  /** Creates the post; its status. A `post_exists` that is this job's own post (another replica resuming it) is that post. */
  private async createPost(
    link: RequestLinkClaims,
    c: LinkCandidate,
    postId: string,
    reservationId: string,
  ): Promise<PostStatus> {
    const { requester, job } = link;
    try {
      link.fence.record(
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
          link.ctx,
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

function skipReason(status: PostStatus): SkippedEntry['reason'] {
  return IN_FLIGHT_STATUSES.includes(status) || status === 'holding'
    ? 'already_processing'
    : 'already_complete';
}
