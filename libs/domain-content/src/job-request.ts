import type { CreditSource, Platform, CollectionType } from '@analyst/contracts';
import type { AppliedAccountFilters } from './account-filters';

export const JOB_RETENTION_DAYS = 30;

export interface JobCollection {
  id: string;
  name: string;
  type: CollectionType;
  created: boolean;
}

/** The fields every kind of job has. */
interface JobRequestBase {
  jobId: string;
  teamId: string;
  createdAt: string;
  expiresAt: string;
  collections: JobCollection[];
  tags: string[];
  credits: { source: CreditSource; perPost: number };
  capture: { fullRead: boolean; commentLimit: number | null };
  requested: number;
  addedBy: { id: string; name: string };
}

/**
 * Before the request was discriminated, every job carried the account fields, null on posts and
 * refresh jobs. Jobs opened since leave them out; the type keeps them optional so old events read.
 */
interface NoAccount {
  account?: null;
  dryRun?: null;
  filters?: null;
}

/** POST /content/posts/add. */
export interface PostsJobRequest extends JobRequestBase, NoAccount {
  kind: 'posts';
  /** Hash of the request for the replay check. */
  fingerprint: string;
  /**
   * The links as the client sent them, so a process manager can finish a job whose request was
   * interrupted. Absent on jobs opened before this field existed.
   */
  links?: string[];
}

/** POST /content/accounts/add. */
export interface AccountJobRequest extends JobRequestBase {
  kind: 'account';
  fingerprint: string;
  account: { url: string; platform: Platform };
  dryRun: boolean;
  filters: AppliedAccountFilters;
}

/** POST /content/posts/refresh: never replayed, so no fingerprint. */
export interface RefreshJobRequest extends JobRequestBase, NoAccount {
  kind: 'refresh';
  fingerprint: null;
  /** The posts it set out to refresh (after its rules), so an interrupted request can be finished. */
  refreshPosts?: { postId: string; link: string }[];
}

/** What a job is about, fixed when it opens. */
export type JobRequest = PostsJobRequest | AccountJobRequest | RefreshJobRequest;

/** The options every content route shares, normalized once (see the ingest DTOs). */
export interface JobOptions {
  tags: string[];
  source: CreditSource;
  fullRead: boolean;
  commentLimit: number | null;
  perPost: number;
}

/** What every job is opened with: who, for which team, when, and the shared options. */
export interface JobBasics {
  jobId: string;
  teamId: string;
  addedBy: { id: string; name: string };
  /** When the request was accepted. */
  now: Date;
  options: JobOptions;
}

export function jobExpiresAt(createdAt: Date): string {
  return new Date(createdAt.getTime() + JOB_RETENTION_DAYS * 86_400_000).toISOString();
}

function base(b: JobBasics, collections: JobCollection[], tags: string[], requested: number): JobRequestBase {
  return {
    jobId: b.jobId,
    teamId: b.teamId,
    createdAt: b.now.toISOString(),
    expiresAt: jobExpiresAt(b.now),
    collections,
    tags,
    credits: { source: b.options.source, perPost: b.options.perPost },
    capture: { fullRead: b.options.fullRead, commentLimit: b.options.commentLimit },
    requested,
    addedBy: b.addedBy,
  };
}

export function postsJobRequest(
  b: JobBasics,
  r: { fingerprint: string; collections: JobCollection[]; links: string[] },
): PostsJobRequest {
  return {
    ...base(b, r.collections, b.options.tags, r.links.length),
    kind: 'posts',
    fingerprint: r.fingerprint,
    links: r.links,
  };
}

/** `requested` is the filters' limit: discovery adds at most that many posts. */
export function accountJobRequest(
  b: JobBasics,
  r: {
    fingerprint: string;
    collections: JobCollection[];
    account: AccountJobRequest['account'];
    dryRun: boolean;
    filters: AppliedAccountFilters;
  },
): AccountJobRequest {
  return {
    ...base(b, r.collections, b.options.tags, r.filters.limit),
    kind: 'account',
    fingerprint: r.fingerprint,
    account: r.account,
    dryRun: r.dryRun,
    filters: r.filters,
  };
}

/** A refresh job adds to no collection and sets no tags; `requested` counts every id and link sent. */
export function refreshJobRequest(
  b: JobBasics,
  r: { requested: number; refreshPosts: { postId: string; link: string }[] },
): RefreshJobRequest {
  return {
    ...base(b, [], [], r.requested),
    kind: 'refresh',
    fingerprint: null,
    refreshPosts: r.refreshPosts,
  };
}
