import { BUCKET_KEYS, type BucketKey } from '@analyst/contracts';
import {
  mixPercent,
  type Mix,
  type PostStatusScope,
  type RecordedPostFilters,
} from '@analyst/domain-analysis';
import { type PostEntry, type TeamIndex, materializedOf } from '@analyst/comment-index';
import { normalizeLink } from '@analyst/links';
import { AnalysisError } from '../errors/analysis-error';
import { calendarInstant } from '../validation/calendar-date.rules';
import type { PostQueryDto } from './post-query.dto';

const PENDING = new Set(['fetching', 'queued', 'processing']);

/** Post filters shared by GET /posts, GET /collections/{id}/posts and `selection.posts`, as PostQueryDto's rules accepted them (postQueryOf). */
export interface PostQuery {
  status: PostStatusScope;
  link: string[];
  account: string[];
  platform: string[];
  tag: string[];
  postedSince: number | null;
  postedUntil: number | null;
  updatedSince: number | null;
  minScore: number | null;
  maxScore: number | null;
  minPercent: Partial<Record<BucketKey, number>>;
  maxPercent: Partial<Record<BucketKey, number>>;
  collectionId: string | null;
}

/** No post filter: complete posts only, as a query without parameters. */
export const NO_POST_FILTERS: PostQuery = {
  status: 'complete',
  link: [],
  account: [],
  platform: [],
  tag: [],
  postedSince: null,
  postedUntil: null,
  updatedSince: null,
  minScore: null,
  maxScore: null,
  minPercent: {},
  maxPercent: {},
  collectionId: null,
};

/** A link as the content routes store it (`normalizedLink`), so any form of the URL finds its post. */
const linkKey = (value: string): string => normalizeLink(value) ?? value;

const normalizeAccount = (value: string): string => {
  let v = value.trim().toLowerCase();
  if (/^https?:\/\//.test(v)) v = v.replace(/\/+$/, '').split('/').pop() ?? v;
  return v.replace(/^@/, '');
};
const normalizeTag = (value: string): string => value.trim().replace(/^#/, '').toLowerCase();

const numberOf = (value: string | null | undefined): number | null => (value == null ? null : Number(value));
const dateOf = (value: string | null | undefined, bound: 'start' | 'end' = 'start'): number | null =>
  value == null ? null : calendarInstant(value, bound);

type PercentField = `${'min' | 'max'}_${BucketKey}_percent`;

/** The filters PostQueryDto's rules accepted, as the catalog applies them. Never refuses. */
export function postQueryOf(dto: PostQueryDto): PostQuery {
  const q: PostQuery = {
    status: dto.status ?? 'complete',
    link: [...new Set((dto.link ?? []).map(linkKey))],
    account: (dto.account ?? []).map(normalizeAccount),
    platform: (dto.platform ?? []).map((p) => p.toLowerCase()),
    tag: (dto.tag ?? []).map(normalizeTag).filter((t) => t.length > 0),
    postedSince: dateOf(dto.posted_since),
    postedUntil: dateOf(dto.posted_until, 'end'),
    updatedSince: dateOf(dto.updated_since),
    minScore: numberOf(dto.min_score),
    maxScore: numberOf(dto.max_score),
    minPercent: {},
    maxPercent: {},
    collectionId: dto.collection_id ?? null,
  };
  for (const b of BUCKET_KEYS) {
    const min = numberOf(dto[`min_${b}_percent` satisfies PercentField]);
    const max = numberOf(dto[`max_${b}_percent` satisfies PercentField]);
    if (min !== null) q.minPercent[b] = min;
    if (max !== null) q.maxPercent[b] = max;
  }
  return q;
}

/** The active filters as `meta.filters` echoes them (defaults included: status). */
export function echoPostQuery(q: PostQuery): RecordedPostFilters & { status: PostStatusScope } {
  const out: RecordedPostFilters & { status: PostStatusScope } = { status: q.status };
  if (q.link.length) out.link = q.link;
  if (q.account.length) out.account = q.account;
  if (q.platform.length) out.platform = q.platform;
  if (q.tag.length) out.tag = q.tag;
  const iso = (ms: number | null): string | undefined =>
    ms === null ? undefined : new Date(ms).toISOString();
  if (q.postedSince !== null) out.posted_since = iso(q.postedSince);
  if (q.postedUntil !== null) out.posted_until = iso(q.postedUntil);
  if (q.updatedSince !== null) out.updated_since = iso(q.updatedSince);
  if (q.minScore !== null) out.min_score = q.minScore;
  if (q.maxScore !== null) out.max_score = q.maxScore;
  for (const b of BUCKET_KEYS) if (q.minPercent[b] !== undefined) out[`min_${b}_percent`] = q.minPercent[b];
  for (const b of BUCKET_KEYS) if (q.maxPercent[b] !== undefined) out[`max_${b}_percent`] = q.maxPercent[b];
  if (q.collectionId) out.collection_id = q.collectionId;
  return out;
}

/** Sort key: newest first by when the post was published (creation time until it is fetched), then id. */
export const postTime = (p: PostEntry): number => Date.parse(p.postedAt ?? p.createdAt);

/** Whether a post passes every filter of the query, within `collections` when given. */
function matchesPost(post: PostEntry, q: PostQuery, collections: Set<string> | null): boolean {
  return (
    matchesStatus(post, q.status) &&
    matchesWhere(post, q, collections) &&
    matchesDates(post, q) &&
    matchesScores(post, q)
  );
}

/** `status`: complete only (the default), pending only, or all. */
function matchesStatus(post: PostEntry, status: PostQuery['status']): boolean {
  if (status === 'complete') return post.status === 'complete';
  if (status === 'pending') return PENDING.has(post.status);
  return true;
}

/** Where the post is from: its collections, link, account, platform and tags. */
function matchesWhere(post: PostEntry, q: PostQuery, collections: Set<string> | null): boolean {
  if (collections && !post.collectionIds.some((c) => collections.has(c))) return false;
  if (q.link.length && !q.link.includes(post.normalizedLink) && !q.link.includes(post.link)) return false;
  if (
    q.account.length &&
    !(post.creator && q.account.includes(post.creator.username.replace(/^@/, '').toLowerCase()))
  )
    return false;
  if (q.platform.length && !q.platform.includes(post.platform)) return false;
  return !(q.tag.length && !post.tags.some((t) => q.tag.includes(t.toLowerCase())));
}

/** `posted_since`, `posted_until` (a post not yet published matches neither) and `updated_since`. */
function matchesDates(post: PostEntry, q: PostQuery): boolean {
  const posted = post.postedAt ? Date.parse(post.postedAt) : null;
  if (q.postedSince !== null && (posted === null || posted < q.postedSince)) return false;
  if (q.postedUntil !== null && (posted === null || posted > q.postedUntil)) return false;
  return !(q.updatedSince !== null && Date.parse(post.updatedAt) < q.updatedSince);
}

/** The score range and the sentiment mix percentages, against the post's materialized analysis. */
function matchesScores(post: PostEntry, q: PostQuery): boolean {
  const scoreRange = q.minScore !== null || q.maxScore !== null;
  const percents = Object.keys(q.minPercent).length > 0 || Object.keys(q.maxPercent).length > 0;
  if (!scoreRange && !percents) return true;
  const m = materializedOf(post);
  const score = m?.analysis.commentAnalysis.scores.serviceScore ?? null;
  if (scoreRange && (score === null || !inRange(score, q.minScore, q.maxScore))) return false;
  return !percents || matchesMix(m?.analysis.commentAnalysis.mix.sentiment, q);
}

/** The sentiment mix percentages; a post without a materialized mix is within no bound. */
function matchesMix(mix: Mix | null | undefined, q: PostQuery): boolean {
  if (!mix) return false;
  return BUCKET_KEYS.every((b) =>
    inRange(mixPercent(mix, b), q.minPercent[b] ?? null, q.maxPercent[b] ?? null),
  );
}

function inRange(value: number, min: number | null, max: number | null): boolean {
  return (min === null || value >= min) && (max === null || value <= max);
}

/** Posts of the team matching the query, newest first. */
export function findPosts(team: TeamIndex, q: PostQuery, within: Set<string> | null = null): PostEntry[] {
  let collections = within;
  if (q.collectionId) {
    if (!team.collections.has(q.collectionId))
      throw new AnalysisError(
        'invalid_filter',
        `collection_id ${q.collectionId} is not a collection of this team`,
      );
    const tree = team.collectionTree(q.collectionId);
    collections = collections ? new Set([...tree].filter((c) => collections!.has(c))) : tree;
  }
  // Each post's time is parsed once, not twice per comparison: the sort ran on every GET /posts.
  const keyed = team.posts
    .filter((p) => matchesPost(p, q, collections))
    .map((post) => ({ post, t: postTime(post) }));
  keyed.sort((a, b) => b.t - a.t || (a.post.id < b.post.id ? 1 : a.post.id > b.post.id ? -1 : 0));
  return keyed.map((k) => k.post);
}

/** A post's place in the newest-first order, as a cursor records it. */
export const positionOf = (p: PostEntry): { t: number; id: string } => ({ t: postTime(p), id: p.id });
export const afterCursor = (p: PostEntry, c: { t: number; id: string }): boolean =>
  postTime(p) < c.t || (postTime(p) === c.t && p.id < c.id);
