import { BUCKET_KEYS, type ScoreVersion } from '@analyst/contracts';
import {
  columnsOf,
  allRows,
  rollup,
  engagementWeight,
  negativityCeiling,
  replyPoolFactor,
  mixOf,
  blendServiceScore,
  ROLLUP_CONSTANTS,
  type CommentRow,
} from '../src';

const s = (
  sentiment: number | null,
  content: number | null,
  topic: number | null,
  relevance: number | null,
  consensus: number | null,
) => ({
  sentiment,
  content,
  topic,
  relevance,
  consensus,
});
const roll = (rows: CommentRow[], scoreVersion: ScoreVersion, engagementWeight = 1) => {
  const columns = columnsOf(rows);
  return rollup(columns, allRows(columns), { scoreVersion, engagementWeight });
};
const repeat = (n: number, row: CommentRow): CommentRow[] => Array.from({ length: n }, () => row);

describe('chosen constants (README decisions table)', () => {
  it('blends sentiment 0.6, relevance 0.2, consensus 0.2; weights 1..5; reply pool 50%; cap curve', () => {
    expect(ROLLUP_CONSTANTS.blend).toEqual({ sentiment: 0.6, relevance: 0.2, consensus: 0.2 });
    expect([ROLLUP_CONSTANTS.minEngagementWeight, ROLLUP_CONSTANTS.maxEngagementWeight]).toEqual([1, 5]);
    expect(ROLLUP_CONSTANTS.replyPoolShare).toBe(0.5);
    expect(ROLLUP_CONSTANTS.veryNegativeBelow).toBe(3);
    expect(ROLLUP_CONSTANTS.capCurve).toEqual([
      [0, 10],
      [0.05, 10],
      [0.12, 8.5],
      [0.25, 7],
      [0.5, 5.5],
      [1, 5.5],
    ]);
  });
});

describe('score versions over the same stored scores', () => {
  const rows: CommentRow[] = [{ scores: s(2, 9, 1, 6, 4) }, { scores: s(8, 3, 5, 8, 6) }];
  it.each([
    // v1: stored sentiment 2 and 8 -> 5; service 0.6*5 + 0.2*7 + 0.2*5 = 5.4
    [1, { sentiment: 5, relevance: 7, consensus: 5, content: 6, topic: 3, serviceScore: 5.4 }],
    // v2: readings (9+1)/2 = 5 and (3+5)/2 = 4 -> 4.5; service 2.7 + 1.4 + 1 = 5.1
    [2, { sentiment: 4.5, relevance: 7, consensus: 5, content: 6, topic: 3, serviceScore: 5.1 }],
    // v3 with no likes, no replies, nothing below 3: as v2, except that the reading (9+1)/2 = 5 leans neither
    // way and is unscored (no neutral bucket in v3): sentiment 4; service 2.4 + 1.4 + 1 = 4.8
    [3, { sentiment: 4, relevance: 7, consensus: 5, content: 6, topic: 3, serviceScore: 4.8 }],
  ] as const)('v%s', (version, expected) => {
    expect(roll(rows, version).scores).toEqual({ scoreVersion: version, ...expected });
  });
});

describe('v3 negativity cap', () => {
  it.each([
    [0, 10],
    [0.05, 10],
    [0.085, 9.25],
    [0.12, 8.5],
    [0.185, 7.75],
    [0.25, 7],
    [0.375, 6.25],
    [0.5, 5.5],
    [1, 5.5],
  ])('share %s -> ceiling %s', (share, ceiling) => {
    expect(negativityCeiling(share)).toBeCloseTo(ceiling, 10);
  });

  const data = [
    ...repeat(12, { scores: s(1, 1, 1, 10, 10) }),
    ...repeat(88, { scores: s(10, 10, 10, 10, 10) }),
  ];
  it('12% very negative caps sentiment and serviceScore at 8.5 in v3', () => {
    const r = roll(data, 3);
    // mean reading (12*1 + 88*10)/100 = 8.92 -> ceiling 8.5; service 0.6*8.5 + 4 = 9.1 -> 8.5
    expect(r.veryNegativeShare).toBeCloseTo(0.12, 10);
    expect(r.ceiling).toBeCloseTo(8.5, 10);
    expect(r.scores.sentiment).toBe(8.5);
    expect(r.scores.serviceScore).toBe(8.5);
    expect(r.scores.content).toBe(8.92); // components are not capped
  });
  it('v2 has no cap on the same comments', () => {
    const r = roll(data, 2);
    expect(r.scores.sentiment).toBe(8.92);
    expect(r.scores.serviceScore).toBe(9.35); // 0.6*8.92 + 4 = 9.352
  });
});

describe('v3 engagement weighting', () => {
  it.each([
    [0, 99, 1, 1],
    [99, 99, 1, 5],
    [9, 99, 1, 3], // ln10/ln100 = 0.5 -> 1 + 4*0.5
    [9, 99, 2, 1 + 4 * Math.SQRT1_2],
    [9, 99, 0.5, 2], // 1 + 4*0.25
    [9, 99, 0, 1], // engagementWeight 0 turns it off
    [5, 0, 1, 1],
  ])('likes %s of max %s with engagementWeight %s weighs %s', (likes, max, e, w) => {
    expect(engagementWeight(likes, max, e)).toBeCloseTo(w, 10);
  });

  const rows: CommentRow[] = [
    { scores: s(null, 10, 10, 2, 2), likes: 99 },
    { scores: s(null, 4, 4, 8, 8), likes: 0 },
  ];
  it('weights sentiment readings by likes but not relevance or consensus', () => {
    // sentiment (5*10 + 1*4)/6 = 9; relevance/consensus (2+8)/2 = 5; service 5.4 + 1 + 1 = 7.4
    expect(roll(rows, 3).scores).toMatchObject({
      sentiment: 9,
      relevance: 5,
      consensus: 5,
      serviceScore: 7.4,
      content: 9,
      topic: 9,
    });
  });
  it('large rollups (weights looked up from a table) weigh exactly as engagementWeight does', () => {
    // 4,000 comments with likes up to 3,000 (plus fractional and very large counts, weighed directly).
    // Unliked comments read 3 and liked ones 10, so any slip in a weight moves the mean visibly.
    const many: CommentRow[] = Array.from({ length: 4000 }, (_, i) => {
      const likes = i === 7 ? 250_000 : i % 2 === 0 ? 0 : i % 11 === 0 ? 2.5 : (i * 37) % 3001;
      return { scores: likes === 0 ? s(null, 3, 3, 5, 5) : s(null, 10, 10, 5, 5), likes };
    });
    const maxLikes = 250_000;
    let sum = 0;
    let weight = 0;
    for (const row of many) {
      const w = engagementWeight(row.likes!, maxLikes, 1.5);
      sum += w * ((row.scores.content! + row.scores.topic!) / 2);
      weight += w;
    }
    expect(roll(many, 3, 1.5).scores.sentiment).toBe(Math.round((sum / weight) * 100) / 100);
  });
  it('engagementWeight 0 and v2 ignore likes', () => {
    expect(roll(rows, 3, 0).scores.sentiment).toBe(7);
    expect(roll(rows, 2).scores.sentiment).toBe(7);
  });
});

describe('v3 reply pool', () => {
  it.each([
    [1, 4, 0.125],
    [1, 1, 0.5],
    [2, 1, 1],
    [0, 3, 1],
    [3, 0, 1],
  ])('top %s, replies %s -> factor %s', (top, reply, factor) => {
    expect(replyPoolFactor(top, reply)).toBe(factor);
  });

  const thread: CommentRow[] = [
    { scores: s(8, 8, 8, 10, 10) },
    ...repeat(4, { scores: s(4, 4, 4, 4, 4), isReply: true }),
  ];
  it('replies share a pool of half the top-level weight, on every dimension', () => {
    // k = 0.5*1/4 = 0.125: sentiment (8 + 0.125*16)/(1 + 0.5) = 6.67; relevance (10 + 2)/1.5 = 8
    expect(roll(thread, 3, 0).scores).toMatchObject({ sentiment: 6.67, relevance: 8, consensus: 8 });
  });
  it('v2 counts replies like any comment', () => {
    expect(roll(thread, 2).scores).toMatchObject({ sentiment: 4.8, relevance: 5.2, consensus: 5.2 });
  });
});

describe('buckets and mixes', () => {
  it('v3 sentiment has no neutral bar (4.5-5.5 split at 5, a reading of 5 unscored); v1/v2 use it', () => {
    const rows = [
      { scores: s(5, 5, 5, 5, 5) },
      { scores: s(4.9, 4.9, 4.9, 4.9, 4.9) },
      { scores: s(5.1, 5.1, 5.1, 5.1, 5.1) },
    ];
    // 5 no longer falls into lean_positive by the >= tie: it is left out, so the two others make the mix.
    expect(roll(rows, 3).mix.sentiment).toEqual({
      positivePercent: 0,
      leanPositivePercent: 50,
      neutralPercent: 0,
      leanNegativePercent: 50,
      negativePercent: 0,
    });
    expect(Array.from(roll(rows, 3).counts.sentiment)).toEqual([0, 1, 0, 1, 0]);
    expect(roll(rows, 3).scores.sentiment).toBe(5);
    expect(roll(rows, 2).mix.sentiment).toEqual({
      positivePercent: 0,
      leanPositivePercent: 0,
      neutralPercent: 100,
      leanNegativePercent: 0,
      negativePercent: 0,
    });
    // content and topic always have five buckets; relevance and consensus never a neutral one
    expect(roll(rows, 3).mix.content.neutralPercent).toBe(100);
    expect(roll(rows, 1).mix.relevance.neutralPercent).toBe(0);
  });
  it('cutoffs: >=7.5 positive, >=5.5 lean positive, <3 negative', () => {
    const rows = [7.5, 7.4, 5.5, 4.5, 4.4, 3, 2.9].map((x) => ({ scores: s(x, x, x, x, x) }));
    const counts = Array.from(roll(rows, 2).counts.topic);
    expect(counts).toEqual([1, 2, 1, 2, 1]);
    expect(BUCKET_KEYS).toEqual(['positive', 'lean_positive', 'neutral', 'lean_negative', 'negative']);
  });
  it('rounds each bar to 0.1 of a percent', () => {
    expect(mixOf([1, 1, 1, 0, 0])).toEqual({
      positivePercent: 33.3,
      leanPositivePercent: 33.3,
      neutralPercent: 33.3,
      leanNegativePercent: 0,
      negativePercent: 0,
    });
    expect(mixOf([2, 0, 0, 0, 1])).toMatchObject({ positivePercent: 66.7, negativePercent: 33.3 });
  });
  it('rounds an exact half up even where the binary quotient falls just below it', () => {
    // 979 of 2000 is 48.95%; (979 / 2000) * 100 is 48.949999… in floating point (found by the property test).
    expect(mixOf([1, 9, 470, 979, 541])).toEqual({
      positivePercent: 0.1,
      leanPositivePercent: 0.5,
      neutralPercent: 23.5,
      leanNegativePercent: 49,
      negativePercent: 27.1,
    });
  });
});

describe('empty and unscored input', () => {
  it('no comments: null scores, zero mixes', () => {
    const r = roll([], 3);
    expect(r.scores).toEqual({
      scoreVersion: 3,
      serviceScore: null,
      sentiment: null,
      relevance: null,
      consensus: null,
      content: null,
      topic: null,
    });
    expect(r.mix.sentiment).toEqual({
      positivePercent: 0,
      leanPositivePercent: 0,
      neutralPercent: 0,
      leanNegativePercent: 0,
      negativePercent: 0,
    });
    expect([r.comments, r.fullyScored, r.anyScored, r.ceiling]).toEqual([0, 0, 0, 10]);
  });
  it('unscored dimensions stay out of means and mixes', () => {
    const r = roll([{ scores: s(8, null, null, null, 6) }, { scores: s(null, null, null, null, null) }], 1);
    expect(r.scores).toMatchObject({ sentiment: 8, relevance: null, consensus: 6, content: null });
    // blend renormalised over the readings present: (0.6*8 + 0.2*6)/0.8 = 7.5
    expect(r.scores.serviceScore).toBe(7.5);
    expect(blendServiceScore(8, null, 6)).toBeCloseTo(7.5, 10);
    expect(r.mix.sentiment.positivePercent).toBe(100);
    expect([r.comments, r.fullyScored, r.anyScored]).toEqual([2, 0, 1]);
  });
  it('v2 falls back to one of content/topic, then to the stored sentiment', () => {
    const r = roll([{ scores: s(1, 8, null, 5, 5) }, { scores: s(6, null, null, 5, 5) }], 2);
    expect(r.scores.sentiment).toBe(7); // readings 8 and 6
  });
});
