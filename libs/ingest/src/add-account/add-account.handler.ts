import { Inject, Injectable } from '@nestjs/common';
import { CONTENT_PROVIDER, type ContentProvider } from '@analyst/contracts';
import { classifyAccountLink } from '@analyst/links';
import {
  accountJobRequest,
  jobExpiresAt,
  applyAccountFilters,
  requestedAccountFilters,
  type ContentJob,
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
import type { AddOutcome } from '../request/add-outcome';
import { contentOptions } from '../request/content-options';
import { CollectionsResolver } from '../steps/collections-resolver';
import { requestFingerprint } from '../steps/request-fingerprint';
import { requesterContext, type Requester } from '../request/requester';
import { TeamQueue } from '../request/team-queue';
import { WriteFence } from '../request/write-fence';
import { ContentJobCommands } from '../commands/content-job-commands';
import { RequestClaimCommands } from '../commands/request-claim-commands';
import { IntakeError } from '../request/intake-error';
import { findJob } from '../queries/jobs';
import type { AddAccountBody } from './add-account.dto';

/**
 * POST /content/accounts/add, the request part: validation, collections, replay check, then the
 * account is saved on the team as a job in `discovering`; the discovery worker does the rest.
 */
@Injectable()
export class AddAccountHandler {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly jobs: ContentJobCommands,
    private readonly projections: ProjectionService,
    private readonly collections: CollectionsResolver,
    private readonly teams: TeamQueue,
    private readonly requestClaims: RequestClaimCommands,
    @Inject(CONTENT_PROVIDER) private readonly provider: ContentProvider,
  ) {}

  add(requester: Requester, body: AddAccountBody, idempotencyKey: string | null = null): Promise<AddOutcome> {
    return this.teams.run(requester.teamId, () => this.addNow(requester, body, idempotencyKey));
  }

  private async addNow(
    requester: Requester,
    body: AddAccountBody,
    idempotencyKey: string | null,
  ): Promise<AddOutcome> {
    const teamId = requester.teamId;
    // 1. Validate: the account URL by host, then the filters. (The body's shape was checked by the DTO.)
    const account = classifyAccountLink(body.account.url);
    if (!account.ok) {
      const why =
        account.reason === 'invalid_url'
          ? 'is not a valid URL'
          : 'is not a supported account (YouTube, TikTok, Instagram, Facebook pages, X, Threads)';
      throw new IntakeError(account.reason, `account.url ${why}`);
    }
    if (this.provider.supports?.(account.platform) === false) {
      throw new IntakeError(
        'unsupported_platform',
        `account.url is on ${account.platform}, which this deployment has no content provider for (ANALYST_PROVIDERS)`,
      );
    }
    const options = contentOptions(body);
    // The time the request is accepted: `createdAt`, and the applied `until` when none is given.
    const now = this.clock.now();
    const filters = applyAccountFilters(body.filters, now);
    const dryRun = body.dryRun === true;
    // 2. Target team: the gateway resolved it. 3. Collections, before anything is written.
    const resolved = await this.collections.resolve(teamId, body.collections ?? []);
    const fingerprint = requestFingerprint({
      kind: 'account',
      teamId,
      account: account.normalized,
      // As given, not as applied: a defaulted `until` is the acceptance time, which a replay must not change.
      filters: requestedAccountFilters(filters, body.filters),
      dryRun,
      collections: body.collections ?? [],
      tags: options.tags,
      credits: { source: options.source },
      capture: { fullRead: options.fullRead, commentLimit: options.commentLimit },
    });
    // 4. Replay check and claim: a replay answers with the first job as it stands, including the `until`
    // applied back then. The request's claim in the event store names that job, whichever replica saw
    // the request first.
    const identity = { teamId, fingerprint, idempotencyKey };
    const known = await this.requestClaims.find(identity);
    const jobId = await this.requestClaims.claim(
      identity,
      known ?? this.ids.next('cj_'),
      jobExpiresAt(now),
      requesterContext(requester),
    );
    const earlier = await this.jobs.job(jobId);
    if (earlier) return { job: (await findJob(this.store, teamId, jobId, now)) ?? earlier, replayed: true };
    // Save the account on the team: its job opens `discovering`, and DiscoveryManager runs the add
    // path's steps 5 to 8 on what it finds. A dry run adds nothing, so it creates no collection either.
    const fence = new WriteFence();
    if (!dryRun) await this.collections.create(requester, resolved.toCreate, fence);
    const job = accountJobRequest(
      { jobId, teamId, addedBy: { id: requester.keyId, name: requester.keyName }, now, options },
      {
        fingerprint,
        collections: resolved.collections,
        account: { url: account.normalized, platform: account.platform },
        dryRun,
        filters,
      },
    );
    const opened = await this.jobs.open(job, requesterContext(requester));
    // The same request, retried on another replica, opened it a moment ago.
    if (!opened) return { job: (await this.jobs.job(jobId))!, replayed: true };
    fence.record(opened);
    // Respond 202 once the read models have the job.
    await fence.waitForReadModels(this.projections);
    // Answered from the state just written: the worker may already be past `discovering`.
    return { job: opened.state as ContentJob, replayed: false };
  }
}
