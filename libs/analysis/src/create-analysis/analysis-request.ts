import { parseBucket } from '@analyst/contracts';
import { DEFAULT_MIN_RELEVANCE } from '@analyst/comment-index';
import type { CommentFilters, SearchSpec } from '@analyst/domain-analysis';
import { validateRequest } from '@analyst/platform';
import type { PostQuery } from '../posts/post-query';
import { calendarInstant } from '../validation/calendar-date.rules';
import { refuseAs } from '../validation/refusal';
import {
  AnalysisRequestDto,
  keywordsWithSearch,
  MAX_SELECTION,
  QUERY_MAX_LENGTH,
  searchQuery,
  searchTerms,
  TERM_MAX_LENGTH,
  trimmedValues,
  type CommentFiltersDto,
  type SearchDto,
  type SelectionDto,
} from './analysis-request.dto';

export { MAX_SELECTION, QUERY_MAX_LENGTH, TERM_MAX_LENGTH };

/** The posts a request selects, with its post filters read into the query GET /posts runs. */
export type RequestedSelection =
  | { type: 'collection'; collectionId: string; posts?: PostQuery }
  | { type: 'posts'; posts: PostQuery }
  | { type: 'postIds'; postIds: string[] };

/** A POST /analyses body, validated and read once (parseAnalysisRequest). */
export interface AnalysisRequest {
  selection: RequestedSelection;
  filters: CommentFilters | null;
  search: SearchSpec | null;
  include: string[];
}

/** Validates a POST /analyses body (AnalysisRequestDto's rules; a 400 invalid_request names each bad field) and reads it. */
export function parseAnalysisRequest(body: unknown): AnalysisRequest {
  const dto = validateRequest(AnalysisRequestDto, body, refuseAs('invalid_request'), {
    notAnObject: 'body must be a JSON object',
    unknownField: (field) => `${field} is not a field of POST /analyses`,
  });
  return analysisRequestOf(dto);
}

// What AnalysisRequestDto's rules accepted, read into the request the service runs. Nothing here
// refuses: every value below has passed its rule.

/** Reads a POST /analyses body its rules accepted. A keyword search folds into filters.keywords here. */
function analysisRequestOf(dto: AnalysisRequestDto): AnalysisRequest {
  let filters = filtersOf(dto.filters);
  const search = searchOf(dto.search);
  const include = dto.include === undefined ? [] : [...new Set(trimmedValues(dto.include))];
  const keywords = keywordsWithSearch(dto.filters?.keywords, dto.search);
  if (keywords) filters = { ...(filters ?? {}), keywords };
  return { selection: selectionOf(dto.selection), filters, search, include };
}

function selectionOf(dto: SelectionDto): RequestedSelection {
  if (dto.postIds !== undefined)
    return { type: 'postIds', postIds: [...new Set(trimmedValues(dto.postIds))] };
  if (dto.collectionId !== undefined)
    return dto.posts
      ? { type: 'collection', collectionId: dto.collectionId, posts: dto.posts }
      : { type: 'collection', collectionId: dto.collectionId };
  return { type: 'posts', posts: dto.posts! };
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

type ListFilter = (typeof BUCKET_FILTERS)[number] | (typeof TERM_FILTERS)[number];

/** An empty list filters nothing (and is not echoed): "usernames: []" must not mean "no one". */
function putList<K extends ListFilter>(
  out: CommentFilters,
  key: K,
  values: NonNullable<CommentFilters[K]>,
): void {
  if (values.length > 0) out[key] = values;
}

function filtersOf(dto: CommentFiltersDto | null | undefined): CommentFilters | null {
  if (dto == null) return null;
  const out: CommentFilters = {};
  for (const dimension of BUCKET_FILTERS) {
    const values = dto[dimension];
    if (values !== undefined)
      putList(out, dimension, [...new Set(trimmedValues(values).map((v) => parseBucket(dimension, v)!))]);
  }
  for (const key of TERM_FILTERS) if (dto[key] !== undefined) putList(out, key, termFilter(key, dto[key]));
  if (dto.keywordMatch !== undefined) out.keywordMatch = dto.keywordMatch;
  for (const key of PRESENCE_FILTERS) if (dto[key] !== undefined) out[key] = dto[key];
  if (dto.minLikes !== undefined) out.minLikes = dto.minLikes;
  if (dto.since !== undefined) out.since = new Date(calendarInstant(dto.since)!).toISOString();
  if (dto.until !== undefined) out.until = new Date(calendarInstant(dto.until, 'end')!).toISOString();
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
