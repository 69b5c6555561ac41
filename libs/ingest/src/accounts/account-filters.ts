import {
  ApiError,
  parseCalendarInstant,
  type AccountQuery,
  type DiscoveredPost,
  type PostType,
} from '@analyst/contracts';
import { normalizeLink } from '@analyst/links';
import type { AccountFiltersDto } from './add-account.dto';

export const DEFAULT_ACCOUNT_LIMIT = 20;
const MATCHES = ['includes', 'exact', 'excludes'] as const;

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
  keywords: { term: string; match: (typeof MATCHES)[number] } | null;
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
    throw new ApiError(
      400,
      `filters.${field} must be an ISO 8601 date or date-time that exists in the calendar, got "${value}"`,
    );
  return new Date(ms).toISOString();
}

/** `now` is when the request was accepted: the applied `until` when the request gives none. */
export function applyAccountFilters(
  filters: AccountFiltersDto | undefined,
  now: Date,
): AppliedAccountFilters {
  const f = filters ?? {};
  const since = f.since !== undefined ? parseDate(f.since, 'since', false) : null;
  const until = f.until !== undefined ? parseDate(f.until, 'until', true) : now.toISOString();
  if (since && since > until) {
    throw new ApiError(
      400,
      f.until !== undefined
        ? 'filters.since must not be after filters.until'
        : `filters.since must not be after filters.until, which defaults to now (${until})`,
    );
  }
  let keywords: AppliedAccountFilters['keywords'] = null;
  if (typeof f.keywords === 'string') {
    if (!f.keywords.trim()) throw new ApiError(400, 'filters.keywords must not be blank');
    keywords = { term: keywordTerm(f.keywords), match: 'includes' };
  } else if (f.keywords !== undefined) {
    const k = f.keywords as { term?: unknown; match?: unknown };
    const extra =
      k && typeof k === 'object' ? Object.keys(k).filter((x) => x !== 'term' && x !== 'match') : [];
    if (!k || typeof k !== 'object' || typeof k.term !== 'string' || !k.term.trim() || extra.length > 0) {
      throw new ApiError(400, 'filters.keywords must be a string or { term, match }');
    }
    const match = k.match ?? 'includes';
    if (!(MATCHES as readonly unknown[]).includes(match))
      throw new ApiError(400, `filters.keywords.match must be one of: ${MATCHES.join(', ')}`);
    keywords = { term: keywordTerm(k.term), match: match as (typeof MATCHES)[number] };
  }
  return {
    since,
    until,
    limit: f.limit ?? DEFAULT_ACCOUNT_LIMIT,
    keywords,
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
  given: AccountFiltersDto | undefined,
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

/** Step 3 of discovery: minViews, minLikes, postType, then duplicates dropped and the list cut to `limit`. */
export function narrowDiscovered(posts: DiscoveredPost[], filters: AppliedAccountFilters): DiscoveredPost[] {
  const seen = new Set<string>();
  const out: DiscoveredPost[] = [];
  for (const p of posts) {
    if (filters.minViews !== null && p.engagement.views < filters.minViews) continue;
    if (filters.minLikes !== null && p.engagement.likes < filters.minLikes) continue;
    if (filters.postType !== null && p.postType !== filters.postType) continue;
    const key = normalizeLink(p.link) ?? p.link;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
    if (out.length >= filters.limit) break;
  }
  return out;
}

/** Longest caption keyword, in characters after NFC. */
export const KEYWORD_MAX_LENGTH = 100;

/** A caption keyword trimmed and in NFC (so a decomposed "vídeo" matches captions that store it precomposed), at most 100 characters. */
function keywordTerm(raw: string): string {
  const term = raw.trim().normalize('NFC');
  if (term.length > KEYWORD_MAX_LENGTH)
    throw new ApiError(
      400,
      `filters.keywords terms are at most ${KEYWORD_MAX_LENGTH} characters, got ${term.length}`,
    );
  return term;
}
