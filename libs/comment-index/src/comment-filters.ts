import { DIMENSIONS } from '@analyst/contracts';
import {
  NO_COMMENT_FILTER,
  type CommentFilters,
  type CompiledCommentFilter,
  type SearchSpec,
} from '@analyst/domain-analysis';
import type { TeamIndex } from './team-index/team-index';

// Recorded on AnalysisCreated, so declared with it in domain-analysis; still importable from here.
export type { CommentFilters, SearchSpec };

/** Filters resolved against a team's index (words and authors that never occur match nothing). */
export function compileFilters(filters: CommentFilters | null, team: TeamIndex): CompiledCommentFilter {
  if (!filters) return NO_COMMENT_FILTER;
  const authors = (names: string[] | undefined): Set<number> | null =>
    names ? new Set(names.map((n) => team.authorId(n))) : null;
  const seconds = (iso: string | undefined): number | null =>
    iso ? Math.floor(Date.parse(iso) / 1000) : null;
  return {
    buckets: Object.fromEntries(DIMENSIONS.filter((d) => filters[d]).map((d) => [d, filters[d]!])),
    keywords: (filters.keywords ?? []).map((k) => team.vocab.encodeExisting(k)),
    keywordMatch: filters.keywordMatch ?? 'any',
    excludeKeywords: (filters.excludeKeywords ?? []).map((k) => team.vocab.encodeExisting(k)),
    authors: authors(filters.usernames),
    excludeAuthors: authors(filters.excludeUsernames),
    creator: filters.creator ?? 'include',
    replies: filters.replies ?? 'include',
    questions: filters.questions ?? 'include',
    mentions: filters.mentions ?? 'include',
    emoji: filters.emoji ?? 'include',
    minLikes: filters.minLikes ?? 0,
    sinceSec: seconds(filters.since),
    untilSec: seconds(filters.until),
  };
}
