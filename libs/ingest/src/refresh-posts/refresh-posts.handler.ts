import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PlanId } from '@analyst/contracts';
import { classifyPostLink } from '@analyst/links';
import {
  ContentError,
  decideRefresh,
  refreshJobRequest,
  type AcceptedEntry,
  type ContentJob,
  type RefreshJobRequest,
} from '@analyst/domain-content';
import {
  CLOCK,
  ID_GENERATOR,
  ProjectionService,
  READ_STORE,
  type Clock,
  type IdGenerator,
  type ReadStore,
} from '@analyst/platform';
import { contentOptions, type ContentOptions } from '../request/content-options';
import { FundCheck } from '../steps/fund-check';
import { requesterContext, type RefreshRequester } from '../request/requester';
import { TeamQueue } from '../request/team-queue';
import { reservationIdFor, withReservation, type ReservationSpec } from '../steps/with-reservation';
import { WriteFence } from '../request/write-fence';
import { LedgerClient, REQUEST_PATH_LEDGER_BUDGET } from '../pipeline/ledger-client';
import type { PostDoc } from '../projections/post-doc';
import { ContentJobCommands, type JobEntries } from '../commands/content-job-commands';
import { PostCommands } from '../commands/post-commands';
import { IntakeError } from '../request/intake-error';
import { findJob } from '../queries/jobs';
import { findPost, findPostsByLinks } from '../queries/posts';
import type { RefreshPostsBody } from './refresh.dto';

interface Found {
  post: PostDoc;
  /** The link the client sent, or the post's link when it was named by id. */
  given: string;
}

interface Candidate extends Found {
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
    private readonly jobs: ContentJobCommands,
    private readonly posts: PostCommands,
    private readonly projections: ProjectionService,
    private readonly fundCheck: FundCheck,
    private readonly ledger: LedgerClient,
    private readonly teams: TeamQueue,
  ) {}

  refresh(requester: RefreshRequester, body: RefreshPostsBody): Promise<ContentJob> {
    const requested = (body.postIds?.length ?? 0) + (body.links?.length ?? 0);
    if (requested === 0) throw new IntakeError('invalid_request', 'give postIds or links (at least one)');
    if (requested > 100) throw new IntakeError('invalid_request', 'at most 100 posts per refresh call');
    return this.teams.run(requester.teamId, () => this.refreshNow(requester, body, requested));
  }

  /**
   * The steps of a refresh, in order (the add path's where they are the same: fund check, reserve
   * and create, queue); every append is recorded on one write fence. Never a replay, never resumed
   * here (QueuingJobResumer runs finishInterruptedRefresh).
   */
  private async refreshNow(
    requester: RefreshRequester,
    body: RefreshPostsBody,
    requested: number,
  ): Promise<ContentJob> {
    const teamId = requester.teamId;
    const options = contentOptions(body);
    const now = this.clock.now();
    const entries: JobEntries = { accepted: [], skipped: [], rejected: [] };
    // The posts named, on the target team (others are not found), then the refresh rules per post.
    const found = await this.findPosts(teamId, body, entries);
    const candidates = applyRefreshRules(found, requester.plan, now, entries);
    // Fund check: 402 when every refresh is paid and not one can be funded; nothing is written yet,
    // so a broker that cannot carry the reservations refuses the request here (503).
    await this.checkFunding(teamId, candidates, options);
    if (candidates.some((c) => c.paid)) await this.ledger.checkReachable();
    const job = refreshJobRequest(
      {
        jobId: this.ids.next('cj_'),
        teamId,
        addedBy: { id: requester.keyId, name: requester.keyName },
        now,
        options,
      },
      { requested, refreshPosts: candidates.map((c) => ({ postId: c.post.id, link: c.given })) },
    );
    const run = {
      requester,
      job,
      fence: new WriteFence(),
      ctx: requesterContext(requester),
    };
    // Open the job, then reserve (paid ones) and ask each post for a new data version.
    run.fence.record(await this.jobs.handle(job.jobId, { type: 'OpenJob', data: job }, run.ctx));
    await this.requestRefreshes(run, candidates, entries);
    // Queue, and answer 202 once the read models have every write of the request.
    const queued = run.fence.record(
      await this.jobs.queue(job.jobId, entries, this.clock.now().toISOString(), run.ctx),
    );
    await run.fence.waitForReadModels(this.projections);
    const answered = (await findJob(this.store, teamId, job.jobId, this.clock.now())) ?? queued.job;
    await this.jobs.settleIfNothingAccepted(answered, this.clock.now().toISOString(), run.ctx);
    return answered;
  }

  /**
   * The posts the request names, on the target team. Another team's post is "not found", exactly
   * like an unknown id; entries name the post by its URL (`link`) and id (`postId`), however the
   * request named it (an id is answered with the post's link).
   */
  private async findPosts(teamId: string, body: RefreshPostsBody, entries: JobEntries): Promise<Found[]> {
    const found: Found[] = [];
    for (const postId of body.postIds ?? []) {
      const post = await findPost(this.store, postId);
      if (!post || post.teamId !== teamId) entries.rejected.push({ link: postId, reason: 'not_found' });
      else found.push({ post, given: post.link });
    }
    const links = (body.links ?? []).map((link) => ({ link, c: classifyPostLink(link) }));
    const onTeam = await findPostsByLinks(
      this.store,
      teamId,
      links.flatMap(({ c }) => (c.ok ? [c.normalized] : [])),
    );
    for (const { link, c } of links) {
      if (!c.ok) entries.rejected.push({ link, reason: c.reason });
      else if (!onTeam.has(c.normalized)) entries.rejected.push({ link, reason: 'not_on_team' });
      else found.push({ post: onTeam.get(c.normalized)!, given: link });
    }
    return found;
  }

  /** When every post to refresh is paid and not even one can be funded: 402, nothing created. */
  private async checkFunding(
    teamId: string,
    candidates: Candidate[],
    options: ContentOptions,
  ): Promise<void> {
    const paid = candidates.filter((c) => c.paid).length;
    if (paid === 0 || paid < candidates.length) return;
    if (await this.fundCheck.canFundOne(teamId, options.source, options.perPost)) return;
    throw new IntakeError(
      'insufficient_credits',
      `insufficient credits: ${paid} refresh(es) at ${options.perPost} credit(s) each cannot be funded`,
    );
  }

  /** Each candidate in turn; once a reservation comes back unfunded, the paid ones left are `insufficient_credits`. */
  private async requestRefreshes(
    run: RefreshRun,
    candidates: Candidate[],
    entries: JobEntries,
  ): Promise<void> {
    let exhausted = false;
    for (const c of candidates) {
      if (c.paid && exhausted) {
        entries.rejected.push({ link: c.given, reason: 'insufficient_credits' });
        continue;
      }
      const reservationId = c.paid ? reservationIdFor(run.job.jobId, c.post.id) : null;
      const reservation: ReservationSpec | null = reservationId
        ? {
            teamId: run.job.teamId,
            reservationId,
            unitCost: run.job.credits.perPost,
            source: run.job.credits.source,
            correlationId: run.requester.correlationId,
            budget: REQUEST_PATH_LEDGER_BUDGET,
          }
        : null;
      const done = await withReservation(this.ledger, reservation, () =>
        this.requestRefresh(run, c, reservationId),
      );
      if (done.outcome === 'unfunded') {
        exhausted = true;
        entries.rejected.push({ link: c.given, reason: 'insufficient_credits' });
      } else if (done.outcome === 'done') entries.accepted.push(done.value);
      else if (done.error instanceof ContentError && done.error.code === 'post_in_flight')
        entries.skipped.push({ link: c.given, reason: 'already_processing', postId: c.post.id });
      else {
        this.logger.warn(`refreshing ${c.post.id} failed: ${String(done.error)}`);
        entries.rejected.push({ link: c.given, reason: 'create_failed' });
      }
    }
  }

  /** Asks the post for a new data version; its accepted entry. */
  private async requestRefresh(
    run: RefreshRun,
    c: Candidate,
    reservationId: string | null,
  ): Promise<AcceptedEntry> {
    const { credits, capture } = run.job;
    const creditSource = c.paid ? 'credit' : 'included';
    const unitCost = c.paid ? credits.perPost : 0;
    const outcome = run.fence.record(
      await this.posts.handle(
        c.post.id,
        {
          type: 'RequestRefresh',
          data: {
            jobId: run.job.jobId,
            reservationId,
            creditSource,
            unitCost,
            fullRead: capture.fullRead,
            commentLimit: capture.commentLimit,
            requestedAt: this.clock.now().toISOString(),
          },
        },
        run.ctx,
      ),
    );
    // RequestRefresh decides exactly one PostRefreshRequested (or throws): its version is the new one.
    const [requested] = outcome.events;
    if (requested?.type !== 'PostRefreshRequested')
      throw new Error(`RequestRefresh on ${c.post.id} decided ${requested?.type ?? 'nothing'}`);
    const { dataVersion } = requested.data;
    return {
      link: c.given,
      postId: c.post.id,
      postStatus: 'fetching',
      creditSource,
      creditCost: unitCost,
      dataVersion,
    };
  }
}

/** One refresh request on its way: who asks, the job, its write fence and the command context. */
interface RefreshRun {
  requester: RefreshRequester;
  job: RefreshJobRequest;
  fence: WriteFence;
  ctx: { correlationId: string; teamId: string };
}

/**
 * The refresh rules for each post found, once per post: a post named twice is
 * `duplicate_in_batch`; a post the rules skip is skipped (with `nextRefreshAt` when known).
 */
function applyRefreshRules(found: Found[], plan: PlanId, now: Date, entries: JobEntries): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const { post, given } of found) {
    if (seen.has(post.id)) {
      entries.skipped.push({ link: given, reason: 'duplicate_in_batch', postId: post.id });
      continue;
    }
    seen.add(post.id);
    const decision = decideRefresh(post, plan, now);
    if (decision.kind !== 'skip') candidates.push({ post, given, paid: decision.kind === 'credit' });
    else
      entries.skipped.push({
        link: given,
        reason: decision.reason,
        postId: post.id,
        ...(decision.nextRefreshAt ? { nextRefreshAt: decision.nextRefreshAt } : {}),
      });
  }
  return candidates;
}
