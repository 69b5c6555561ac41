import { ApiError } from '@analyst/contracts';
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

describe('parseSampleQuery', () => {
  it('defaults: source all, limit 25, no cursor, no filters', () => {
    expect(parseSampleQuery({})).toEqual({ source: 'all', limit: 25, cursor: null, buckets: {} });
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

  it.each([
    [{ sentiment: 'agreeing' }, 'invalid_bucket'],
    [{ consensus: 'on_topic' }, 'invalid_bucket'],
    [{ content: 'Hostile' }, 'invalid_bucket'],
    [{ relevance: 'positive,' }, 'invalid_bucket'],
    [{ limit: '1.5' }, 'invalid_filter'],
    [{ limit: ['1', '2'] }, 'invalid_filter'],
    [{ source: 'random' }, 'invalid_filter'],
    [{ cursor: '' }, 'invalid_cursor'],
    [{ page: '2' }, 'invalid_filter'],
  ])('400 for %j (%s)', (query, code) => {
    const e = error(query);
    expect([e.status, e.code]).toEqual([400, code]);
  });

  it('fingerprints the source and filters, not the limit or the cursor', () => {
    const a = parseSampleQuery({ sentiment: 'positive,negative', limit: '5' });
    const b = parseSampleQuery({ sentiment: ['negative', 'positive'], limit: '50', cursor: 'x' });
    expect(queryFingerprint(a)).toBe('source=all&sentiment=positive,negative');
    expect(queryFingerprint(b)).toBe(queryFingerprint(a));
    expect(queryFingerprint(parseSampleQuery({ sentiment: 'positive' }))).not.toBe(queryFingerprint(a));
  });
});
