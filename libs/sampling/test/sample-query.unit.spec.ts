import { ApiError, DIMENSIONS } from '@analyst/contracts';
import { DEFAULT_LIMIT, DEFAULT_SOURCE, parseSampleQuery, queryFingerprint } from '@analyst/sampling';
import { toApiError } from '../src/errors/sampling-error.mapping';

const error = (query: Record<string, unknown>): ApiError => {
  try {
    parseSampleQuery(query);
  } catch (e) {
    // As a client sees it: the parser's own refusals go through the service's mapping.
    return toApiError(e) as ApiError;
  }
  throw new Error('expected a 400');
};

describe('parseSampleQuery: SampleQueryDto, then the query read from it', () => {
  it('defaults: source all, limit 25, no cursor, no filters', () => {
    expect(parseSampleQuery({})).toEqual({
      source: 'all',
      limit: 25,
      cursor: null,
      buckets: {},
      emotions: [],
    });
    expect([DEFAULT_SOURCE, DEFAULT_LIMIT]).toEqual(['all', 25]);
  });

  it('comma-separated and repeated values merge, labels become keys, order is the bucket order, duplicates collapse', () => {
    const q = parseSampleQuery({
      relevance: ['off_topic,on_topic', 'positive'],
      consensus: 'debating',
      sentiment: ' negative , positive ',
      topic: 'Hostile',
    });
    expect(q.buckets).toEqual({
      relevance: ['positive', 'negative'],
      consensus: ['lean_negative'],
      sentiment: ['positive', 'negative'],
      topic: ['negative'],
    });
  });

  const bucketHint = 'use positive, lean_positive, neutral, lean_negative, negative';
  // SampleQueryDto's rules: for each, a query it refuses (status, code, exact message) ...
  it.each<[Record<string, unknown>, string, string]>([
    [
      { limit: '0' },
      'invalid_filter',
      'limit must be an integer from 1 to 100 written in decimal digits, got "0"',
    ],
    [
      { limit: '1.5' },
      'invalid_filter',
      'limit must be an integer from 1 to 100 written in decimal digits, got "1.5"',
    ],
    [
      { limit: '101' },
      'invalid_filter',
      'limit must be an integer from 1 to 100 written in decimal digits, got "101"',
    ],
    [{ limit: ['1', '2'] }, 'invalid_filter', 'limit takes one value, got 2'],
    [{ source: 'random' }, 'invalid_filter', 'source must be one of notables, content, all, got "random"'],
    [{ source: ['all', 'all'] }, 'invalid_filter', 'source takes one value, got 2'],
    [{ cursor: '' }, 'invalid_cursor', 'cursor must not be empty; omit it for the first page'],
    [{ cursor: ['a', 'b'] }, 'invalid_filter', 'cursor takes one value, got 2'],
    [
      { sentiment: 'agreeing' },
      'invalid_bucket',
      `sentiment: "agreeing" is not a bucket of sentiment; ${bucketHint}`,
    ],
    [
      { consensus: 'on_topic' },
      'invalid_bucket',
      `consensus: "on_topic" is not a bucket of consensus; ${bucketHint} or agreeing, discussing, debating, fighting`,
    ],
    [
      { content: 'Hostile' },
      'invalid_bucket',
      `content: "Hostile" is not a bucket of content; ${bucketHint} or Supportive, Receptive, Split, Skeptical, Opposed`,
    ],
    [
      { relevance: ['positive', 'positive,'] },
      'invalid_bucket',
      `relevance: "" is not a bucket of relevance; ${bucketHint} or on_topic, relevant, general, off_topic`,
    ],
    [
      { emotion: 'rage' },
      'invalid_filter',
      'emotion: "rage" is not an emotion; use anger, disgust, fear, joy, sadness, surprise, neutral',
    ],
    [
      { emotion: ['joy', 'fear,Joy'] },
      'invalid_filter',
      'emotion: "Joy" is not an emotion; use anger, disgust, fear, joy, sadness, surprise, neutral',
    ],
    [
      { emotion: 'joy,' },
      'invalid_filter',
      'emotion: "" is not an emotion; use anger, disgust, fear, joy, sadness, surprise, neutral',
    ],
    // Only without the platform's QueryRules guard, which refuses an undeclared parameter first.
    [{ page: '2' }, 'invalid_filter', 'page: property page should not exist'],
  ])('400 for %j: %s, %s', (query, code, message) => {
    const e = error(query);
    expect([e.status, e.code, e.message]).toEqual([400, code, message]);
  });

  it('... and one it accepts, with the value read', () => {
    expect(parseSampleQuery({ limit: '100' }).limit).toBe(100);
    expect(parseSampleQuery({ limit: '1' }).limit).toBe(1);
    expect(parseSampleQuery({ source: 'notables' }).source).toBe('notables');
    expect(parseSampleQuery({ cursor: 'abc' }).cursor).toBe('abc');
    expect(parseSampleQuery({ teamId: 'tm_1' })).toEqual(parseSampleQuery({}));
    expect(parseSampleQuery({ consensus: 'agreeing,fighting' }).buckets).toEqual({
      consensus: ['positive', 'negative'],
    });
    expect(parseSampleQuery({ content: 'Opposed' }).buckets).toEqual({ content: ['negative'] });
  });

  it('reads the emotion filter: comma-separated and repeated names merge, in EMOTIONS order, duplicates collapse', () => {
    expect(parseSampleQuery({ emotion: ['surprise, joy', 'anger', 'joy'] }).emotions).toEqual([
      'anger',
      'joy',
      'surprise',
    ]);
    expect(parseSampleQuery({ emotion: 'neutral' }).emotions).toEqual(['neutral']);
  });

  it('names every fault when several parameters are wrong, with the code of the first', () => {
    const e = error({ limit: '0', source: 'random', sentiment: 'great' });
    expect([e.code, e.message]).toEqual([
      'invalid_filter',
      'limit must be an integer from 1 to 100 written in decimal digits, got "0"; ' +
        'source must be one of notables, content, all, got "random"; ' +
        `sentiment: "great" is not a bucket of sentiment; ${bucketHint}`,
    ]);
    expect(error({ cursor: '', topic: 'nope' }).code).toBe('invalid_cursor');
    expect(error({ sentiment: 'great', emotion: 'rage' })).toMatchObject({
      code: 'invalid_bucket',
      message:
        `sentiment: "great" is not a bucket of sentiment; ${bucketHint}; ` +
        'emotion: "rage" is not an emotion; use anger, disgust, fear, joy, sadness, surprise, neutral',
    });
  });

  it('declares a bucket rule for every dimension', () => {
    for (const dimension of DIMENSIONS)
      expect(error({ [dimension]: 'nope' }).message).toMatch(new RegExp(`^${dimension}: "nope"`));
  });

  it('fingerprints the source and filters, not the limit or the cursor', () => {
    const a = parseSampleQuery({ sentiment: 'positive,negative', limit: '5' });
    const b = parseSampleQuery({ sentiment: ['negative', 'positive'], limit: '50', cursor: 'x' });
    expect(queryFingerprint(a)).toBe('source=all&sentiment=positive,negative');
    expect(queryFingerprint(b)).toBe(queryFingerprint(a));
    expect(queryFingerprint(parseSampleQuery({ sentiment: 'positive' }))).not.toBe(queryFingerprint(a));
  });

  it('fingerprints the emotion filter after the buckets, and leaves a query without one as it was', () => {
    const q = parseSampleQuery({ sentiment: 'positive', emotion: 'joy,anger' });
    expect(queryFingerprint(q)).toBe('source=all&sentiment=positive&emotion=anger,joy');
    expect(queryFingerprint(parseSampleQuery({ sentiment: 'positive' }))).toBe(
      'source=all&sentiment=positive',
    );
  });
});
