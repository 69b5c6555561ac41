import {
  ANALYSIS_INCLUDES,
  ApiError,
  DIMENSIONS,
  parseBucket,
  type BucketKey,
  type Dimension,
} from '@analyst/contracts';
import type { CommentFilters, SearchSpec } from '@analyst/comment-index';
import type { Presence } from '@analyst/domain-analysis';
import { AnalysisError } from '../errors/analysis-error';
import { echoPostQuery, parseDate, parsePostQuery, type PostQuery } from '../posts/post-query';

export const MAX_SELECTION = 1000;
export const INLINE_LIMIT = 100;
const TERMS_LIMIT = 50;
const PRESENCE_FILTERS = ['creator', 'replies', 'questions', 'mentions', 'emoji'] as const;
const INCLUDES: readonly string[] = ANALYSIS_INCLUDES;

export type Selection =
  | { type: 'collection'; collectionId: string; posts?: Record<string, unknown>; status: string }
  | { type: 'posts'; posts: Record<string, unknown>; status: string }
  | { type: 'postIds'; postIds: string[] };

export interface AnalysisRequest {
  selection: Selection;
  filters: CommentFilters | null;
  search: SearchSpec | null;
  include: string[];
}

const bad = (message: string): AnalysisError => new AnalysisError('invalid_request', message);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Longest keyword or username term, and longest search query, in characters (after NFC). */
export const TERM_MAX_LENGTH = 100;
export const QUERY_MAX_LENGTH = 500;

/** Search terms in NFC, so "vídeo" typed with a combining accent finds comments that store it precomposed. */
function terms(value: unknown, name: string): string[] {
  const list = strings(value, name, TERMS_LIMIT).map((t) => t.normalize('NFC'));
  const long = list.find((t) => t.length > TERM_MAX_LENGTH);
  if (long) throw bad(`${name} terms are at most ${TERM_MAX_LENGTH} characters, got one of ${long.length}`);
  return list;
}

function strings(value: unknown, name: string, limit: number): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw bad(`${name} must be an array of strings`);
  if (value.length > limit) throw bad(`${name} takes at most ${limit} values, got ${value.length}`);
  return (value as string[]).map((v) => v.trim()).filter((v) => v.length > 0);
}

function parseSelection(raw: unknown): Selection {
  if (!isObject(raw))
    throw bad('selection is required: { collectionId }, { posts }, { collectionId, posts } or { postIds }');
  const keys = Object.keys(raw);
  for (const k of keys)
    if (!['collectionId', 'posts', 'postIds'].includes(k))
      throw bad(`selection.${k} is not a selection field`);
  if (raw.postIds !== undefined) {
    if (keys.length > 1) throw bad('selection.postIds cannot be combined with collectionId or posts');
    const ids = strings(raw.postIds, 'selection.postIds', MAX_SELECTION);
    if (ids.length === 0) throw bad('selection.postIds must name at least one post');
    return { type: 'postIds', postIds: [...new Set(ids)] };
  }
  let posts: Record<string, unknown> | undefined;
  let status = 'complete';
  if (raw.posts !== undefined) {
    if (!isObject(raw.posts)) throw bad('selection.posts must be an object of post filters');
    let query: PostQuery;
    try {
      query = parsePostQuery(raw.posts);
    } catch (error) {
      // A post filter refused by this service or by the platform's number parsing alike.
      if (error instanceof AnalysisError || error instanceof ApiError)
        throw bad(`selection.posts: ${error.message}`);
      throw error;
    }
    // Echoed (and resolved) as GET /posts echoes its filters: normalized links, accounts, tags and dates.
    const { status: parsedStatus, ...normalized } = echoPostQuery(query);
    posts = normalized;
    status = parsedStatus as string;
  }
  if (raw.collectionId !== undefined) {
    if (typeof raw.collectionId !== 'string' || raw.collectionId === '')
      throw bad('selection.collectionId must be a collection id');
    return posts
      ? { type: 'collection', collectionId: raw.collectionId, posts, status }
      : { type: 'collection', collectionId: raw.collectionId, status };
  }
  if (!posts)
    throw bad('selection needs exactly one style: collectionId, posts, collectionId + posts, or postIds');
  return { type: 'posts', posts, status };
}

function presence(value: unknown, name: string): Presence {
  if (value !== 'include' && value !== 'exclude' && value !== 'only')
    throw bad(`filters.${name} must be include, exclude or only`);
  return value;
}

function parseFilters(raw: unknown): CommentFilters | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) throw bad('filters must be an object');
  const out: CommentFilters = {};
  for (const [key, value] of Object.entries(raw)) setFilter(out, key, value);
  if (out.since && out.until && out.since > out.until)
    throw bad('filters.since must not be after filters.until');
  // An empty list filters nothing (and is not echoed): "usernames: []" must not mean "no one".
  for (const [key, value] of Object.entries(out))
    if (Array.isArray(value) && value.length === 0) delete out[key as keyof CommentFilters];
  return out;
}

const TERM_FILTERS = ['keywords', 'excludeKeywords', 'usernames', 'excludeUsernames'] as const;

/** One field of `filters`, validated into `out`. */
function setFilter(out: CommentFilters, key: string, value: unknown): void {
  if ((DIMENSIONS as readonly string[]).includes(key)) {
    out[key as Dimension] = bucketFilter(key as Dimension, value);
  } else if ((TERM_FILTERS as readonly string[]).includes(key)) {
    out[key as (typeof TERM_FILTERS)[number]] = termFilter(key, value);
  } else if (key === 'keywordMatch') {
    if (value !== 'any' && value !== 'all') throw bad('filters.keywordMatch must be any or all');
    out.keywordMatch = value;
  } else if ((PRESENCE_FILTERS as readonly string[]).includes(key)) {
    out[key as (typeof PRESENCE_FILTERS)[number]] = presence(value, key);
  } else if (key === 'minLikes') {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw bad('filters.minLikes must be a number of at least 0');
    out.minLikes = value;
  } else if (key === 'since' || key === 'until') {
    if (typeof value !== 'string') throw bad(`filters.${key} must be an ISO 8601 date or timestamp`);
    out[key] = new Date(parseDate(value, `filters.${key}`, key === 'until' ? 'end' : 'start')!).toISOString();
  } else {
    throw bad(`filters.${key} is not a comment filter`);
  }
}

/** A dimension's buckets (keys or labels, a list or a comma-separated string), deduplicated. */
function bucketFilter(dimension: Dimension, value: unknown): BucketKey[] {
  const values = typeof value === 'string' ? value.split(',') : value;
  const list = strings(values, `filters.${dimension}`, 10);
  return [
    ...new Set(
      list.map((v) => {
        const bucket = parseBucket(dimension, v);
        if (!bucket) throw bad(`filters.${dimension}: "${v}" is not a bucket key or label of ${dimension}`);
        return bucket;
      }),
    ),
  ];
}

/** Keyword or username terms; usernames without a leading `@`. */
function termFilter(key: string, value: unknown): string[] {
  const list = terms(value, `filters.${key}`);
  return key.toLowerCase().includes('username')
    ? list.map((u) => u.replace(/^@/, '')).filter((u) => u.length > 0)
    : list;
}

function parseSearch(raw: unknown): SearchSpec | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) throw bad('search must be an object with query, mode and minRelevance');
  for (const k of Object.keys(raw))
    if (!['query', 'mode', 'minRelevance'].includes(k)) throw bad(`search.${k} is not a search field`);
  if (typeof raw.query !== 'string' || raw.query.trim() === '')
    throw bad('search.query must be a non-empty string');
  const mode = raw.mode ?? 'ai';
  if (mode !== 'ai' && mode !== 'keyword') throw bad('search.mode must be ai or keyword');
  const minRelevance = raw.minRelevance ?? 0.3;
  if (typeof minRelevance !== 'number' || minRelevance < 0 || minRelevance > 1)
    throw bad('search.minRelevance must be a number from 0 to 1');
  const query = raw.query.trim().normalize('NFC');
  if (query.length > QUERY_MAX_LENGTH)
    throw bad(`search.query is at most ${QUERY_MAX_LENGTH} characters, got ${query.length}`);
  if (mode === 'keyword' && query.length > TERM_MAX_LENGTH)
    throw bad(
      `a keyword search.query is one term of at most ${TERM_MAX_LENGTH} characters, got ${query.length}`,
    );
  return { query, mode, minRelevance };
}

/** Validates a POST /analyses body. Keyword search folds into filters.keywords here. */
export function parseAnalysisRequest(body: unknown): AnalysisRequest {
  if (!isObject(body)) throw bad('body must be a JSON object');
  for (const k of Object.keys(body))
    if (!['selection', 'filters', 'search', 'include', 'teamId'].includes(k))
      throw bad(`${k} is not a field of POST /analyses`);
  const selection = parseSelection(body.selection);
  let filters = parseFilters(body.filters);
  const search = parseSearch(body.search);
  let include: string[] = [];
  if (body.include !== undefined) {
    include = strings(body.include, 'include', INCLUDES.length);
    for (const i of include)
      if (!INCLUDES.includes(i)) throw bad(`include: "${i}" is not one of ${INCLUDES.join(', ')}`);
    include = [...new Set(include)];
  }
  if (search?.mode === 'keyword') {
    const keywords = [...new Set([...(filters?.keywords ?? []), search.query])];
    if (keywords.length > TERMS_LIMIT)
      throw bad(`filters.keywords with the search query exceed ${TERMS_LIMIT} terms`);
    filters = { ...(filters ?? {}), keywords };
  }
  return { selection, filters, search, include };
}
