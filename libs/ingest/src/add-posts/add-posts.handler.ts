import { Inject, Injectable } from '@nestjs/common';
import { CONTENT_PROVIDER, type ContentProvider, type LinkClassification } from '@analyst/contracts';
import { classifyPostLink } from '@analyst/links';
import {
  jobExpiresAt,
  postsJobRequest,
  type JobRequest,
  type ContentJob,
  type PostsJobRequest,
  type RejectedEntry,
} from '@analyst/domain-content';
import { CLOCK, ID_GENERATOR, ProjectionService, type Clock, type IdGenerator } from '@analyst/platform';
import { ContentJobCommands } from '../commands/content-job-commands';
import { REQUEST_PATH_LEDGER_BUDGET } from '../pipeline/ledger-client';
import { CollectionsResolver } from '../steps/collections-resolver';
import type { AddPostsBody } from './add-posts.body';
import type { LinkCandidate } from '../steps/link-candidate';
import { PostIntake, type DedupeResult } from '../steps/post-intake';
import { RequestClaims } from '../steps/request-claims';
import { requestFingerprint } from '../steps/request-fingerprint';
import { jobRequester, requesterContext, type Requester } from '../steps/requester';
import { TeamQueue } from '../steps/team-queue';
import { WriteFence } from '../steps/write-fence';
import { IntakeError } from '../steps/intake-error';
import type { AddOutcome } from '../steps/add-outcome';
import { contentOptions } from '../steps/content-options';

/**
 * POST /content/posts/add, the spec's eight steps in order. What must be unique across replicas
 * (one job per request, one post per link) is decided by claim streams in the event store; the
 * in-process team queue only keeps one replica's own requests of a team in order.
 */
@Injectable()
export class AddPostsHandler {
  constructor(
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly jobs: ContentJobCommands,
    private readonly projections: ProjectionService,
    private readonly collections: CollectionsResolver,
    private readonly intake: PostIntake,
    private readonly teams: TeamQueue,
    private readonly requests: RequestClaims,
    @Inject(CONTENT_PROVIDER) private readonly provider: ContentProvider,
  ) {}

  add(requester: Requester, body: AddPostsBody, idempotencyKey: string | null = null): Promise<AddOutcome> {
    return this.teams.run(requester.teamId, () => this.addNow(requester, body, idempotencyKey));
  }

  /**
   * Finishes a posts job left in `queuing` (its request was interrupted between claiming and
   * queuing): steps 5, 7 and 8 again over the links it recorded. Every step is idempotent, so this
   * is safe while the original request is, after all, still running on another replica.
   */
  resume(job: ContentJob & PostsJobRequest): Promise<AddOutcome> {
    const requester = jobRequester(job, `resume-${job.jobId}`);
    // Nobody waits on an HTTP answer here: no read-your-writes wait for the read models.
    return this.teams.run(job.teamId, () =>
      this.intakeAndQueue(requester, job, classify(job.links ?? [], this.provider), {
        replayed: true,
        answering: false,
      }),
    );
  }

  private async addNow(
    requester: Requester,
    body: AddPostsBody,
    idempotencyKey: string | null,
  ): Promise<AddOutcome> {
    const teamId = requester.teamId;
    const options = contentOptions(body);
    // 1. Validate: classify every link by host. (The body's shape was checked by the DTO: 400, nothing written.)
    const classified = classify(body.links, this.provider);
    // 2. Target team: the gateway resolved it (404 for a team the key may not target, 403 without the API).
    // 3. Collections, before any credit is touched.
    const resolved = await this.collections.resolve(teamId, body.collections ?? []);
    // 4. Replay check: the request's claim names its job, whichever replica saw it first.
    const fingerprint = requestFingerprint({
      kind: 'posts',
      teamId,
      links: body.links,
      collections: body.collections ?? [],
      tags: options.tags,
      credits: { source: options.source },
      capture: { fullRead: options.fullRead, commentLimit: options.commentLimit },
    });
    const now = this.clock.now();
    const identity = { teamId, fingerprint, idempotencyKey };
    const known = await this.requests.find(identity);
    const earlier = known === null ? null : await this.jobs.job(known);
    if (earlier) return this.joinEarlier(requester, earlier, classified);
    // 5. Dedupe, then 6. fund check: when not even one post can be paid for, 402 and nothing is written.
    const deduped = await this.intake.dedupe(teamId, known, classified.candidates);
    if (
      deduped.fresh.length > 0 &&
      !(await this.intake.canFundOne(teamId, options.source, options.perPost))
    ) {
      throw new IntakeError(
        'insufficient_credits',
        `insufficient credits: ${deduped.fresh.length} post(s) at ${options.perPost} credit(s) each cannot be funded`,
      );
    }
    // Nothing is written yet: a broker that cannot carry the reservations refuses the request here (503).
    if (deduped.fresh.length > 0) await this.intake.checkLedgerReachable();
    // The claim decides between replicas that passed the checks above at the same moment.
    const jobId = await this.requests.claim(
      identity,
      known ?? this.ids.next('cj_'),
      jobExpiresAt(now),
      requesterContext(requester),
    );
    const winner = jobId === known ? null : await this.jobs.job(jobId);
    if (winner) return this.joinEarlier(requester, winner, classified);
    // 7. Open the job under the claimed id, then reserve and create.
    const fence = new WriteFence();
    await this.collections.create(requester, resolved.toCreate, fence);
    const request = postsJobRequest(
      { jobId, teamId, addedBy: { id: requester.keyId, name: requester.keyName }, now, options },
      { fingerprint, collections: resolved.collections, links: body.links },
    );
    // A retry of this request on another replica opened it a moment ago: finish it together.
    if (!(await this.jobs.open(request, requesterContext(requester))))
      return this.joinEarlier(requester, (await this.jobs.job(jobId))!, classified);
    return this.intakeAndQueue(requester, request, classified, {
      replayed: false,
      answering: true,
      deduped,
      fence,
    });
  }

  /** Another request of this body or key opened the job: its answer (a replay), or finish it if it is still `queuing`. */
  private async joinEarlier(
    requester: Requester,
    job: ContentJob,
    classified: Classified,
  ): Promise<AddOutcome> {
    if (job.status !== 'queuing') return { job, replayed: true };
    return this.intakeAndQueue(requester, job, classified, { replayed: true, answering: true });
  }

  /**
   * Steps 5, 7 and 8 for an open job. `replayed`: another request opened it. `answering`: an HTTP
   * answer follows, so wait until the read models have every write of the request (`fence`).
   */
  private async intakeAndQueue(
    requester: Requester,
    job: JobRequest,
    classified: Classified,
    how: { replayed: boolean; answering: boolean; deduped?: DedupeResult; fence?: WriteFence },
  ): Promise<AddOutcome> {
    const fence = how.fence ?? new WriteFence();
    // 5. Dedupe against the team's posts (the claims in step 7 decide the links the read model has not seen).
    const dd = how.deduped ?? (await this.intake.dedupe(job.teamId, job.jobId, classified.candidates));
    // A client waits on this one: a broker gone mid-request is a 503 within seconds, not 30 s of ledger timeouts.
    const created = await this.intake.reserveAndCreate(
      requester,
      job,
      dd.fresh,
      fence,
      how.answering ? REQUEST_PATH_LEDGER_BUDGET : undefined,
    );
    await this.intake.tagPresent(
      requester,
      [...dd.present.map((p) => p.id), ...created.taken],
      job.collections.map((c) => c.id),
      job.tags,
      fence,
    );
    // 8. Queue: accepted, skipped and rejected are final from here.
    const queued = fence.record(
      await this.jobs.handle(
        job.jobId,
        {
          type: 'QueueJob',
          data: {
            accepted: created.accepted,
            skipped: [...dd.skipped, ...created.skipped],
            rejected: [...classified.rejected, ...created.rejected],
            at: this.clock.now().toISOString(),
          },
        },
        requesterContext(requester),
      ),
    );
    if (how.answering) await fence.waitForReadModels(this.projections);
    const answered = queued.state as ContentJob;
    await this.jobs.settleIfNothingAccepted(
      answered,
      this.clock.now().toISOString(),
      requesterContext(requester),
    );
    return { job: answered, replayed: how.replayed };
  }
}

interface Classified {
  candidates: LinkCandidate[];
  rejected: RejectedEntry[];
}

/**
 * Step 1: every link classified by host; the unsupported ones are rejected and never charged. A
 * platform this deployment has no provider for (ANALYST_PROVIDERS routes it to `none`) is unsupported too.
 */
function classify(links: string[], provider: ContentProvider): Classified {
  const result: Classified = { candidates: [], rejected: [] };
  for (const link of links) {
    const c: LinkClassification = classifyPostLink(link);
    if (c.ok && provider.supports?.(c.platform) === false)
      result.rejected.push({ link, reason: 'unsupported_platform' });
    else if (c.ok) result.candidates.push({ link, normalized: c.normalized, platform: c.platform });
    else result.rejected.push({ link, reason: c.reason });
  }
  return result;
}
