import type { CreatorMessage, CreatorTopic, FetchedComment, ScoredComment } from './comments';

/** The eight post platforms, by the id the API reports in `post.platform`. */
export const PLATFORMS = [
  'youtube',
  'tiktok',
  'instagram',
  'facebook',
  'x',
  'reddit',
  'linkedin',
  'threads',
] as const;
export type Platform = (typeof PLATFORMS)[number];

export const POST_TYPES = ['video', 'image', 'carousel', 'reel', 'short', 'story', 'text', 'other'] as const;
export type PostType = (typeof POST_TYPES)[number];

/** A post's processing statuses in the domain (its decider's states). */
export const POST_STATUSES = [
  'fetching',
  'queued',
  'processing',
  'complete',
  'failed',
  'unreachable',
  'holding',
  'cancelled',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * Post processing statuses as the API reports them (spec: Post processing status): the domain's
 * statuses plus archived. The post and content-job schemas of the OpenAPI document share them.
 */
export const API_POST_STATUSES = [...POST_STATUSES, 'archived'] as const;

/** Content job vocabulary, as clients see it (the domain and the OpenAPI document share these). */
export const JOB_KINDS = ['posts', 'account', 'refresh'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATUSES = ['discovering', 'queuing', 'syncing', 'completed', 'partial', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const SKIP_REASONS = [
  'already_complete',
  'already_processing',
  'duplicate_in_batch',
  'min_interval',
  'cooldown',
  'unreachable',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export const REJECT_REASONS = [
  'unsupported_platform',
  'invalid_url',
  'insufficient_credits',
  'create_failed',
  'not_found',
  'not_on_team',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export type LinkClassification =
  | { ok: true; kind: 'post' | 'account'; platform: Platform; normalized: string }
  | { ok: false; reason: 'invalid_url' | 'unsupported_platform' };

/** The creator side of a post as a provider reports it. */
export interface ProviderPost {
  link: string;
  platform: Platform;
  creator: { username: string; name: string };
  title: string;
  caption: string;
  description: string | null;
  engagement: { views: number; likes: number; comments: number; shares: number };
  postedAt: string;
  postType: PostType;
  thumbnail: string | null;
}

/** What a fetch tells about a post beyond its link and platform (those it had from the start). */
export type PostDetails = Omit<ProviderPost, 'link' | 'platform'>;

/**
 * The details every post read model takes from a `PostFetched`: named one by one, so a provider's
 * extra fields never reach a stored document.
 */
export function postDetailsOf(p: ProviderPost): PostDetails {
  return {
    creator: p.creator,
    title: p.title,
    caption: p.caption,
    description: p.description,
    engagement: p.engagement,
    postedAt: p.postedAt,
    postType: p.postType,
    thumbnail: p.thumbnail,
  };
}

export type FetchResult =
  | { status: 'ok'; post: ProviderPost; comments: FetchedComment[] }
  | { status: 'unreachable'; reason: string }
  | { status: 'failed'; reason: string }
  /** Held by the platform's quota or rate limit; `retryAt` (ISO) is when its window reopens, when known. */
  | { status: 'holding'; reason: string; retryAt?: string };

export interface FetchOptions {
  /** Cap on comments fetched; ignored with fullRead. */
  commentLimit?: number;
  fullRead: boolean;
}

export interface AccountQuery {
  since?: string;
  until?: string;
  limit: number;
  keywords?: { term: string; match: 'includes' | 'exact' | 'excludes' };
}

export interface DiscoveredPost {
  link: string;
  postedAt: string;
  postType: PostType;
  caption: string;
  engagement: { views: number; likes: number };
}

/** Raised by a provider when the platform cannot be reached; callers retry with backoff. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
}

/** Where posts and comments come from: the simulated provider, or per-platform adapters. */
export interface ContentProvider {
  /** False for a platform this deployment has no provider for: intake rejects its links as `unsupported_platform`. Absent: every platform. */
  supports?(platform: Platform): boolean;
  fetchPost(link: string, options: FetchOptions): Promise<FetchResult>;
  /** Recent public posts of an account, newest first, honouring since/until/limit/keywords at the source. */
  discoverAccount(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]>;
}
export const CONTENT_PROVIDER = Symbol('ContentProvider');

export interface PostScoring {
  topics: CreatorTopic[];
  messages: CreatorMessage[];
  comments: ScoredComment[];
}

/** Scores every comment of a post on the five dimensions (1-10) and extracts creator topics. */
export interface CommentScorer {
  readonly name: string;
  readonly version: string;
  scorePost(post: ProviderPost, comments: FetchedComment[]): PostScoring;
}
export const COMMENT_SCORER = Symbol('CommentScorer');
