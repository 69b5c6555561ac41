import { BUCKET_KEYS, parseCalendarInstant, PLATFORMS, type BucketKey } from '@analyst/contracts';
import { queryNumber } from '@analyst/platform';
import { normalizeLink } from '@analyst/links';
import { mixPercent } from '@analyst/domain-analysis';
import { type PostEntry, type TeamIndex, materializedOf } from '@analyst/comment-index';
import { AnalysisError } from '../errors/analysis-error';

export type StatusScope = 'complete' | 'pending' | 'all';
const PENDING = new Set(['fetching', 'queued', 'processing']);

/** Post filters shared by GET /posts, GET /collections/{id}/posts and `selection.posts`. */
export interface PostQuery {
  status: StatusScope;
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

const bad = (message: string): AnalysisError => new AnalysisError('invalid_filter', message);

function list(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  const items = (Array.isArray(value) ? value : [value]).flatMap((v) => {
    if (typeof v !== 'string') throw bad(`${name} must be a string or a list of strings`);
    return v.split(',');
  });
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

function single(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw bad(`${name} takes one value`);
    value = value[0];
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw bad(`${name} must be a string`);
  return String(value);
}

/**
 * An ISO 8601 date or timestamp (UTC unless zoned); a date the calendar lacks is a 400, never rolled
 * over. A bare date is its whole UTC day: `since` bounds start it, `until` bounds end it.
 */
export function parseDate(value: unknown, name: string, bound: 'start' | 'end' = 'start'): number | null {
  const text = single(value, name);
  if (text === null) return null;
  const ms = parseCalendarInstant(text, { endOfDay: bound === 'end' });
  if (ms === null) throw bad(`${name} must be an ISO 8601 date or timestamp on the calendar, got "${text}"`);
  return ms;
}

function number(value: unknown, name: string, min: number, max: number): number | null {
  const text = single(value, name);
  if (text === null) return null;
  return queryNumber(text, name, min, max, 'invalid_filter');
}

/** A link as the content routes store it (`normalizedLink`), so any form of the URL finds its post. */
const linkKey = (value: string): string => normalizeLink(value.trim()) ?? value.trim();

export const normalizeAccount = (value: string): string => {
  let v = value.trim().toLowerCase();
  if (/^https?:\/\//.test(v)) v = v.replace(/\/+$/, '').split('/').pop() ?? v;
  return v.replace(/^@/, '');
};
const normalizeTag = (value: string): string => value.trim().replace(/^#/, '').toLowerCase();

const KNOWN = new Set([
  'status',
  'link',
  'account',
  'platform',
  'tag',
  'posted_since',
  'posted_until',
  'updated_since',
  'min_score',
  'max_score',
  'collection_id',
  ...BUCKET_KEYS.flatMap((b) => [`min_${b}_percent`, `max_${b}_percent`]),
]);

/** Parses post filters from query parameters or a JSON object; 400 names the bad field. */
export function parsePostQuery(
  raw: Record<string, unknown>,
  options: { allowUnknown?: string[] } = {},
): PostQuery {
  for (const key of Object.keys(raw)) {
    if (!KNOWN.has(key) && !(options.allowUnknown ?? []).includes(key))
      throw bad(`unknown post filter "${key}"`);
  }
  const status = single(raw.status, 'status') ?? 'complete';
  if (status !== 'complete' && status !== 'pending' && status !== 'all')
    throw bad(`status must be complete, pending or all, got "${status}"`);
  const platform = list(raw.platform, 'platform').map((p) => p.toLowerCase());
  for (const p of platform)
    if (!(PLATFORMS as readonly string[]).includes(p))
      throw bad(`platform "${p}" is not one of ${PLATFORMS.join(', ')}`);
  const q: PostQuery = {
    status,
    link: [...new Set(list(raw.link, 'link').map(linkKey))],
    account: list(raw.account, 'account').map(normalizeAccount),
    platform,
    tag: list(raw.tag, 'tag')
      .map(normalizeTag)
      .filter((t) => t.length > 0),
    postedSince: parseDate(raw.posted_since, 'posted_since'),
    postedUntil: parseDate(raw.posted_until, 'posted_until', 'end'),
    updatedSince: parseDate(raw.updated_since, 'updated_since'),
    minScore: number(raw.min_score, 'min_score', 1, 10),
    maxScore: number(raw.max_score, 'max_score', 1, 10),
    minPercent: {},
    maxPercent: {},
    collectionId: single(raw.collection_id, 'collection_id'),
  };
  if (q.minScore !== null && q.maxScore !== null && q.minScore > q.maxScore)
    throw bad('min_score must not be greater than max_score');
  if (q.postedSince !== null && q.postedUntil !== null && q.postedSince > q.postedUntil)
    throw bad('posted_since must not be after posted_until');
  for (const b of BUCKET_KEYS) {
    const min = number(raw[`min_${b}_percent`], `min_${b}_percent`, 0, 100);
    const max = number(raw[`max_${b}_percent`], `max_${b}_percent`, 0, 100);
    if (min !== null) q.minPercent[b] = min;
    if (max !== null) q.maxPercent[b] = max;
    if (min !== null && max !== null && min > max)
      throw bad(`min_${b}_percent must not be greater than max_${b}_percent`);
  }
  return q;
}

/** The active filters as `meta.filters` echoes them (defaults included: status). */
export function echoPostQuery(q: PostQuery): Record<string, unknown> {
  const out: Record<string, unknown> = { status: q.status };
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
  for (const [b, v] of Object.entries(q.minPercent)) out[`min_${b}_percent`] = v;
  for (const [b, v] of Object.entries(q.maxPercent)) out[`max_${b}_percent`] = v;
  if (q.collectionId) out.collection_id = q.collectionId;
  return out;
}

/** Sort key: newest first by when the post was published (creation time until it is fetched), then id. */
export const postTime = (p: PostEntry): number => Date.parse(p.postedAt ?? p.createdAt);

export function matchesPost(
  team: TeamIndex,
  post: PostEntry,
  q: PostQuery,
  collections: Set<string> | null,
): boolean {
  void team;
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
  const mix = m?.analysis.commentAnalysis.mix.sentiment;
  for (const [b, v] of Object.entries(q.minPercent) as [BucketKey, number][])
    if (!mix || mixPercent(mix, b) < v) return false;
  for (const [b, v] of Object.entries(q.maxPercent) as [BucketKey, number][])
    if (!mix || mixPercent(mix, b) > v) return false;
  return true;
}

function inRange(value: number, min: number | null, max: number | null): boolean {
  return (min === null || value >= min) && (max === null || value <= max);
}

/** Posts of the team matching the query, newest first. */
export function findPosts(team: TeamIndex, q: PostQuery, within: Set<string> | null = null): PostEntry[] {
  let collections = within;
  if (q.collectionId) {
    if (!team.collections.has(q.collectionId))
      throw bad(`collection_id ${q.collectionId} is not a collection of this team`);
    const tree = team.collectionTree(q.collectionId);
    collections = collections ? new Set([...tree].filter((c) => collections!.has(c))) : tree;
  }
  // Each post's time is parsed once, not twice per comparison: the sort ran on every GET /posts.
  const keyed = team.posts
    .filter((p) => matchesPost(team, p, q, collections))
    .map((post) => ({ post, t: postTime(post) }));
  keyed.sort((a, b) => b.t - a.t || (a.post.id < b.post.id ? 1 : a.post.id > b.post.id ? -1 : 0));
  return keyed.map((k) => k.post);
}

/** A post's place in the newest-first order, as a cursor records it. */
export const positionOf = (p: PostEntry): { t: number; id: string } => ({ t: postTime(p), id: p.id });
export const afterCursor = (p: PostEntry, c: { t: number; id: string }): boolean =>
  postTime(p) < c.t || (postTime(p) === c.t && p.id < c.id);
