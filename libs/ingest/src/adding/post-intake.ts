import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CreditSource, Platform } from '@analyst/contracts';
import { readTeamCreditsAt } from '@analyst/ledger';
import {
  IN_FLIGHT_STATUSES,
  postDecider,
  postStream,
  type AcceptedEntry,
  type JobRequest,
  type RejectedEntry,
  type SkippedEntry,
} from '@analyst/domain-content';
import { CLOCK, CommandRunner, ID_GENERATOR, READ_STORE, type Clock, type IdGenerator, type ReadStore } from '@analyst/platform';
import { LedgerClient } from '../pipeline/ledger-client';
import type { PostDoc } from '../projections/post-doc';
import { findPostsByLinks } from '../queries/posts';
import { reservationIdFor } from './request-fingerprint';
import type { Requester } from './requester';

/** A link that passed classification. `link` is what the client sent; `normalized` is the dedupe key. */
export interface LinkCandidate {
  link: string;
  normalized: string;
  platform: Platform;
}

export interface DedupeResult {
  fresh: LinkCandidate[];
  skipped: SkippedEntry[];
  /** Posts already on the team: they still get the request's collections and tags. */
  present: PostDoc[];
  /** Posts this same job created before it was interrupted (a retried request resumes the job). */
  resumed: AcceptedEntry[];
}

export interface IntakeResult {
  accepted: AcceptedEntry[];
  rejected: RejectedEntry[];
  position: number;
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
    private readonly runner: CommandRunner,
    private readonly ledger: LedgerClient,
  ) {}

  async dedupe(teamId: string, jobId: string | null, candidates: LinkCandidate[]): Promise<DedupeResult> {
    const result: DedupeResult = { fresh: [], skipped: [], present: [], resumed: [] };
    const existing = await findPostsByLinks(this.store, teamId, [...new Set(candidates.map((c) => c.normalized))]);
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
        result.resumed.push({ link: c.link, postId: post.id, postStatus: post.status, creditSource: 'credit', creditCost: 0, dataVersion: 1 });
      } else {
        const busy = IN_FLIGHT_STATUSES.includes(post.status) || post.status === 'holding';
        result.skipped.push({ link: c.link, reason: busy ? 'already_processing' : 'already_complete' });
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

  /** Merges the request's collections and tags onto posts already on the team. */
  async tagPresent(requester: Requester, posts: PostDoc[], collectionIds: string[], tags: string[]): Promise<number> {
    let position = -1;
    if (collectionIds.length === 0 && tags.length === 0) return position;
    for (const post of posts) {
      const outcome = await this.runner.run(
        postStream(post.id),
        postDecider,
        { type: 'TagPost', collectionIds, tags, at: this.clock.now().toISOString() },
        { correlationId: requester.correlationId, teamId: requester.teamId },
      );
      position = Math.max(position, outcome.position);
    }
    return position;
  }

  /**
   * Step 7: reserve one unit, then create the post, link by link. Reservation and command ids come
   * from the job id and the link, so a retried request or a restart gets the ledger's first answer
   * instead of a second reservation. Once a reservation comes back unfunded, the rest are
   * `insufficient_credits`; a post that cannot be created gives its reservation back (`create_failed`).
   */
  async reserveAndCreate(requester: Requester, job: JobRequest, fresh: LinkCandidate[]): Promise<IntakeResult> {
    const accepted: AcceptedEntry[] = [];
    const rejected: RejectedEntry[] = [];
    let position = -1;
    let exhausted = false;
    const unitCost = job.credits.perPost;
    for (const c of fresh) {
      if (exhausted) {
        rejected.push({ link: c.link, reason: 'insufficient_credits' });
        continue;
      }
      const reservationId = reservationIdFor(job.jobId, c.normalized);
      const reserved = await this.ledger.reserve(
        requester.teamId,
        { commandId: `reserve-${reservationId}`, reservationId, units: 1, unitCost, source: job.credits.source },
        requester.correlationId,
      );
      if (reserved.fundedUnits < 1) {
        exhausted = true;
        rejected.push({ link: c.link, reason: 'insufficient_credits' });
        continue;
      }
      const postId = this.ids.next('po_');
      try {
        const outcome = await this.runner.run(
          postStream(postId),
          postDecider,
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
              unitCost,
              fullRead: job.capture.fullRead,
              commentLimit: job.capture.commentLimit,
              requestedAt: this.clock.now().toISOString(),
            },
          },
          { correlationId: requester.correlationId, teamId: requester.teamId },
        );
        position = Math.max(position, outcome.position);
        accepted.push({ link: c.link, postId, postStatus: 'fetching', creditSource: 'credit', creditCost: unitCost, dataVersion: 1 });
      } catch (error) {
        this.logger.warn(`creating the post for ${c.normalized} failed: ${String(error)}; returning its reservation`);
        await this.ledger.refund(requester.teamId, { commandId: `refund-${reservationId}`, reservationId, reason: 'create_failed' }, requester.correlationId);
        rejected.push({ link: c.link, reason: 'create_failed' });
      }
    }
    return { accepted, rejected, position };
  }
}
