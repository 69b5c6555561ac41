import { Inject, Injectable } from '@nestjs/common';
import { CONTENT_PROVIDER, type ContentProvider } from '@analyst/contracts';
import {
  jobExpiresAt,
  postsJobRequest,
  type ContentJob,
  type JobRequest,
  type PostsJobRequest,
} from '@analyst/domain-content';
import { CLOCK, ID_GENERATOR, ProjectionService, type Clock, type IdGenerator } from '@analyst/platform';
import { ContentJobCommands, type JobEntries } from '../commands/content-job-commands';
import { RequestClaimCommands, type RequestIdentity } from '../commands/request-claim-commands';
import { REQUEST_PATH_LEDGER_BUDGET } from '../pipeline/ledger-client';
import type { AddOutcome } from '../request/add-outcome';
import { classifyPostLinks, type ClassifiedLinks } from '../steps/classify-links';
import { CollectionsResolver } from '../steps/collections-resolver';
import { contentOptions, type ContentOptions } from '../request/content-options';
import { Dedupe } from '../steps/dedupe';
import { FundCheck } from '../steps/fund-check';
import { requestFingerprint } from '../steps/request-fingerprint';
import { jobRequester, requesterContext, type Requester } from '../request/requester';
import { ReserveAndCreate } from '../steps/reserve-and-create';
import { TeamQueue } from '../request/team-queue';
import { WriteFence } from '../request/write-fence';
import type { AddPostsBody } from './add-posts.body';

/**
 * POST /content/posts/add: the spec's eight steps, and the three ways through them, each listing
 * the steps it runs. `add` is a fresh request (1 to 8); at step 4 it becomes a `replay` when the
 * body or Idempotency-Key was seen: the earlier job's answer, or steps 5, 7 and 8 to finish it if
 * it is still `queuing`. `resume` finishes a job left in `queuing` with nobody waiting (steps 1, 5,
 * 7 and 8 over the links it recorded). Every step is its own file in `steps/` (or a command
 * handler's method); none calls back here.
 *
 * What must be unique across replicas (one job per request, one post per link) is decided by claim
 * streams in the event store; the in-process team queue only keeps one replica's own requests of a
 * team in order. Every step is idempotent, so a replay or resume is safe while the first request
 * is, after all, still running on another replica.
 */
@Injectable()
export class AddPostsHandler {
  constructor(
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONTENT_PROVIDER) private readonly provider: ContentProvider,
    private readonly teams: TeamQueue,
    private readonly collections: CollectionsResolver,
    private readonly requestClaims: RequestClaimCommands,
    private readonly dedupe: Dedupe,
    private readonly fundCheck: FundCheck,
    private readonly reserveAndCreate: ReserveAndCreate,
    private readonly jobs: ContentJobCommands,
    private readonly projections: ProjectionService,
  ) {}

  /** A request from the route: steps 1 to 8 (`fresh`), or a `replay` from step 4 on. */
  add(requester: Requester, body: AddPostsBody, idempotencyKey: string | null = null): Promise<AddOutcome> {
    return this.teams.run(requester.teamId, () => this.fresh(requester, body, idempotencyKey));
  }

  private async fresh(
    requester: Requester,
    body: AddPostsBody,
    idempotencyKey: string | null,
  ): Promise<AddOutcome> {
    const teamId = requester.teamId;
    const ctx = requesterContext(requester);
    const options = contentOptions(body);
    const now = this.clock.now();
    // 1. Validate: classify every link by host. (The body's shape was checked by the DTO: 400, nothing written.)
    const links = classifyPostLinks(body.links, this.provider);
    // 2. Target team: the gateway resolved it (404 for a team the key may not target, 403 without the API).
    // 3. Collections, before any credit is touched.
    const collections = await this.collections.resolve(teamId, body.collections ?? []);
    // 4. Replay check: the request's claim names its job, whichever replica saw it first.
    const identity = requestIdentity(teamId, body, options, idempotencyKey);
    const known = await this.requestClaims.find(identity);
    const earlier = known === null ? null : await this.jobs.job(known);
    if (earlier) return this.replay(requester, earlier, links);
    // 5. Dedupe against the team's posts (the claims in step 7 decide what the read model has not seen).
    const deduped = await this.dedupe.run(teamId, known, links.candidates);
    // 6. Fund check: 402 when not one new post can be paid for, 503 when the ledger is out of reach.
    await this.fundCheck.run(teamId, options, deduped.fresh.length);
    // 7. Reserve and create. First the request's claim: it decides between replicas that passed the
    // checks above at the same moment; the loser replays the winner's job.
    const jobId = await this.requestClaims.claim(
      identity,
      known ?? this.ids.next('cj_'),
      jobExpiresAt(now),
      ctx,
    );
    const winner = jobId === known ? null : await this.jobs.job(jobId);
    if (winner) return this.replay(requester, winner, links);
    const fence = new WriteFence();
    await this.collections.create(requester, collections.toCreate, fence);
    const job = postsJobRequest(
      { jobId, teamId, addedBy: { id: requester.keyId, name: requester.keyName }, now, options },
      { fingerprint: identity.fingerprint, collections: collections.collections, links: body.links },
    );
    // A retry of this request on another replica opened the job a moment ago: finish it together.
    if (!(await this.jobs.open(job, ctx)))
      return this.replay(requester, (await this.jobs.job(jobId))!, links);
    const entries = await this.reserveAndCreate.run(
      requester,
      job,
      deduped,
      fence,
      REQUEST_PATH_LEDGER_BUDGET,
    );
    // 8. Queue and answer 202.
    return {
      job: await this.queueAndAnswer(requester, job, withRejected(links, entries), fence),
      replayed: false,
    };
  }

  /**
   * An earlier request of this body or key opened the job. Past `queuing`: its answer as it stands
   * (200, `meta.replayed`), nothing runs again. Still `queuing` (that request was interrupted):
   * this request finishes it under the same job id, claims and reservation ids.
   */
  private async replay(requester: Requester, job: ContentJob, links: ClassifiedLinks): Promise<AddOutcome> {
    if (job.status !== 'queuing') return { job, replayed: true };
    const fence = new WriteFence();
    // 5. Dedupe: this job's own posts go on to their claims, which find them.
    const deduped = await this.dedupe.run(job.teamId, job.jobId, links.candidates);
    // 7. Reserve and create.
    const entries = await this.reserveAndCreate.run(
      requester,
      job,
      deduped,
      fence,
      REQUEST_PATH_LEDGER_BUDGET,
    );
    // 8. Queue and answer.
    return {
      job: await this.queueAndAnswer(requester, job, withRejected(links, entries), fence),
      replayed: true,
    };
  }

  /**
   * A posts job left in `queuing` (its request was interrupted between claiming and queuing),
   * finished by QueuingJobResumer. Nobody waits on an answer: the ledger client's own timeouts, and
   * no wait for the read models.
   */
  resume(job: ContentJob & PostsJobRequest): Promise<AddOutcome> {
    return this.teams.run(job.teamId, async () => {
      const requester = jobRequester(job, `resume-${job.jobId}`);
      const ctx = requesterContext(requester);
      // 1. Validate the links the job recorded.
      const links = classifyPostLinks(job.links ?? [], this.provider);
      // 5. Dedupe: this job's own posts go on to their claims, which find them.
      const deduped = await this.dedupe.run(job.teamId, job.jobId, links.candidates);
      // 7. Reserve and create, under the job's claims and reservation ids.
      const entries = await this.reserveAndCreate.run(requester, job, deduped);
      // 8. Queue.
      const { job: queued } = await this.jobs.queue(job.jobId, withRejected(links, entries), this.now(), ctx);
      await this.jobs.settleIfNothingAccepted(queued, this.now(), ctx);
      return { job: queued, replayed: true };
    });
  }

  /** Step 8 with a client waiting: queue, then answer once the read models have every write of the request. */
  private async queueAndAnswer(
    requester: Requester,
    job: JobRequest,
    entries: JobEntries,
    fence: WriteFence,
  ): Promise<ContentJob> {
    const ctx = requesterContext(requester);
    const { job: queued } = fence.record(await this.jobs.queue(job.jobId, entries, this.now(), ctx));
    await fence.waitForReadModels(this.projections);
    await this.jobs.settleIfNothingAccepted(queued, this.now(), ctx);
    return queued;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

/** Who the request is for step 4: its team, the fingerprint of its body as normalized, its Idempotency-Key. */
function requestIdentity(
  teamId: string,
  body: AddPostsBody,
  options: ContentOptions,
  idempotencyKey: string | null,
): RequestIdentity {
  const fingerprint = requestFingerprint({
    kind: 'posts',
    teamId,
    links: body.links,
    collections: body.collections ?? [],
    tags: options.tags,
    credits: { source: options.source },
    capture: { fullRead: options.fullRead, commentLimit: options.commentLimit },
  });
  return { teamId, fingerprint, idempotencyKey };
}

/** The job's entries: the links step 1 rejected first, then what steps 5 and 7 decided. */
function withRejected(links: ClassifiedLinks, entries: JobEntries): JobEntries {
  return { ...entries, rejected: [...links.rejected, ...entries.rejected] };
}
