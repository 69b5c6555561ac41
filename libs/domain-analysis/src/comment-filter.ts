import { bucketOf, type BucketKey, type Dimension, type ScoreVersion } from '@analyst/contracts';
import type { CommentColumns } from './columns';
import { BUCKET_INDEX } from './mix';
import { sentimentReadingAt } from './sentiment-reading';

export type Presence = 'include' | 'exclude' | 'only';

/**
 * Comment filters resolved against the index: bucket sets per dimension, keyword phrases as token
 * id sequences (null = a phrase that cannot occur), authors as interned ids, times in seconds.
 */
export interface CompiledCommentFilter {
  buckets: Partial<Record<Dimension, readonly BucketKey[]>>;
  keywords: readonly (readonly number[] | null)[];
  keywordMatch: 'any' | 'all';
  excludeKeywords: readonly (readonly number[] | null)[];
  authors: ReadonlySet<number> | null;
  excludeAuthors: ReadonlySet<number> | null;
  creator: Presence;
  replies: Presence;
  questions: Presence;
  mentions: Presence;
  emoji: Presence;
  minLikes: number;
  sinceSec: number | null;
  untilSec: number | null;
}

export const NO_COMMENT_FILTER: CompiledCommentFilter = {
  buckets: {},
  keywords: [],
  keywordMatch: 'any',
  excludeKeywords: [],
  authors: null,
  excludeAuthors: null,
  creator: 'include',
  replies: 'include',
  questions: 'include',
  mentions: 'include',
  emoji: 'include',
  minLikes: 0,
  sinceSec: null,
  untilSec: null,
};

function passes(presence: Presence, flag: number): boolean {
  return presence === 'include' || (presence === 'only' ? flag === 1 : flag === 0);
}

/** Whether the row's tokens contain the phrase as a contiguous run. */
export function containsPhrase(columns: CommentColumns, row: number, phrase: readonly number[]): boolean {
  const start = columns.tokenStart[row];
  const end = columns.tokenStart[row + 1] - phrase.length;
  const ids = columns.tokenIds;
  const first = phrase[0];
  for (let i = start; i <= end; i++) {
    if (ids[i] !== first) continue;
    let j = 1;
    while (j < phrase.length && ids[i + j] === phrase[j]) j++;
    if (j === phrase.length) return true;
  }
  return false;
}

/**
 * Rows among `candidates` that pass every active filter. Hidden comments never pass. A comment
 * unscored on a dimension with a bucket filter does not pass it. Buckets come from `bucketOf`
 * over the same readings the rollup uses.
 */
export function selectRows(
  columns: CommentColumns,
  candidates: ArrayLike<number>,
  filter: CompiledCommentFilter,
  version: ScoreVersion,
): Uint32Array {
  const out = new Uint32Array(candidates.length);
  let n = 0;
  const bucketTests: { dimension: Dimension; mask: number }[] = [];
  for (const [dimension, keys] of Object.entries(filter.buckets) as [Dimension, readonly BucketKey[]][]) {
    if (!keys || keys.length === 0) continue;
    let mask = 0;
    for (const key of keys) mask |= 1 << BUCKET_INDEX[key];
    bucketTests.push({ dimension, mask });
  }
  const keywords = filter.keywords;
  const excluded = filter.excludeKeywords.filter((p): p is readonly number[] => p !== null);
  const allKeywords = filter.keywordMatch === 'all';
  const anyKeywordPossible = keywords.some((p) => p !== null);
  const { since, until } = { since: filter.sinceSec, until: filter.untilSec };

  for (let i = 0; i < candidates.length; i++) {
    const r = candidates[i];
    if (columns.hidden[r] === 1) continue;
    if (columns.likes[r] < filter.minLikes) continue;
    if (since !== null && columns.postedAt[r] < since) continue;
    if (until !== null && columns.postedAt[r] > until) continue;
    if (!passes(filter.creator, columns.isCreator[r])) continue;
    if (!passes(filter.replies, columns.isReply[r])) continue;
    if (!passes(filter.questions, columns.hasQuestion[r])) continue;
    if (!passes(filter.mentions, columns.hasMention[r])) continue;
    if (!passes(filter.emoji, columns.hasEmoji[r])) continue;
    if (filter.authors && !filter.authors.has(columns.authorId[r])) continue;
    if (filter.excludeAuthors && filter.excludeAuthors.has(columns.authorId[r])) continue;
    let ok = true;
    for (const test of bucketTests) {
      const value =
        test.dimension === 'sentiment' ? sentimentReadingAt(columns, r, version) : columns[test.dimension][r];
      if (
        value !== value ||
        (test.mask & (1 << BUCKET_INDEX[bucketOf(test.dimension, value, version)])) === 0
      ) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (keywords.length > 0) {
      if (allKeywords) {
        for (const phrase of keywords) {
          if (phrase === null || !containsPhrase(columns, r, phrase)) {
            ok = false;
            break;
          }
        }
      } else {
        ok = false;
        if (anyKeywordPossible) {
          for (const phrase of keywords) {
            if (phrase !== null && containsPhrase(columns, r, phrase)) {
              ok = true;
              break;
            }
          }
        }
      }
      if (!ok) continue;
    }
    for (const phrase of excluded) {
      if (containsPhrase(columns, r, phrase)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    out[n++] = r;
  }
  return out.subarray(0, n);
}
