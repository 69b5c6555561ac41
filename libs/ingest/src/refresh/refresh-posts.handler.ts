import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '@analyst/contracts';
import { classifyPostLink } from '@analyst/links';
import {
  ContentError,
  contentJobDecider,
  contentJobStream,
  postDecider,
  postStream,
  type AcceptedEntry,
  type ContentJob,
  type JobRequest,
  type RejectedEntry,
  type SkippedEntry,
} from '@analyst/domain-content';
import {
  CLOCK,
  CommandRunner,
  ID_GENERATOR,
  ProjectionService,
  READ_STORE,
  type Clock,
  type IdGenerator,
  type ReadStore,
} from '@analyst/platform';
import { contentOptions, expiresAt } from '../adding/add-posts.handler';
import { PostIntake } from '../adding/post-intake';
import { reservationIdFor } from '../adding/request-fingerprint';
import type { RefreshRequester } from '../adding/requester';
import { TeamQueue } from '../adding/team-queue';
import { LedgerClient } from '../pipeline/ledger-client';
import type { PostDoc } from '../projections/post-doc';
import { settleIfNothingAccepted } from '../jobs/settle-if-nothing-accepted';
import { findJob } from '../queries/jobs';
import { findPost, findPostsByLinks } from '../queries/posts';
import { decideRefresh } from './refresh-rules';
import type { RefreshPostsBody } from './refresh.dto';

interface Candidate {
  post: PostDoc;
  /** The id or link the client sent. */
  given: string;
  paid: boolean;
}

/**
 * POST /content/posts/refresh. Never replayed: every call is a new job. Each post on the target
 * team is checked against the refresh rules; free (included) refreshes need no reservation, paid
 * ones reserve like an add, and when nothing could be refreshed for lack of credits the answer is
 * 402 with nothing created.
 */
@Injectable()
export class RefreshPostsHandler {
  private readonly logger = new Logger('Refresh');

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionService,
    private readonly intake: PostIntake,
    private readonly ledger: LedgerClient,
    private readonly teams: TeamQueue,
  ) {}

  refresh(requester: RefreshRequester, body: RefreshPostsBody): Promise<ContentJob> {
    const requested = (body.postIds?.length ?? 0) + (body.links?.length ?? 0);
    if (requested === 0) throw new ApiError(400, 'give postIds or links (at least one)');
    if (requested > 100) throw new ApiError(400, 'at most 100 posts per refresh call');
    return this.teams.run(requester.teamId, () => this.refreshNow(requester, body, requested));
  }

  private async refreshNow(
    requester: RefreshRequester,
    body: RefreshPostsBody,
    requested: number,
  ): Promise<ContentJob> {
    const teamId = requester.teamId;
    const options = contentOptions(body);
    const now = this.clock.now();
    const rejected: RejectedEntry[] = [];
    const skipped: SkippedEntry[] = [];
    const found: { post: PostDoc; given: string }[] = [];
    for (const postId of body.postIds ?? []) {
      const post = await findPost(this.store, postId);
      // Another team's post is "not found", exactly like an unknown id.
      if (!post || post.teamId !== teamId) rejected.push({ link: postId, reason: 'not_found' });
      // Entries name the post by its URL (`link`) and id (`postId`), however the request named it.
      else found.push({ post, given: post.link });
    }
    const links = (body.links ?? []).map((link) => ({ link, c: classifyPostLink(link) }));
    const onTeam = await findPostsByLinks(
      this.store,
      teamId,
      links.flatMap(({ c }) => (c.ok ? [c.normalized] : [])),
    );
    for (const { link, c } of links) {
      if (!c.ok) rejected.push({ link, reason: c.reason });
      else if (!onTeam.has(c.normalized)) rejected.push({ link, reason: 'not_on_team' });
      else found.push({ post: onTeam.get(c.normalized)!, given: link });
    }
    const seen = new Set<string>();
    const candidates: Candidate[] = [];
    for (const { post, given } of found) {
      if (seen.has(post.id)) {
        skipped.push({ link: given, reason: 'duplicate_in_batch', postId: post.id });
        continue;
      }
      seen.add(post.id);
      const decision = decideRefresh(post, requester.plan, now);
      if (decision.kind === 'skip')
        skipped.push({
          link: given,
          reason: decision.reason,
          postId: post.id,
          ...(decision.nextRefreshAt ? { nextRefreshAt: decision.nextRefreshAt } : {}),
        });
      else candidates.push({ post, given, paid: decision.kind === 'credit' });
    }
    const paid = candidates.filter((c) => c.paid);
    if (
      paid.length > 0 &&
      paid.length === candidates.length &&
      !(await this.intake.canFundOne(teamId, options.source, options.perPost))
    ) {
      throw new ApiError(
        402,
        `insufficient credits: ${paid.length} refresh(es) at ${options.perPost} credit(s) each cannot be funded`,
        'insufficient_credits',
      );
    }

    const job: JobRequest = {
      jobId: this.ids.next('cj_'),
      teamId,
      kind: 'refresh',
      fingerprint: null,
      createdAt: now.toISOString(),
      expiresAt: expiresAt(now),
      collections: [],
      tags: [],
      credits: { source: options.source, perPost: options.perPost },
      capture: { fullRead: options.fullRead, commentLimit: options.commentLimit },
      requested,
      refreshPosts: candidates.map((c) => ({ postId: c.post.id, link: c.given })),
      addedBy: { id: requester.keyId, name: requester.keyName },
      account: null,
      dryRun: null,
      filters: null,
    };
    const ctx = { correlationId: requester.correlationId, teamId };
    let position = (
      await this.runner.run(
        contentJobStream(job.jobId),
        contentJobDecider,
        { type: 'OpenJob', request: job },
        ctx,
      )
    ).position;
    const accepted: AcceptedEntry[] = [];
    let exhausted = false;
    for (const c of candidates) {
      let reservationId: string | null = null;
      if (c.paid) {
        if (exhausted) {
          rejected.push({ link: c.given, reason: 'insufficient_credits' });
          continue;
        }
        reservationId = reservationIdFor(job.jobId, c.post.id);
        const reserved = await this.ledger.reserve(
          teamId,
          {
            commandId: `reserve-${reservationId}`,
            reservationId,
            units: 1,
            unitCost: options.perPost,
            source: options.source,
          },
          requester.correlationId,
        );
        if (reserved.fundedUnits < 1) {
          exhausted = true;
          rejected.push({ link: c.given, reason: 'insufficient_credits' });
          continue;
        }
      }
      try {
        const outcome = await this.runner.run(
          postStream(c.post.id),
          postDecider,
          {
            type: 'RequestRefresh',
            request: {
              jobId: job.jobId,
              reservationId,
              creditSource: c.paid ? 'credit' : 'included',
              unitCost: c.paid ? options.perPost : 0,
              fullRead: options.fullRead,
              commentLimit: options.commentLimit,
              requestedAt: this.clock.now().toISOString(),
            },
          },
          ctx,
        );
        position = Math.max(position, outcome.position);
        const dataVersion = (outcome.events[0].data as { dataVersion: number }).dataVersion;
        accepted.push({
          link: c.given,
          postId: c.post.id,
          postStatus: 'fetching',
          creditSource: c.paid ? 'credit' : 'included',
          creditCost: c.paid ? options.perPost : 0,
          dataVersion,
        });
      } catch (error) {
        if (reservationId)
          await this.ledger.refund(
            teamId,
            { commandId: `refund-${reservationId}`, reservationId, reason: 'create_failed' },
            requester.correlationId,
          );
        if (error instanceof ContentError && error.code === 'post_in_flight')
          skipped.push({ link: c.given, reason: 'already_processing', postId: c.post.id });
        else {
          this.logger.warn(`refreshing ${c.post.id} failed: ${String(error)}`);
          rejected.push({ link: c.given, reason: 'create_failed' });
        }
      }
    }
    const queued = await this.runner.run(
      contentJobStream(job.jobId),
      contentJobDecider,
      { type: 'QueueJob', accepted, skipped, rejected, at: this.clock.now().toISOString() },
      ctx,
    );
    await this.projections.waitFor(Math.max(position, queued.position));
    const answered =
      (await findJob(this.store, teamId, job.jobId, this.clock.now())) ?? (queued.state as ContentJob);
    await settleIfNothingAccepted(this.runner, answered, this.clock.now().toISOString(), ctx);
    return answered;
  }
}
