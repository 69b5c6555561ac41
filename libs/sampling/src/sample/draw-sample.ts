import { bucketOf, type Emotion, type ScoreVersion } from '@analyst/contracts';
import {
  mayBeNotable,
  NO_COMMENT_FILTER,
  rowsWithEmotion,
  selectRows,
  type CompiledCommentFilter,
} from '@analyst/domain-analysis';
import {
  candidateRows,
  type PostEntry,
  type RowDetails,
  type ScoredVersion,
  type TeamIndex,
} from '@analyst/comment-index';
import type { SortKey } from './sample-cursor';
import type { BucketFilters, Source } from './sample-query';

/** Row flags, also the source of `sampleReasons`. */
export const HIGH_ENGAGEMENT = 1;
export const HIGH_RELEVANCE = 2;
export const TOPIC_MATCH = 4;
export const MESSAGE_MATCH = 8;

/** High engagement: at least this many likes and at or above this percentile of the post's visible comments. */
export const ENGAGEMENT_MIN_LIKES = 1;
export const ENGAGEMENT_PERCENTILE = 0.9;
/** `meta.groups`: at most this many groups, each with at most this many sample comment ids. */
export const MAX_GROUPS = 50;
export const GROUP_SAMPLE_IDS = 3;

export interface SampleInput {
  team: TeamIndex;
  details: RowDetails;
  /** Newest first (the analysis's `postIds` order). */
  posts: readonly PostEntry[];
  /** The analysis's own filters (none on the post route); keyword search is folded in. */
  baseFilter: CompiledCommentFilter;
  /** AI search matches of the analysis, when it has one. */
  searchMatch: ((row: number) => boolean) | null;
  buckets: BucketFilters;
  /** The query's emotion filter (an extension of the spec); absent or empty: none. */
  emotions?: readonly Emotion[];
  version: ScoreVersion;
  source: Source;
  seed: number;
  after: SortKey | null;
  limit: number;
}

export interface SampleGroup {
  type: 'topic' | 'message';
  post: PostEntry;
  /** Index into the post's scored topics or messages. */
  index: number;
  commentCount: number;
  sampleRows: number[];
}

export interface SamplePage {
  rows: number[];
  flags: number[];
  /** Comments in the whole sample (every page). */
  total: number;
  /** Comments after this page. */
  remaining: number;
  last: SortKey | null;
  groups: SampleGroup[];
}

/** murmur3's 32-bit finalizer: spreads a seeded comment hash into a uniform sort position. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const thresholds = new WeakMap<ScoredVersion, number>();

/** The high-engagement floor of a post's visible comments' likes (sorted in place). */
export function likesFloor(likes: number[]): number {
  likes.sort((a, b) => a - b);
  const at = likes.length === 0 ? 0 : likes[Math.floor(ENGAGEMENT_PERCENTILE * (likes.length - 1))];
  return Math.max(ENGAGEMENT_MIN_LIKES, at);
}

/** A post version's high-engagement floor, from its visible comments (cached per scored version). */
export function engagementThreshold(team: TeamIndex, scored: ScoredVersion): number {
  let t = thresholds.get(scored);
  if (t !== undefined) return t;
  const likes: number[] = [];
  for (const r of scored.rows) if (team.columns.hidden[r] === 0) likes.push(team.columns.likes[r]);
  t = likesFloor(likes);
  thresholds.set(scored, t);
  return t;
}

/**
 * One page of a sample. The sample is every visible comment of the posts that passes the
 * analysis's filters and search, then the query's bucket filters (both through `selectRows`, so
 * through `bucketOf` with `version`), then the source. Its order is fixed by the seed: for `all`,
 * notable comments first (most notable first), then comments on a creator topic or message, then
 * the rest, the latter two in a seeded pseudo-random order. A page is the `limit` smallest keys
 * after the cursor's key, found in one pass without sorting the whole sample.
 */
export function drawSample(input: SampleInput): SamplePage {
  const rows = sampleRows(input);
  const keys = sortKeys(input, rows);
  const { set, tier, primary, secondary, size } = keys;
  const ids = input.team.commentIds;
  const compare = (i: number, j: number): number =>
    tier[i] - tier[j] ||
    primary[i] - primary[j] ||
    secondary[i] - secondary[j] ||
    (ids[set[i]] < ids[set[j]] ? -1 : ids[set[i]] > ids[set[j]] ? 1 : 0);
  const after = input.after;
  const isAfter = (i: number): boolean => {
    if (!after) return true;
    const d = tier[i] - after[0] || primary[i] - after[1] || secondary[i] - after[2];
    return d > 0 || (d === 0 && ids[set[i]] > after[3]);
  };
  const { best, eligible } = smallestAfter(size, input.limit, isAfter, compare);

  const lastAt = best.length > 0 ? best[best.length - 1] : -1;
  return {
    rows: best.map((i) => set[i]),
    flags: best.map((i) => keys.flags[i]),
    total: size,
    remaining: eligible - best.length,
    last: lastAt < 0 ? null : [tier[lastAt], primary[lastAt], secondary[lastAt], ids[set[lastAt]]],
    groups: groupsOf(input, set, size, compare),
  };
}

/** The visible comments of the posts that pass the analysis's filters and search, then the query's bucket and emotion filters. */
function sampleRows(input: SampleInput): Uint32Array {
  const { team, version } = input;
  const columns = team.columns;
  let rows = selectRows(columns, candidateRows(team, input.posts).rows, input.baseFilter, version);
  const searchMatch = input.searchMatch;
  if (searchMatch) rows = rows.filter((r) => searchMatch(r));
  if (Object.keys(input.buckets).length > 0)
    rows = selectRows(columns, rows, { ...NO_COMMENT_FILTER, buckets: input.buckets }, version);
  if (input.emotions?.length) rows = rowsWithEmotion(columns, rows, input.emotions);
  return rows;
}

/** A row's flags: high engagement (likes at or above its post's floor), high relevance, topic and message match. */
export function rowFlags(
  likes: number,
  engagementFloor: number,
  relevance: number,
  topicIndex: number,
  messageIndex: number,
  version: ScoreVersion,
): number {
  let flags = 0;
  if (likes >= engagementFloor) flags |= HIGH_ENGAGEMENT;
  if (relevance === relevance) {
    const bucket = bucketOf('relevance', relevance, version);
    if (bucket === 'positive' || bucket === 'lean_positive') flags |= HIGH_RELEVANCE;
  }
  if (topicIndex >= 0) flags |= TOPIC_MATCH;
  if (messageIndex >= 0) flags |= MESSAGE_MATCH;
  return flags;
}

const NOTABLE = HIGH_ENGAGEMENT | HIGH_RELEVANCE;
const ON_CONTENT = TOPIC_MATCH | MESSAGE_MATCH;

/**
 * A notable row of the sample: high engagement and high relevance, and allowed to be notable at all by
 * the rule the analysis's `notableComments` follows too (`mayBeNotable`: never off-topic, so never spam).
 */
export function isNotableRow(flags: number, relevance: number): boolean {
  return (flags & NOTABLE) === NOTABLE && mayBeNotable(relevance);
}

/** Whether a row with these flags and relevance belongs to the source's sample. */
export function inSource(source: Source, flags: number, relevance: number): boolean {
  if (source === 'notables') return isNotableRow(flags, relevance);
  if (source === 'content') return (flags & ON_CONTENT) !== 0;
  return true;
}

interface SortKeys {
  /** Sample position → row. */
  set: Uint32Array;
  flags: Uint8Array;
  tier: Uint8Array;
  primary: Float64Array;
  secondary: Float64Array;
  size: number;
}

/**
 * The sample's rows of the source with their sort keys: notable comments (outside `content`)
 * in tier 0 by likes and relevance, then comments on a topic or message (tier 1), then the rest
 * (tier 2), the latter two in the seed's order.
 */
function sortKeys(input: SampleInput, rows: ArrayLike<number>): SortKeys {
  const { team, details, version, seed } = input;
  const columns = team.columns;
  const floorByPost = new Map<number, number>();
  for (const p of input.posts) if (p.scored) floorByPost.set(p.index, engagementThreshold(team, p.scored));

  const n = rows.length;
  const keys: SortKeys = {
    set: new Uint32Array(n),
    flags: new Uint8Array(n),
    tier: new Uint8Array(n),
    primary: new Float64Array(n),
    secondary: new Float64Array(n),
    size: 0,
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const rel = columns.relevance[r];
    const floor = floorByPost.get(columns.postIndex[r]) ?? Infinity;
    const flags = rowFlags(
      columns.likes[r],
      floor,
      rel,
      details.topicIndex[r],
      details.messageIndex[r],
      version,
    );
    if (!inSource(input.source, flags, rel)) continue;
    const hash = details.idHash[r];
    const at = keys.size++;
    keys.set[at] = r;
    keys.flags[at] = flags;
    if (input.source !== 'content' && isNotableRow(flags, rel)) {
      keys.tier[at] = 0;
      keys.primary[at] = -(1 + Math.log1p(columns.likes[r])) * (rel / 10);
      keys.secondary[at] = mix32(hash ^ seed);
    } else {
      keys.tier[at] = (flags & ON_CONTENT) !== 0 ? 1 : 2;
      keys.primary[at] = mix32(hash ^ seed);
      keys.secondary[at] = hash;
    }
  }
  return keys;
}

/**
 * The `limit` smallest of positions `0..size-1` that are after the cursor, in order, kept sorted
 * by binary insertion (one pass, without sorting them all), and how many are after the cursor.
 */
export function smallestAfter(
  size: number,
  limit: number,
  isAfter: (i: number) => boolean,
  compare: (i: number, j: number) => number,
): { best: number[]; eligible: number } {
  const best: number[] = [];
  let eligible = 0;
  for (let i = 0; i < size; i++) {
    if (!isAfter(i)) continue;
    eligible++;
    if (best.length === limit && compare(i, best[limit - 1]) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid], i) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, i);
    if (best.length > limit) best.pop();
  }
  return { best, eligible };
}

/** Creator topics and messages of each post with the sample's comments on them, first comments in sample order. */
function groupsOf(
  input: SampleInput,
  set: Uint32Array,
  size: number,
  compare: (i: number, j: number) => number,
): SampleGroup[] {
  const { team, details } = input;
  const byKey = new Map<
    number,
    { type: 'topic' | 'message'; postIndex: number; index: number; count: number; first: number[] }
  >();
  const add = (type: 'topic' | 'message', i: number, index: number): void => {
    const postIndex = team.columns.postIndex[set[i]];
    const key = (postIndex * 65_536 + index) * 2 + (type === 'message' ? 1 : 0);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { type, postIndex, index, count: 0, first: [] }));
    g.count++;
    if (g.first.length === GROUP_SAMPLE_IDS && compare(i, g.first[GROUP_SAMPLE_IDS - 1]) >= 0) return;
    let at = g.first.length;
    while (at > 0 && compare(g.first[at - 1], i) > 0) at--;
    g.first.splice(at, 0, i);
    if (g.first.length > GROUP_SAMPLE_IDS) g.first.pop();
  };
  for (let i = 0; i < size; i++) {
    const r = set[i];
    if (details.topicIndex[r] >= 0) add('topic', i, details.topicIndex[r]);
    if (details.messageIndex[r] >= 0) add('message', i, details.messageIndex[r]);
  }
  const order = new Map(input.posts.map((p, i) => [p.index, i]));
  const groups: SampleGroup[] = [];
  for (const g of byKey.values()) {
    const post = team.posts[g.postIndex];
    const known = g.type === 'topic' ? post.scored?.topics : post.scored?.messages;
    if (!known || g.index >= known.length) continue;
    groups.push({
      type: g.type,
      post,
      index: g.index,
      commentCount: g.count,
      sampleRows: g.first.map((i) => set[i]),
    });
  }
  groups.sort(
    (a, b) =>
      b.commentCount - a.commentCount ||
      (order.get(a.post.index) ?? 0) - (order.get(b.post.index) ?? 0) ||
      (a.type === b.type ? 0 : a.type === 'topic' ? -1 : 1) ||
      a.index - b.index,
  );
  return groups.slice(0, MAX_GROUPS);
}
