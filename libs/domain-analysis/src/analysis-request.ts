import type { BucketKey } from '@analyst/contracts';
import type { Presence } from './comment-filter';

// What an analysis was asked for, as `AnalysisCreated` records it and the read model and the
// routes echo it. These types describe the JSON already on the log: a field added here must be
// optional, and none may change its shape, or recorded analyses would no longer fold.

/** Which posts a post filter keeps by status: complete only (the default), pending only, or all. */
export type PostStatusScope = 'complete' | 'pending' | 'all';

type PercentBound = `${'min' | 'max'}_${BucketKey}_percent`;

/**
 * Post filters as GET /posts echoes them in `meta.filters` (normalized links, accounts and tags,
 * dates as ISO instants), less `status`, which a selection records beside them.
 */
export type RecordedPostFilters = {
  link?: string[];
  account?: string[];
  platform?: string[];
  tag?: string[];
  posted_since?: string;
  posted_until?: string;
  updated_since?: string;
  min_score?: number;
  max_score?: number;
  collection_id?: string;
} & Partial<Record<PercentBound, number>>;

/** The posts an analysis covers, in one of the spec's selection styles. */
export type AnalysisSelection =
  | { type: 'collection'; collectionId: string; posts?: RecordedPostFilters; status: PostStatusScope }
  | { type: 'posts'; posts: RecordedPostFilters; status: PostStatusScope }
  | { type: 'postIds'; postIds: string[] };

/** Comment filters as the request gave them, normalized (labels recorded as bucket keys, dates as ISO instants). */
export interface CommentFilters {
  sentiment?: BucketKey[];
  content?: BucketKey[];
  topic?: BucketKey[];
  relevance?: BucketKey[];
  consensus?: BucketKey[];
  keywords?: string[];
  keywordMatch?: 'any' | 'all';
  excludeKeywords?: string[];
  usernames?: string[];
  excludeUsernames?: string[];
  creator?: Presence;
  replies?: Presence;
  questions?: Presence;
  mentions?: Presence;
  emoji?: Presence;
  minLikes?: number;
  since?: string;
  until?: string;
}

/** A search over the selected comments: by meaning (`ai`, a job) or as one keyword term. */
export interface SearchSpec {
  query: string;
  mode: 'ai' | 'keyword';
  minRelevance: number;
}
