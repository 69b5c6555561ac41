import { parseBucket, type BucketKey } from '@analyst/contracts';
import { DEFAULT_MIN_RELEVANCE, type CommentFilters, type SearchSpec } from '@analyst/comment-index';
import type { Presence } from '@analyst/domain-analysis';
import { plainToInstance } from 'class-transformer';
import { validateRequest } from '@analyst/platform';
import { echoPostQuery } from '../posts/post-query';
import { PostQueryDto } from '../posts/post-query.dto';
import { postQueryOf } from '../posts/parse-post-query';
import { calendarInstant } from '../validation/query-value.rules';
import { refuseAs } from '../validation/refusal';
import { trimmedValues } from '../validation/rule-conditions';
import {
  AnalysisRequestDto,
  CommentFiltersDto,
  MAX_SELECTION,
  type SearchDto,
  type SelectionDto,
} from './analysis-request.dto';
import {
  keywordsWithSearch,
  QUERY_MAX_LENGTH,
  searchQuery,
  searchTerms,
  TERM_MAX_LENGTH,
} from './analysis-request.rules';

export { MAX_SELECTION, QUERY_MAX_LENGTH, TERM_MAX_LENGTH };
export const INLINE_LIMIT = 100;

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

// What AnalysisRequestDto's rules accepted, read into the request the service runs. Nothing here
// refuses: every value below has passed its rule.

function selectionOf(dto: SelectionDto): Selection {
  if (dto.postIds !== undefined)
    return { type: 'postIds', postIds: [...new Set(trimmedValues(dto.postIds))] };
  let posts: Record<string, unknown> | undefined;
  let status = 'complete';
  if (dto.posts !== undefined) {
    // Echoed (and resolved) as GET /posts echoes its filters: normalized links, accounts, tags and dates.
    const { status: scope, ...normalized } = echoPostQuery(
      postQueryOf(plainToInstance(PostQueryDto, dto.posts)),
    );
    posts = normalized;
    status = scope as string;
  }
  if (dto.collectionId !== undefined)
    return posts
      ? { type: 'collection', collectionId: dto.collectionId, posts, status }
      : { type: 'collection', collectionId: dto.collectionId, status };
  return { type: 'posts', posts: posts!, status };
}

const BUCKET_FILTERS = ['sentiment', 'content', 'topic', 'relevance', 'consensus'] as const;
const TERM_FILTERS = ['keywords', 'excludeKeywords', 'usernames', 'excludeUsernames'] as const;
const PRESENCE_FILTERS = ['creator', 'replies', 'questions', 'mentions', 'emoji'] as const;

/** Keyword or username terms; usernames without a leading `@`. */
function termFilter(key: (typeof TERM_FILTERS)[number], values: string[]): string[] {
  const terms = searchTerms(values);
  if (!key.toLowerCase().includes('username')) return terms;
  return terms.map((u) => u.replace(/^@/, '')).filter((u) => u.length > 0);
}

function filtersOf(dto: CommentFiltersDto | null | undefined): CommentFilters | null {
  if (dto == null) return null;
  const out: CommentFilters = {};
  for (const dimension of BUCKET_FILTERS) {
    const values = dto[dimension];
    if (values !== undefined)
      out[dimension] = [...new Set(trimmedValues(values).map((v) => parseBucket(dimension, v) as BucketKey))];
  }
  for (const key of TERM_FILTERS) if (dto[key] !== undefined) out[key] = termFilter(key, dto[key]);
  if (dto.keywordMatch !== undefined) out.keywordMatch = dto.keywordMatch;
  for (const key of PRESENCE_FILTERS) if (dto[key] !== undefined) out[key] = dto[key] as Presence;
  if (dto.minLikes !== undefined) out.minLikes = dto.minLikes;
  if (dto.since !== undefined) out.since = new Date(calendarInstant(dto.since)!).toISOString();
  if (dto.until !== undefined) out.until = new Date(calendarInstant(dto.until, 'end')!).toISOString();
  // An empty list filters nothing (and is not echoed): "usernames: []" must not mean "no one".
  for (const [key, value] of Object.entries(out))
    if (Array.isArray(value) && value.length === 0) delete out[key as keyof CommentFilters];
  return out;
}

function searchOf(dto: SearchDto | null | undefined): SearchSpec | null {
  if (dto == null) return null;
  return {
    query: searchQuery(dto.query),
    mode: dto.mode ?? 'ai',
    minRelevance: dto.minRelevance ?? DEFAULT_MIN_RELEVANCE,
  };
}

/** Reads a POST /analyses body its rules accepted. A keyword search folds into filters.keywords here. */
export function analysisRequestOf(dto: AnalysisRequestDto): AnalysisRequest {
  let filters = filtersOf(dto.filters);
  const search = searchOf(dto.search);
  const include = dto.include === undefined ? [] : [...new Set(trimmedValues(dto.include))];
  const keywords = keywordsWithSearch(dto.filters?.keywords, dto.search);
  if (keywords) filters = { ...(filters ?? {}), keywords };
  return { selection: selectionOf(dto.selection), filters, search, include };
}

/** Validates a POST /analyses body (AnalysisRequestDto's rules; a 400 invalid_request names each bad field) and reads it. */
export function parseAnalysisRequest(body: unknown): AnalysisRequest {
  const dto = validateRequest(AnalysisRequestDto, body, refuseAs('invalid_request'), {
    notAnObject: 'body must be a JSON object',
    unknownField: (field) => `${field} is not a field of POST /analyses`,
  });
  return analysisRequestOf(dto);
}
