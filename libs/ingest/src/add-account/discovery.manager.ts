import { Inject, Injectable, Optional } from '@nestjs/common';
import { CONTENT_PROVIDER, type ContentProvider, type DiscoveredPost } from '@analyst/contracts';
import { classifyPostLink } from '@analyst/links';
import {
  accountQuery,
  isTerminalJob,
  type AppliedAccountFilters,
  type ContentJob,
  type ContentJobOpened,
} from '@analyst/domain-content';
import {
  CLOCK,
  EventConsumer,
  MESSAGE_BUS,
  causedBy,
  type Clock,
  type MessageBus,
  type Recorded,
} from '@analyst/platform';
import { ContentJobCommands } from '../commands/content-job-commands';
import type { LinkCandidate } from '../steps/classify-links';
import { Dedupe } from '../steps/dedupe';
import { FundCheck } from '../steps/fund-check';
import { ReserveAndCreate } from '../steps/reserve-and-create';
import { jobRequester, type Requester } from '../request/requester';
import { TeamQueue } from '../request/team-queue';
import { DISCOVERY_GROUP, INGEST_OPTIONS, type IngestOptions } from '../ingest.tokens';
import { narrowDiscovered } from './narrow-discovered';
import { IngestMetrics } from '../metrics/ingest-metrics';
import { countedSubscription } from '../pipeline/counted-subscription';
import { retryAfterWaits } from '../pipeline/retry-after-waits';

/**
 * The account worker: on `ContentJobOpened` of an account job it pulls the account's recent posts
 * (retrying 3 times with backoff) within the window recorded on the job, so the `until` it applies is
 * the one the job echoes, not the worker's clock. It narrows them, then completes a dry run or a
 * no-match, fails (provider down, or nothing fundable: no charge), or adds the posts through the
 * steps of POST /content/posts/add (dedupe, fund check, reserve and create, queue) and leaves the job
 * `syncing`. Every step re-reads the job, so a redelivered
 * event or a restart continues where it stopped (the provider is deterministic per account and query).
 */
@Injectable()
export class DiscoveryManager extends EventConsumer<ContentJobOpened> {
  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(CONTENT_PROVIDER) private readonly provider: ContentProvider,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
    private readonly jobs: ContentJobCommands,
    private readonly dedupe: Dedupe,
    private readonly fundCheck: FundCheck,
    private readonly reserveAndCreate: ReserveAndCreate,
    private readonly teams: TeamQueue,
    @Optional() metrics?: IngestMetrics,
  ) {
    super(
      bus,
      countedSubscription(metrics, 'AccountDiscovery', DISCOVERY_GROUP, 'contentjob', ['ContentJobOpened']),
    );
  }

  protected async on(event: Recorded<ContentJobOpened>): Promise<void> {
    if (event.data.kind !== 'account') return;
    const ctx = causedBy(event, event.data.teamId);
    const { state } = await this.jobs.state(event.data.jobId);
    // The stream is an account job's (its opening event said so); only one still discovering has work left.
    if (state.status !== 'discovering' || state.kind !== 'account') return;
    const job = state;
    const filters = job.filters;
    const found = await this.discover(job.account.url, filters, job.createdAt);
    if (found === 'unavailable') {
      await this.jobs.fail(
        job.jobId,
        {
          code: 'provider_unavailable',
          message: `the account's platform could not be reached after ${this.options.discoveryBackoffMs.length} retries; nothing was charged`,
        },
        this.now(),
        ctx,
      );
      return;
    }
    const discovered = narrowDiscovered(found, filters).map((p) => ({
      link: p.link,
      postedAt: p.postedAt,
      postType: p.postType,
      engagement: { views: p.engagement.views, likes: p.engagement.likes },
    }));
    const recorded = await this.jobs.handle(
      job.jobId,
      { type: 'RecordDiscovery', data: { discovered, at: this.now() } },
      ctx,
    );
    if (isTerminalJob((recorded.state as ContentJob).status)) return; // dry run, or nothing matched
    // No plan: adding posts does not depend on it (the gateway checked the target's plan when the job was asked for).
    const requester = jobRequester(job, event.metadata.correlationId);
    await this.teams.run(job.teamId, () =>
      this.addPosts(
        requester,
        job,
        discovered.map((d) => d.link),
        ctx,
      ),
    );
  }

  private async addPosts(
    requester: Requester,
    job: ContentJob,
    links: string[],
    ctx: { correlationId: string; causationId: string; teamId: string },
  ): Promise<void> {
    const candidates: LinkCandidate[] = [];
    for (const link of links) {
      const c = classifyPostLink(link);
      if (c.ok) candidates.push({ link, normalized: c.normalized, platform: c.platform });
    }
    const deduped = await this.dedupe.run(job.teamId, job.jobId, candidates);
    if (
      deduped.resumed === 0 &&
      deduped.fresh.length > 0 &&
      !(await this.fundCheck.canFundOne(job.teamId, job.credits.source, job.credits.perPost))
    ) {
      await this.jobs.fail(
        job.jobId,
        {
          code: 'insufficient_credits',
          message: `none of the ${deduped.fresh.length} discovered post(s) can be funded; nothing was added or charged`,
        },
        this.now(),
        ctx,
      );
      return;
    }
    const entries = await this.reserveAndCreate.run(requester, job, deduped);
    await this.jobs.queue(job.jobId, entries, this.now(), ctx);
    await this.jobs.settleIfNothingAccepted(
      { jobId: job.jobId, accepted: entries.accepted },
      this.now(),
      ctx,
    );
  }

  /** The first try plus one retry per backoff step; 'unavailable' when every attempt failed. */
  private discover(
    url: string,
    filters: AppliedAccountFilters,
    createdAt: string,
  ): Promise<DiscoveredPost[] | 'unavailable'> {
    return retryAfterWaits(
      this.options.discoveryBackoffMs,
      () => this.provider.discoverAccount(url, accountQuery(filters, createdAt)),
      () => 'unavailable' as const,
      (error, attempt) =>
        this.logger.warn(`discovering ${url} failed (attempt ${attempt + 1}): ${String(error)}`),
    );
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
