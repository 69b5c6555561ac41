import { BUCKET_KEYS, type BucketKey } from '@analyst/contracts';
import { validateRequest } from '@analyst/platform';
import { normalizeLink } from '@analyst/links';
import { calendarInstant } from '../validation/query-value.rules';
import { refuseAs } from '../validation/refusal';
import { PostQueryDto } from './post-query.dto';
import type { PostQuery } from './post-query';

/** A link as the content routes store it (`normalizedLink`), so any form of the URL finds its post. */
const linkKey = (value: string): string => normalizeLink(value) ?? value;

export const normalizeAccount = (value: string): string => {
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

/** Post filters from query parameters or a JSON object; a 400 invalid_filter names each bad field. */
export function parsePostQuery(raw: Record<string, unknown>): PostQuery {
  return postQueryOf(validateRequest(PostQueryDto, raw, refuseAs('invalid_filter')));
}
