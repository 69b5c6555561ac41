import fc from 'fast-check';
import { BUCKET_KEYS, DIMENSIONS, bucketOf, type ScoreVersion } from '@analyst/contracts';
import {
  allRows,
  columnsOf,
  commentBuckets,
  mixOf,
  mixPercent,
  rollup,
  bucketIndexer,
  selectRows,
  NO_COMMENT_FILTER,
  sentimentReading,
  leansNeither,
  type CommentRow,
} from '../src';

const score = fc.option(fc.double({ min: 1, max: 10, noNaN: true }), { nil: null, freq: 6 });
const row: fc.Arbitrary<CommentRow> = fc.record({
  scores: fc.record({ sentiment: score, content: score, topic: score, relevance: score, consensus: score }),
  likes: fc.nat({ max: 100_000 }),
  isReply: fc.boolean(),
});
const version = fc.constantFrom<ScoreVersion>(1, 2, 3);
const weight = fc.double({ min: 0, max: 10, noNaN: true });

describe('rollup properties', () => {
  it('every mix of a non-empty dimension sums to 100 within rounding', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 200 }), version, weight, (rows, v, e) => {
        const columns = columnsOf(rows);
        const r = rollup(columns, allRows(columns), { scoreVersion: v, engagementWeight: e });
        for (const dimension of DIMENSIONS) {
          const total = r.counts[dimension].reduce((a, b) => a + b, 0);
          const sum = Object.values(r.mix[dimension]).reduce((a, b) => a + b, 0);
          if (total === 0) expect(sum).toBe(0);
          else expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.25 + 1e-9);
        }
      }),
    );
  });

  it('every score is null or within 1 to 10', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 200 }), version, weight, (rows, v, e) => {
        const columns = columnsOf(rows);
        const { scoreVersion, ...scores } = rollup(columns, allRows(columns), {
          scoreVersion: v,
          engagementWeight: e,
        }).scores;
        expect(scoreVersion).toBe(v);
        for (const value of Object.values(scores)) {
          if (value !== null) {
            expect(value).toBeGreaterThanOrEqual(1);
            expect(value).toBeLessThanOrEqual(10);
          }
        }
      }),
    );
  });

  it('adding a comment in bucket X never lowers X’s percentage', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 100 }),
        row,
        version,
        fc.constantFrom(...DIMENSIONS),
        (rows, extra, v, dimension) => {
          const bucket = commentBuckets(extra.scores, v)[dimension];
          fc.pre(bucket !== null);
          const before = columnsOf(rows);
          const after = columnsOf([...rows, extra]);
          const settings = { scoreVersion: v, engagementWeight: 1 };
          const p0 = mixPercent(rollup(before, allRows(before), settings).mix[dimension], bucket!);
          const p1 = mixPercent(rollup(after, allRows(after), settings).mix[dimension], bucket!);
          expect(p1).toBeGreaterThanOrEqual(p0);
        },
      ),
    );
  });

  it('a comment counted in a bar is a comment a filter on that bucket selects (same bucketing rule)', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 150 }),
        version,
        fc.constantFrom(...DIMENSIONS),
        (rows, v, dimension) => {
          const columns = columnsOf(rows);
          const r = rollup(columns, allRows(columns), { scoreVersion: v, engagementWeight: 1 });
          BUCKET_KEYS.forEach((bucket, i) => {
            const selected = selectRows(
              columns,
              allRows(columns),
              { ...NO_COMMENT_FILTER, buckets: { [dimension]: [bucket] } },
              v,
            );
            expect(selected.length).toBe(r.counts[dimension][i]);
            for (const at of selected) expect(commentBuckets(rows[at].scores, v)[dimension]).toBe(bucket);
          });
        },
      ),
    );
  });

  it('v3 equals v2 when nothing is liked, nothing is a reply, nothing is below 3 and no reading is 5', () => {
    const calm = fc.option(fc.double({ min: 3, max: 10, noNaN: true }), { nil: null, freq: 6 });
    const calmRow = fc.record({
      scores: fc.record({ sentiment: calm, content: calm, topic: calm, relevance: calm, consensus: calm }),
    });
    // A reading of 5 leans neither way: v2 counts it neutral, v3 leaves it unscored (see the unit tests).
    const leaning = (row: CommentRow) => !leansNeither(sentimentReading(row.scores, 2) ?? 0);
    fc.assert(
      fc.property(fc.array(calmRow.filter(leaning), { maxLength: 100 }), (rows) => {
        const columns = columnsOf(rows);
        const v2 = rollup(columns, allRows(columns), { scoreVersion: 2, engagementWeight: 1 }).scores;
        const v3 = rollup(columns, allRows(columns), { scoreVersion: 3, engagementWeight: 1 }).scores;
        expect({ ...v3, scoreVersion: 2 }).toEqual(v2);
      }),
    );
  });

  it('mixOf rounds each bar from its own count', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1000 }), { minLength: 5, maxLength: 5 }), (counts) => {
        const total = counts.reduce((a, b) => a + b, 0);
        const mix = mixOf(counts);
        BUCKET_KEYS.forEach((key, i) => {
          expect(mixPercent(mix, key)).toBe(total === 0 ? 0 : Math.round((counts[i] / total) * 1000) / 10);
        });
      }),
    );
  });

  it('sentimentReading and bucketOf agree with commentBuckets', () => {
    fc.assert(
      fc.property(row, version, (r, v) => {
        const reading = sentimentReading(r.scores, v);
        expect(commentBuckets(r.scores, v).sentiment).toBe(
          reading === null ? null : bucketOf('sentiment', reading, v),
        );
      }),
    );
  });
});

describe('bucketIndexer', () => {
  it('is bucketOf as an index, on every dimension and version', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 10, noNaN: true }),
        version,
        fc.constantFrom(...DIMENSIONS),
        (x, v, d) => {
          expect(BUCKET_KEYS[bucketIndexer(d, v)(x)]).toBe(bucketOf(d, x, v));
        },
      ),
      { numRuns: 2000 },
    );
  });
  it('agrees with bucketOf at, just below and just above every cutoff, and beyond the 1-10 scale', () => {
    const edges = [7.5, 5.5, 4.5, 3, 5].flatMap((c) => [
      c,
      c - Number.EPSILON * 8,
      c + Number.EPSILON * 8,
      c - 1e-9,
    ]);
    for (const x of [...edges, 1, 10, 0, -3, 10.75, 1e12]) {
      for (const d of DIMENSIONS) {
        for (const v of [1, 2, 3] as ScoreVersion[])
          expect(BUCKET_KEYS[bucketIndexer(d, v)(x)]).toBe(bucketOf(d, x, v));
      }
    }
  });
});
