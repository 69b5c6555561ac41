import {
  JOB_POLL_AFTER_MS,
  MIN_REFRESH_INTERVAL_HOURS,
  appliedUntil,
  isTerminalJob,
  jobCounts,
  jobCredits,
  type ContentJob,
  type JobCredits,
} from '@analyst/domain-content';
import { type PostStatus } from '@analyst/contracts';
import type { PostDoc } from '../projections/post-doc';

/** A member's status for the data version the job asked for. */
export function memberStatus(
  job: ContentJob,
  postId: string,
  dataVersion: number,
  post: PostDoc | undefined,
): PostStatus {
  const outcome = job.outcomes[postId]?.status ?? post?.versionOutcomes[String(dataVersion)]?.status;
  if (outcome) return outcome;
  if (post && post.dataVersion === dataVersion) return post.status;
  return 'fetching';
}

/** The Content job resource as the spec shows it. */
export function renderJob(job: ContentJob, posts: Map<string, PostDoc>): Record<string, unknown> {
  const refresh = job.kind === 'refresh';
  const credits = jobCredits(job);
  const counts = jobCounts(job);
  const view: Record<string, unknown> = { ...jobHead(job), expiresAt: job.expiresAt };
  if (job.kind === 'account') {
    view.account = job.account;
    view.dryRun = job.dryRun;
    // Jobs opened before `until` was recorded were bounded by their acceptance time: echo that.
    view.filters = { ...job.filters, until: appliedUntil(job.filters, job.createdAt) };
  }
  view.collections = job.collections;
  view.tags = job.tags;
  view.credits = {
    ...creditsView(credits),
    ...(job.dryRun ? { estimated: credits.estimated ?? 0 } : {}),
    ...(refresh ? { included: credits.included ?? 0 } : {}),
  };
  const { discovered, ...rest } = counts;
  view.counts = job.kind === 'account' ? { ...rest, discovered } : rest;
  view.accepted = job.accepted.map((a) => {
    const entry: Record<string, unknown> = {
      link: a.link,
      postId: a.postId,
      postStatus: memberStatus(job, a.postId, a.dataVersion, posts.get(a.postId)),
    };
    if (refresh)
      Object.assign(entry, {
        creditSource: a.creditSource,
        creditCost: a.creditCost,
        dataVersion: a.dataVersion,
      });
    return entry;
  });
  view.skipped = job.skipped;
  view.rejected = job.rejected;
  if (job.dryRun) view.discovered = job.discovered ?? [];
  if (refresh) view.minRefreshIntervalHours = MIN_REFRESH_INTERVAL_HOURS;
  if (job.error) view.error = job.error;
  view.pollAfterMs = JOB_POLL_AFTER_MS;
  return view;
}

export function jobMeta(job: ContentJob, replayed = false): Record<string, unknown> {
  return { status: job.status, pollAfterMs: JOB_POLL_AFTER_MS, replayed };
}

/** `Retry-After` while the job is not terminal. */
export function jobHeaders(job: ContentJob): Record<string, string> {
  return isTerminalJob(job.status) ? {} : { 'Retry-After': String(JOB_POLL_AFTER_MS / 1000) };
}

/** What every job shows first: its id, kind, status and times. */
function jobHead(job: ContentJob): Record<string, unknown> {
  return {
    id: job.jobId,
    kind: job.kind,
    status: job.status,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    completedAt: job.completedAt,
  };
}

/** The credits every job shows (a dry run adds `estimated`, a refresh `included`). */
function creditsView(credits: JobCredits): Record<string, unknown> {
  return {
    source: credits.source,
    perPost: credits.perPost,
    reserved: credits.reserved,
    settled: credits.settled,
    refunded: credits.refunded,
  };
}

/** A row of GET /content/jobs. */
export function jobSummary(job: ContentJob): Record<string, unknown> {
  const { discovered, ...counts } = jobCounts(job);
  const credits = jobCredits(job);
  return {
    ...jobHead(job),
    counts: job.kind === 'account' ? { ...counts, discovered } : counts,
    credits: creditsView(credits),
    ...(job.error ? { error: job.error } : {}),
  };
}
