import { bucketOf } from '@analyst/contracts';
import { mayBeNotable } from '@analyst/domain-analysis';
import {
  HIGH_ENGAGEMENT,
  HIGH_RELEVANCE,
  inSource,
  isNotableRow,
  MESSAGE_MATCH,
  rowFlags,
  smallestAfter,
  TOPIC_MATCH,
} from '../src/sample/draw-sample';

describe('rowFlags', () => {
  it('flags high engagement at or above the post floor', () => {
    expect(rowFlags(5, 5, NaN, -1, -1, 3)).toBe(HIGH_ENGAGEMENT);
    expect(rowFlags(4, 5, NaN, -1, -1, 3)).toBe(0);
  });

  it('never flags high engagement without a floor', () => {
    expect(rowFlags(1_000_000, Infinity, NaN, -1, -1, 3)).toBe(0);
  });

  it('flags high relevance for the positive relevance buckets and not for NaN', () => {
    const positive = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1].find(
      (v) => bucketOf('relevance', v, 3) === 'positive',
    )!;
    expect(rowFlags(0, Infinity, positive, -1, -1, 3)).toBe(HIGH_RELEVANCE);
    expect(rowFlags(0, Infinity, NaN, -1, -1, 3)).toBe(0);
  });

  it('flags topic and message matches from their indexes', () => {
    expect(rowFlags(0, Infinity, NaN, 0, -1, 3)).toBe(TOPIC_MATCH);
    expect(rowFlags(0, Infinity, NaN, -1, 2, 3)).toBe(MESSAGE_MATCH);
  });
});

describe('inSource', () => {
  it('keeps every row for all', () => {
    expect(inSource('all', 0, 1.5)).toBe(true);
  });

  it('keeps only notable rows (high engagement and high relevance) for notables', () => {
    expect(inSource('notables', HIGH_ENGAGEMENT | HIGH_RELEVANCE, 8)).toBe(true);
    expect(inSource('notables', HIGH_ENGAGEMENT, 8)).toBe(false);
  });

  it('keeps only rows on a topic or message for content', () => {
    expect(inSource('content', MESSAGE_MATCH, 8)).toBe(true);
    expect(inSource('content', HIGH_ENGAGEMENT | HIGH_RELEVANCE, 8)).toBe(false);
  });
});

describe('isNotableRow', () => {
  it("asks the analysis's rule too: an off-topic relevance (spam is stored at 1.5) is never notable", () => {
    const flags = HIGH_ENGAGEMENT | HIGH_RELEVANCE;
    expect([8, 5, 3, 2.99, 1.5].map((relevance) => isNotableRow(flags, relevance))).toEqual(
      [8, 5, 3, 2.99, 1.5].map(mayBeNotable),
    );
    expect([8, 5, 3, 2.99, 1.5].map((relevance) => isNotableRow(flags, relevance))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(inSource('notables', flags, 1.5)).toBe(false);
  });
});

describe('smallestAfter', () => {
  const values = [5, 3, 9, 1, 7, 3];
  const compare = (i: number, j: number): number => values[i] - values[j] || i - j;

  it('returns the limit smallest positions in order and counts the eligible ones', () => {
    expect(smallestAfter(values.length, 3, () => true, compare)).toEqual({ best: [3, 1, 5], eligible: 6 });
  });

  it('skips positions not after the cursor', () => {
    expect(smallestAfter(values.length, 2, (i) => values[i] > 3, compare)).toEqual({
      best: [0, 4],
      eligible: 3,
    });
  });
});
