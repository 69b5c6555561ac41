import { CUTOFFS, DIMENSIONS, hasNeutralBucket, type Dimension, type ScoreVersion } from '@analyst/contracts';
import type { CommentColumns } from './columns';
import { mixOf, type Mix } from './mix';
import { ROLLUP_CONSTANTS, roundTo, type RollupSettings } from './rollup-settings';
import { sentimentReadingAt } from './sentiment-reading';
import { engagementWeigher, negativityCeiling, replyPoolFactor } from './weights';

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

/**
 * `bucketOf` as an index into BUCKET_KEYS, with the per-dimension branch taken once: the hot loop
 * calls it 5M times on 1M comments. A property test pins it to `bucketOf` itself.
 */
export function bucketIndexer(dimension: Dimension, version: ScoreVersion): (score: number) => number {
  const { positive, leanPositive, neutralLow, leanNegative, split } = CUTOFFS;
  if (hasNeutralBucket(dimension, version)) {
    return (x) => (x >= positive ? 0 : x < leanNegative ? 4 : x >= leanPositive ? 1 : x >= neutralLow ? 2 : 3);
  }
  return (x) => (x >= positive ? 0 : x < leanNegative ? 4 : x >= split ? 1 : 3);
}

/** Blend of the three readings; weights renormalised over the readings present. */
export function blendServiceScore(sentiment: number | null, relevance: number | null, consensus: number | null): number | null {
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

  // [dimension] sums for top-level (t) and replies (r), and bucket counts at [dimension * 5 + bucket].
  const sumT = new Float64Array(5);
  const wT = new Float64Array(5);
  const sumR = new Float64Array(5);
  const wR = new Float64Array(5);
  const tally = new Uint32Array(25);
  let veryNegative = 0;
  let readings = 0;
  let fullyScored = 0;
  let anyScored = 0;
  const cutoff = ROLLUP_CONSTANTS.veryNegativeBelow;
  // The same rule as `bucketIndexer` (and so `bucketOf`), written out here: this loop runs 5M times
  // on 1M comments, and per-dimension closures cost a third of it.
  const { positive, leanPositive, neutralLow, leanNegative, split } = CUTOFFS;
  const neutral = new Uint8Array(ORDER.map((d) => (hasNeutralBucket(d, version) ? 1 : 0)));
  const weighted = v3 && maxLikes > 0;

  const add = (d: number, x: number, weight: number, reply: boolean): void => {
    if (reply) {
      sumR[d] += weight * x;
      wR[d] += weight;
    } else {
      sumT[d] += weight * x;
      wT[d] += weight;
    }
    const b =
      x >= positive ? 0 : x < leanNegative ? 4 : neutral[d] === 1 ? (x >= leanPositive ? 1 : x >= neutralLow ? 2 : 3) : x >= split ? 1 : 3;
    tally[d * 5 + b]++;
  };

  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const w = weighted ? weigh(likes[r]) : 1;
    const reply = v3 && isReply[r] === 1;
    let scored = 0;
    const s = sentimentReadingAt(columns, r, version);
    if (s === s) {
      scored++;
      add(D_SENTIMENT, s, w, reply);
      readings++;
      if (s < cutoff) veryNegative++;
    }
    const c = content[r];
    if (c === c) {
      scored++;
      add(D_CONTENT, c, w, reply);
    }
    const t = topic[r];
    if (t === t) {
      scored++;
      add(D_TOPIC, t, w, reply);
    }
    const rel = relevance[r];
    if (rel === rel) {
      scored++;
      add(D_RELEVANCE, rel, 1, reply);
    }
    const con = consensus[r];
    if (con === con) {
      scored++;
      add(D_CONSENSUS, con, 1, reply);
    }
    if (scored === 5) fullyScored++;
    if (scored > 0) anyScored++;
  }
  const counts = ORDER.map((_, d) => tally.slice(d * 5, d * 5 + 5));

  const mean = (d: number): number | null => {
    const k = v3 ? replyPoolFactor(wT[d], wR[d]) : 1;
    const w = wT[d] + k * wR[d];
    return w > 0 ? (sumT[d] + k * sumR[d]) / w : null;
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
