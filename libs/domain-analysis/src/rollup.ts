import { CUTOFFS, DIMENSIONS, type Dimension, type ScoreVersion } from '@analyst/contracts';
import type { CommentColumns } from './columns';
import { mixOf, type Mix } from './mix';
import { ROLLUP_CONSTANTS, roundTo, type RollupSettings } from './rollup-settings';
import { BUCKET_TABLE_MAX_INDEX, bucketSlot, bucketTable } from './bucket-table';
import { engagementWeigher, negativityCeiling, replyPoolFactor } from './weights';
import { leansNeither } from './sentiment-reading';

export interface RollupScores {
  scoreVersion: ScoreVersion;
  serviceScore: number | null;
  sentiment: number | null;
  relevance: number | null;
  consensus: number | null;
  content: number | null;
  topic: number | null;
}

export interface Rollup {
  scores: RollupScores;
  mix: Record<Dimension, Mix>;
  /** Comments per bucket per dimension, in BUCKET_KEYS order. */
  counts: Record<Dimension, Uint32Array>;
  /** Rows rolled up. */
  comments: number;
  /** Rows scored on every dimension. */
  fullyScored: number;
  /** Rows scored on at least one dimension. */
  anyScored: number;
  /** Share of sentiment readings below the very-negative cutoff (0..1). */
  veryNegativeShare: number;
  /** v3 ceiling applied (10 when no cap, or in v1/v2). */
  ceiling: number;
}

const D_SENTIMENT = 0;
const D_CONTENT = 1;
const D_TOPIC = 2;
const D_RELEVANCE = 3;
const D_CONSENSUS = 4;
const ORDER: Dimension[] = ['sentiment', 'content', 'topic', 'relevance', 'consensus'];

/** `bucketOf` as an index into BUCKET_KEYS, for callers bucketing many scores of one dimension. */
export function bucketIndexer(dimension: Dimension, version: ScoreVersion): (score: number) => number {
  const table = bucketTable(dimension, version);
  return (score) => table[bucketSlot(score)];
}

/** The five dimensions' bucket tables end to end, entry d·21+k holding d·5 + bucket (a slot in the tally). */
const ROLLUP_TABLES = new Map<ScoreVersion, Uint8Array>();
function rollupTable(version: ScoreVersion): Uint8Array {
  let table = ROLLUP_TABLES.get(version);
  if (!table) {
    const width = BUCKET_TABLE_MAX_INDEX + 1;
    table = new Uint8Array(ORDER.length * width);
    ORDER.forEach((dimension, d) => table!.set(bucketTable(dimension, version, d * 5), d * width));
    ROLLUP_TABLES.set(version, table);
  }
  return table;
}

// The very-negative share is read off the sentiment tally's negative bar, so the two must agree.
if (ROLLUP_CONSTANTS.veryNegativeBelow !== CUTOFFS.leanNegative)
  throw new Error('veryNegativeBelow must equal the negative bucket cutoff');

/**
 * Engagement weights for likes 0..size-1 computed once: a log and a power per comment cost more than
 * the rest of the v3 loop. Counts beyond the table (or fractional) are weighed directly.
 */
function weightLookup(
  weigh: (likes: number) => number,
  maxLikes: number,
  rows: number,
): (likes: number) => number {
  const size = Math.min(maxLikes + 1, 65_536, Math.ceil(rows / 4));
  if (size < 256) return weigh;
  const table = new Float64Array(size);
  for (let l = 0; l < size; l++) table[l] = weigh(l);
  return (likes) => (likes < size && Math.floor(likes) === likes ? table[likes] : weigh(likes));
}

/** Blend of the three readings; weights renormalised over the readings present. */
export function blendServiceScore(
  sentiment: number | null,
  relevance: number | null,
  consensus: number | null,
): number | null {
  const { blend } = ROLLUP_CONSTANTS;
  let sum = 0;
  let weight = 0;
  if (sentiment !== null) {
    sum += blend.sentiment * sentiment;
    weight += blend.sentiment;
  }
  if (relevance !== null) {
    sum += blend.relevance * relevance;
    weight += blend.relevance;
  }
  if (consensus !== null) {
    sum += blend.consensus * consensus;
    weight += blend.consensus;
  }
  return weight === 0 ? null : sum / weight;
}

/**
 * Rolls up the given rows (already filtered: hidden comments out) under a score version.
 * v1: plain means of the stored scores. v2: sentiment is the per-comment content/topic average.
 * v3: v2 plus engagement weights on sentiment readings, the capped reply pool on every dimension,
 * and the negativity ceiling on sentiment and serviceScore. Mixes always count comments.
 */
export function rollup(columns: CommentColumns, rows: ArrayLike<number>, settings: RollupSettings): Rollup {
  const version = settings.scoreVersion;
  const v3 = version === 3;
  const n = rows.length;
  const { content, topic, relevance, consensus, likes, isReply } = columns;

  let maxLikes = 0;
  if (v3 && settings.engagementWeight > 0) {
    for (let i = 0; i < n; i++) {
      const l = likes[rows[i]];
      if (l > maxLikes) maxLikes = l;
    }
  }
  const weigh = engagementWeigher(maxLikes, settings.engagementWeight);

  // Sums and weights at [dimension · 2 + isReply] (v1/v2 never split replies), bucket counts at
  // [dimension · 5 + bucket]. Indexing by the reply flag instead of branching on it, and bucketing by
  // table lookup, keeps the loop free of branches that random scores would mispredict.
  const sums = new Float64Array(10);
  const weights = new Float64Array(10);
  const tally = new Uint32Array(25);
  const table = rollupTable(version);
  const W = BUCKET_TABLE_MAX_INDEX + 1;
  const weighted = v3 && maxLikes > 0;
  const weightOf = weighted ? weightLookup(weigh, maxLikes, n) : weigh;
  const sentimentStored = columns.sentiment;
  let readings = 0;
  let fullyScored = 0;
  let anyScored = 0;

  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const w = weighted ? weightOf(likes[r]) : 1;
    const reply = v3 ? isReply[r] : 0;
    const c = content[r];
    const t = topic[r];
    // sentimentReadingAt, inlined: v1 the stored score; v2/v3 the content/topic average or whichever exists.
    const blended =
      version === 1
        ? sentimentStored[r]
        : c === c
          ? t === t
            ? (c + t) * 0.5
            : c
          : t === t
            ? t
            : sentimentStored[r];
    // v3 has no neutral bucket: a reading of 5 leans neither way and is left unscored (leansNeither).
    const s = v3 && leansNeither(blended) ? Number.NaN : blended;
    const rel = relevance[r];
    const con = consensus[r];
    let scored = 0;
    if (s === s) {
      scored++;
      readings++;
      sums[reply] += w * s;
      weights[reply] += w;
      tally[table[bucketSlot(s)]]++;
    }
    if (c === c) {
      scored++;
      sums[2 + reply] += w * c;
      weights[2 + reply] += w;
      tally[table[W + bucketSlot(c)]]++;
    }
    if (t === t) {
      scored++;
      sums[4 + reply] += w * t;
      weights[4 + reply] += w;
      tally[table[2 * W + bucketSlot(t)]]++;
    }
    if (rel === rel) {
      scored++;
      sums[6 + reply] += rel;
      weights[6 + reply] += 1;
      tally[table[3 * W + bucketSlot(rel)]]++;
    }
    if (con === con) {
      scored++;
      sums[8 + reply] += con;
      weights[8 + reply] += 1;
      tally[table[4 * W + bucketSlot(con)]]++;
    }
    if (scored === 5) fullyScored++;
    if (scored > 0) anyScored++;
  }
  const veryNegative = tally[D_SENTIMENT * 5 + 4];
  const counts = ORDER.map((_, d) => tally.slice(d * 5, d * 5 + 5));

  const mean = (d: number): number | null => {
    const [sT, sR, wT, wR] = [sums[2 * d], sums[2 * d + 1], weights[2 * d], weights[2 * d + 1]];
    const k = v3 ? replyPoolFactor(wT, wR) : 1;
    const w = wT + k * wR;
    return w > 0 ? (sT + k * sR) / w : null;
  };
  const veryNegativeShare = readings > 0 ? veryNegative / readings : 0;
  const ceiling = v3 ? negativityCeiling(veryNegativeShare) : 10;
  const cap = (x: number | null): number | null => (x === null ? null : Math.min(x, ceiling));
  const round = (x: number | null): number | null =>
    x === null ? null : roundTo(Math.min(10, Math.max(1, x)), ROLLUP_CONSTANTS.scoreDecimals);

  const sentimentScore = cap(mean(D_SENTIMENT));
  const relevanceScore = mean(D_RELEVANCE);
  const consensusScore = mean(D_CONSENSUS);
  const service = cap(blendServiceScore(sentimentScore, relevanceScore, consensusScore));

  const mix = {} as Record<Dimension, Mix>;
  const countsBy = {} as Record<Dimension, Uint32Array>;
  ORDER.forEach((dimension, d) => {
    mix[dimension] = mixOf(counts[d]);
    countsBy[dimension] = counts[d];
  });
  return {
    scores: {
      scoreVersion: version,
      serviceScore: round(service),
      sentiment: round(sentimentScore),
      relevance: round(relevanceScore),
      consensus: round(consensusScore),
      content: round(mean(D_CONTENT)),
      topic: round(mean(D_TOPIC)),
    },
    mix: Object.fromEntries(DIMENSIONS.map((d) => [d, mix[d]])) as Record<Dimension, Mix>,
    counts: countsBy,
    comments: n,
    fullyScored,
    anyScored,
    veryNegativeShare,
    ceiling,
  };
}
