import { Inject, Injectable } from '@nestjs/common';
import { ApiError, type LinkClassification } from '@analyst/contracts';
import { classifyPostLink } from '@analyst/links';
import {
  JOB_RETENTION_DAYS,
  contentJobDecider,
  contentJobStream,
  normalizeTags,
  type ContentJob,
  type JobCollection,
  type JobRequest,
  type RejectedEntry,
} from '@analyst/domain-content';
import { CLOCK, CommandRunner, ID_GENERATOR, ProjectionService, READ_STORE, type Clock, type IdGenerator, type ReadStore } from '@analyst/platform';
import { settleIfNothingAccepted } from '../jobs/settle-if-nothing-accepted';
import { findJob, findJobByFingerprint } from '../queries/jobs';
import { CollectionsResolver } from './collections-resolver';
import type { AddPostsBody, ContentOptionsDto } from './content-request.dto';
import { PostIntake, type LinkCandidate } from './post-intake';
import { requestFingerprint } from './request-fingerprint';
import type { Requester } from './requester';
import { TeamQueue } from './team-queue';

export interface AddOutcome {
  job: ContentJob;
  replayed: boolean;
}

/** The options every content route shares, normalized once. */
export interface ContentOptions {
  tags: string[];
  source: 'auto' | 'adhoc';
  fullRead: boolean;
  commentLimit: number | null;
  perPost: number;
}

export function contentOptions(body: ContentOptionsDto): ContentOptions {
  const fullRead = body.capture?.fullRead === true;
  return {
    tags: normalizeTags(body.tags ?? []),
    source: body.credits?.source ?? 'auto',
    fullRead,
    // commentLimit is ignored with fullRead
    commentLimit: fullRead ? null : (body.capture?.commentLimit ?? null),
    perPost: fullRead ? 5 : 1,
  };
}

export function expiresAt(createdAt: Date): string {
  return new Date(createdAt.getTime() + JOB_RETENTION_DAYS * 86_400_000).toISOString();
}

/**
 * POST /content/posts/add, the spec's eight steps in order, one request of a team at a time.
 */
@Injectable()
export class AddPostsHandler {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionService,
    private readonly collections: CollectionsResolver,
    private readonly intake: PostIntake,
    private readonly teams: TeamQueue,
  ) {}

  add(requester: Requester, body: AddPostsBody): Promise<AddOutcome> {
    return this.teams.run(requester.teamId, () => this.addNow(requester, body));
  }

  private async addNow(requester: Requester, body: AddPostsBody): Promise<AddOutcome> {
    const teamId = requester.teamId;
    const options = contentOptions(body);
    // 1. Validate: classify every link by host. (The body's shape was checked by the DTO: 400, nothing written.)
    const rejectedAtValidation: RejectedEntry[] = [];
    const candidates: LinkCandidate[] = [];
    for (const link of body.links) {
      const c: LinkClassification = classifyPostLink(link);
      if (c.ok) candidates.push({ link, normalized: c.normalized, platform: c.platform });
      else rejectedAtValidation.push({ link, reason: c.reason });
    }
    // 2. Target team: the gateway resolved it (404 for a team the key may not target, 403 without the API).
    // 3. Collections, before any credit is touched.
    const resolved = await this.collections.resolve(teamId, body.collections ?? []);
    // 4. Replay check.
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
    const earlier = await findJobByFingerprint(this.store, teamId, fingerprint, now);
    if (earlier && earlier.status !== 'queuing') return { job: earlier, replayed: true };
    // A job still `queuing` was interrupted (crash, timeout): the retried request finishes it.
    const resuming = earlier ?? null;
    // 5. Dedupe.
    const deduped = await this.intake.dedupe(teamId, resuming?.jobId ?? null, candidates);
    // 6. Fund check: when not even one post can be paid for, 402 and nothing is created.
    if (!resuming && deduped.fresh.length > 0 && !(await this.intake.canFundOne(teamId, options.source, options.perPost))) {
      throw new ApiError(402, `insufficient credits: ${deduped.fresh.length} post(s) at ${options.perPost} credit(s) each cannot be funded`, 'insufficient_credits');
    }
    // 7. Reserve and create, link by link.
    let position = await this.collections.create(requester, resuming ? [] : resolved.toCreate);
    const job: JobRequest = resuming ?? this.jobRequest(requester, fingerprint, resolved.collections, options, body.links.length, now);
    if (!resuming) {
      const opened = await this.runner.run(contentJobStream(job.jobId), contentJobDecider, { type: 'OpenJob', request: job }, this.ctx(requester));
      position = Math.max(position, opened.position);
    }
    const collectionIds = job.collections.map((c) => c.id);
    position = Math.max(position, await this.intake.tagPresent(requester, deduped.present, collectionIds, job.tags));
    const created = await this.intake.reserveAndCreate(requester, job, deduped.fresh);
    position = Math.max(position, created.position);
    // 8. Queue: accepted, skipped and rejected are final from here.
    const queued = await this.runner.run(
      contentJobStream(job.jobId),
      contentJobDecider,
      {
        type: 'QueueJob',
        accepted: [...deduped.resumed.map((a) => ({ ...a, creditCost: job.credits.perPost })), ...created.accepted],
        skipped: deduped.skipped,
        rejected: [...rejectedAtValidation, ...created.rejected],
        at: this.clock.now().toISOString(),
      },
      this.ctx(requester),
    );
    await this.projections.waitFor(Math.max(position, queued.position));
    const answered = (await findJob(this.store, teamId, job.jobId, this.clock.now())) ?? (queued.state as ContentJob);
    await settleIfNothingAccepted(this.runner, answered, this.clock.now().toISOString(), this.ctx(requester));
    return { job: answered, replayed: false };
  }

  private jobRequest(requester: Requester, fingerprint: string, collections: JobCollection[], options: ContentOptions, requested: number, now: Date): JobRequest {
    return {
      jobId: this.ids.next('cj_'),
      teamId: requester.teamId,
      kind: 'posts',
      fingerprint,
      createdAt: now.toISOString(),
      expiresAt: expiresAt(now),
      collections,
      tags: options.tags,
      credits: { source: options.source, perPost: options.perPost },
      capture: { fullRead: options.fullRead, commentLimit: options.commentLimit },
      requested,
      addedBy: { id: requester.keyId, name: requester.keyName },
      account: null,
      dryRun: null,
      filters: null,
    };
  }

  private ctx(requester: Requester) {
    return { correlationId: requester.correlationId, teamId: requester.teamId };
  }
}
