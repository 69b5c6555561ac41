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
  const bucketTests = bucketTestsOf(filter.buckets);
  const keywords = filter.keywords;
  const excluded = filter.excludeKeywords.filter((p): p is readonly number[] => p !== null);
  const allKeywords = filter.keywordMatch === 'all';
  const anyKeywordPossible = keywords.some((p) => p !== null);

  for (let i = 0; i < candidates.length; i++) {
    const r = candidates[i];
    if (!passesFields(columns, r, filter)) continue;
    if (!passesBuckets(columns, r, bucketTests, version)) continue;
    if (keywords.length > 0 && !passesKeywords(columns, r, keywords, allKeywords, anyKeywordPossible))
      continue;
    if (excluded.some((phrase) => containsPhrase(columns, r, phrase))) continue;
    out[n++] = r;
  }
  return out.subarray(0, n);
}

interface BucketTest {
  dimension: Dimension;
  /** One bit per accepted bucket, at `BUCKET_INDEX`. */
  mask: number;
}

/** The bucket filters as one bit mask per filtered dimension (an empty list filters nothing). */
function bucketTestsOf(buckets: CompiledCommentFilter['buckets']): BucketTest[] {
  const tests: BucketTest[] = [];
  for (const [dimension, keys] of Object.entries(buckets) as [Dimension, readonly BucketKey[]][]) {
    if (!keys || keys.length === 0) continue;
    let mask = 0;
    for (const key of keys) mask |= 1 << BUCKET_INDEX[key];
    tests.push({ dimension, mask });
  }
  return tests;
}

/** Visibility, likes, the date range, the presence filters and the authors. */
function passesFields(columns: CommentColumns, r: number, filter: CompiledCommentFilter): boolean {
  if (columns.hidden[r] === 1) return false;
  if (columns.likes[r] < filter.minLikes) return false;
  if (filter.sinceSec !== null && columns.postedAt[r] < filter.sinceSec) return false;
  if (filter.untilSec !== null && columns.postedAt[r] > filter.untilSec) return false;
  if (!passes(filter.creator, columns.isCreator[r])) return false;
  if (!passes(filter.replies, columns.isReply[r])) return false;
  if (!passes(filter.questions, columns.hasQuestion[r])) return false;
  if (!passes(filter.mentions, columns.hasMention[r])) return false;
  if (!passes(filter.emoji, columns.hasEmoji[r])) return false;
  if (filter.authors && !filter.authors.has(columns.authorId[r])) return false;
  return !(filter.excludeAuthors && filter.excludeAuthors.has(columns.authorId[r]));
}

/** Every bucket test: the row is scored on the dimension and its bucket is one of the accepted. */
function passesBuckets(
  columns: CommentColumns,
  r: number,
  tests: readonly BucketTest[],
  version: ScoreVersion,
): boolean {
  for (const test of tests) {
    const value =
      test.dimension === 'sentiment' ? sentimentReadingAt(columns, r, version) : columns[test.dimension][r];
    if (value !== value || (test.mask & (1 << BUCKET_INDEX[bucketOf(test.dimension, value, version)])) === 0)
      return false;
  }
  return true;
}

/** `all`: every phrase is in the comment (an unknown word matches nothing); `any`: at least one is. */
function passesKeywords(
  columns: CommentColumns,
  r: number,
  keywords: CompiledCommentFilter['keywords'],
  allKeywords: boolean,
  anyKeywordPossible: boolean,
): boolean {
  if (allKeywords) return keywords.every((phrase) => phrase !== null && containsPhrase(columns, r, phrase));
  return (
    anyKeywordPossible && keywords.some((phrase) => phrase !== null && containsPhrase(columns, r, phrase))
  );
}
