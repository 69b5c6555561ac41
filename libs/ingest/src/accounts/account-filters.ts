import { ApiError, type AccountQuery, type DiscoveredPost, type PostType } from '@analyst/contracts';
import { normalizeLink } from '@analyst/links';
import type { AccountFiltersDto } from './add-account.dto';

export const DEFAULT_ACCOUNT_LIMIT = 20;
const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MATCHES = ['includes', 'exact', 'excludes'] as const;

/** The filters actually applied, echoed on the job. */
export interface AppliedAccountFilters {
  since: string | null;
  /** Null: up to now, at the time of discovery. */
  until: string | null;
  limit: number;
  keywords: { term: string; match: (typeof MATCHES)[number] } | null;
  minViews: number | null;
  minLikes: number | null;
  postType: PostType | null;
  [key: string]: unknown;
}

/** A bare date is the whole UTC day: `since` from its start, `until` to its end. */
function parseDate(value: string, field: string, end: boolean): string {
  const text = BARE_DATE.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new ApiError(400, `filters.${field} must be an ISO 8601 date or date-time`);
  return date.toISOString();
}

export function applyAccountFilters(filters: AccountFiltersDto | undefined): AppliedAccountFilters {
  const f = filters ?? {};
  const since = f.since !== undefined ? parseDate(f.since, 'since', false) : null;
  const until = f.until !== undefined ? parseDate(f.until, 'until', true) : null;
  if (since && until && since > until) throw new ApiError(400, 'filters.since must not be after filters.until');
  let keywords: AppliedAccountFilters['keywords'] = null;
  if (typeof f.keywords === 'string') {
    if (!f.keywords.trim()) throw new ApiError(400, 'filters.keywords must not be blank');
    keywords = { term: f.keywords.trim(), match: 'includes' };
  } else if (f.keywords !== undefined) {
    const k = f.keywords as { term?: unknown; match?: unknown };
    const extra = k && typeof k === 'object' ? Object.keys(k).filter((x) => x !== 'term' && x !== 'match') : [];
    if (!k || typeof k !== 'object' || typeof k.term !== 'string' || !k.term.trim() || extra.length > 0) {
      throw new ApiError(400, 'filters.keywords must be a string or { term, match }');
    }
    const match = k.match ?? 'includes';
    if (!(MATCHES as readonly unknown[]).includes(match)) throw new ApiError(400, `filters.keywords.match must be one of: ${MATCHES.join(', ')}`);
    keywords = { term: k.term.trim(), match: match as (typeof MATCHES)[number] };
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

export function accountQuery(filters: AppliedAccountFilters): AccountQuery {
  return {
    ...(filters.since ? { since: filters.since } : {}),
    ...(filters.until ? { until: filters.until } : {}),
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
