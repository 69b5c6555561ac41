import { parseCalendarInstant, type AccountQuery, type PostType } from '@analyst/contracts';
import { ContentError } from './content-errors';

export const DEFAULT_ACCOUNT_LIMIT = 20;
/** Longest caption keyword, in characters after NFC. */
export const KEYWORD_MAX_LENGTH = 100;
export const KEYWORD_MATCHES = ['includes', 'exact', 'excludes'] as const;
export type KeywordMatch = (typeof KEYWORD_MATCHES)[number];

/** The filters of POST /content/accounts/add as the request gives them (shape checked by the DTO). */
export interface AccountFiltersInput {
  since?: string;
  until?: string;
  limit?: number;
  keywords?: unknown;
  minViews?: number;
  minLikes?: number;
  postType?: PostType;
}

/** The filters actually applied, echoed on the job. */
export interface AppliedAccountFilters {
  since: string | null;
  /**
   * The upper bound discovery uses: the request's `until`, or the time the request was accepted
   * (the spec's "defaults to now"). Null only on jobs opened before the default was recorded;
   * readers fall back to the job's `createdAt` for those.
   */
  until: string | null;
  limit: number;
  keywords: { term: string; match: KeywordMatch } | null;
  minViews: number | null;
  minLikes: number | null;
  postType: PostType | null;
  [key: string]: unknown;
}

/**
 * An ISO 8601 date or date-time; dates the calendar lacks (2026-02-30) are refused, never rolled
 * over. A bare date is the whole UTC day: `since` from its start, `until` to its last millisecond.
 */
function parseDate(value: string, field: string, endOfDay: boolean): string {
  const ms = parseCalendarInstant(value, { endOfDay });
  if (ms === null)
    throw new ContentError(
      'invalid_filter',
      `filters.${field} must be an ISO 8601 date or date-time that exists in the calendar, got "${value}"`,
    );
  return new Date(ms).toISOString();
}

/** `since` and `until` applied; `until` defaults to `now`, and `since` may not be after it. */
function applyWindow(f: AccountFiltersInput, now: Date): { since: string | null; until: string } {
  const since = f.since !== undefined ? parseDate(f.since, 'since', false) : null;
  const until = f.until !== undefined ? parseDate(f.until, 'until', true) : now.toISOString();
  if (since && since > until) {
    throw new ContentError(
      'invalid_filter',
      f.until !== undefined
        ? 'filters.since must not be after filters.until'
        : `filters.since must not be after filters.until, which defaults to now (${until})`,
    );
  }
  return { since, until };
}

/** A caption keyword trimmed and in NFC (so a decomposed "vídeo" matches captions that store it precomposed), at most 100 characters. */
function keywordTerm(raw: string): string {
  const term = raw.trim().normalize('NFC');
  if (term.length > KEYWORD_MAX_LENGTH)
    throw new ContentError(
      'invalid_filter',
      `filters.keywords terms are at most ${KEYWORD_MAX_LENGTH} characters, got ${term.length}`,
    );
  return term;
}

/** `keywords` as a string (an `includes` match) or as `{ term, match }` with nothing else. */
export function applyKeywords(keywords: unknown): AppliedAccountFilters['keywords'] {
  if (keywords === undefined) return null;
  if (typeof keywords === 'string') {
    if (!keywords.trim()) throw new ContentError('invalid_filter', 'filters.keywords must not be blank');
    return { term: keywordTerm(keywords), match: 'includes' };
  }
  const k = keywords as { term?: unknown; match?: unknown } | null;
  const extra = k && typeof k === 'object' ? Object.keys(k).filter((x) => x !== 'term' && x !== 'match') : [];
  if (!k || typeof k !== 'object' || typeof k.term !== 'string' || !k.term.trim() || extra.length > 0) {
    throw new ContentError('invalid_filter', 'filters.keywords must be a string or { term, match }');
  }
  const match = k.match ?? 'includes';
  if (!(KEYWORD_MATCHES as readonly unknown[]).includes(match))
    throw new ContentError(
      'invalid_filter',
      `filters.keywords.match must be one of: ${KEYWORD_MATCHES.join(', ')}`,
    );
  return { term: keywordTerm(k.term), match: match as KeywordMatch };
}

/** `now` is when the request was accepted: the applied `until` when the request gives none. */
export function applyAccountFilters(
  filters: AccountFiltersInput | undefined,
  now: Date,
): AppliedAccountFilters {
  const f = filters ?? {};
  const { since, until } = applyWindow(f, now);
  return {
    since,
    until,
    limit: f.limit ?? DEFAULT_ACCOUNT_LIMIT,
    keywords: applyKeywords(f.keywords),
    minViews: f.minViews ?? null,
    minLikes: f.minLikes ?? null,
    postType: f.postType ?? null,
  };
}

/**
 * The filters as the request gave them, for the replay fingerprint: `until` is the request's own
 * value (null when left to default), so a replay of the same body later still finds the first job.
 */
export function requestedAccountFilters(
  applied: AppliedAccountFilters,
  given: AccountFiltersInput | undefined,
): AppliedAccountFilters {
  return { ...applied, until: given?.until !== undefined ? applied.until : null };
}

/** The applied `until`; a job opened before the default was recorded was bounded by its acceptance time. */
export function appliedUntil(filters: AppliedAccountFilters, createdAt: string): string {
  return filters.until ?? createdAt;
}

/** What the provider is asked: the applied window (`until` always set), limit and keywords. */
export function accountQuery(filters: AppliedAccountFilters, createdAt: string): AccountQuery {
  return {
    ...(filters.since ? { since: filters.since } : {}),
    until: appliedUntil(filters, createdAt),
    limit: filters.limit,
    ...(filters.keywords ? { keywords: filters.keywords } : {}),
  };
}
