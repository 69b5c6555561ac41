import { validateRequest } from '@analyst/platform';
import { AnalysisError } from '../src/errors/analysis-error';
import { parseAnalysisRequest } from '../src/create-analysis/analysis-request';
import { recordedSelection } from '../src/create-analysis/create-analysis.handler';
import { AnalysisListQueryDto } from '../src/analyses/analysis-list-query.dto';
import { InsightsQueryDto, SavedAnalysisListQueryDto } from '../src/reports/saved-analyses-query.dto';
import { refuseAs } from '../src/validation/refusal';

const refusal = (body: unknown) => {
  try {
    parseAnalysisRequest(body);
  } catch (error) {
    if (error instanceof AnalysisError) return [error.code, error.message];
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
};
const ids = { postIds: ['p1'] };
const many = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

describe('AnalysisRequestDto: the POST /analyses body, each rule with its message', () => {
  it.each<[string, unknown, string]>([
    ['not an object', ['x'], 'body must be a JSON object'],
    ['an unknown field', { selection: ids, colour: 1 }, 'colour is not a field of POST /analyses'],
    [
      'no selection',
      {},
      'selection is required: { collectionId }, { posts }, { collectionId, posts } or { postIds }',
    ],
    ['a selection field unknown', { selection: { ids: [] } }, 'selection.ids is not a selection field'],
    [
      'no selection style',
      { selection: {} },
      'selection needs exactly one style: collectionId, posts, collectionId + posts, or postIds',
    ],
    [
      'postIds with another style',
      { selection: { postIds: ['p1'], collectionId: 'c' } },
      'selection.postIds cannot be combined with collectionId or posts',
    ],
    ['postIds not strings', { selection: { postIds: [1] } }, 'selection.postIds must be an array of strings'],
    [
      'too many postIds',
      { selection: { postIds: many(1001) } },
      'selection.postIds takes at most 1000 values, got 1001',
    ],
    ['blank postIds', { selection: { postIds: [' '] } }, 'selection.postIds must name at least one post'],
    [
      'a bad collectionId',
      { selection: { collectionId: '' } },
      'selection.collectionId must be a collection id',
    ],
    [
      'posts not an object',
      { selection: { posts: [] } },
      'selection.posts must be an object of post filters',
    ],
    [
      'an unknown post filter',
      { selection: { posts: { limit: '5' } } },
      'selection.posts: unknown post filter "limit"',
    ],
    [
      'a bad post filter',
      { selection: { posts: { min_score: '11' } } },
      'selection.posts: min_score must be a number from 1 to 10 (JSON number syntax), got "11"',
    ],
    [
      'a platform that is not a string',
      { selection: { posts: { platform: ['youtube', 2] } } },
      'selection.posts: platform must be a string or a list of strings',
    ],
    ['filters not an object', { selection: ids, filters: [] }, 'filters must be an object'],
    [
      'an unknown comment filter',
      { selection: ids, filters: { mood: 'x' } },
      'filters.mood is not a comment filter',
    ],
    [
      'buckets not strings',
      { selection: ids, filters: { sentiment: 5 } },
      'filters.sentiment must be an array of strings',
    ],
    [
      'too many buckets',
      { selection: ids, filters: { topic: Array(11).fill('Mixed') } },
      'filters.topic takes at most 10 values, got 11',
    ],
    [
      'an unknown bucket',
      { selection: ids, filters: { sentiment: 'positive,great' } },
      'filters.sentiment: "great" is not a bucket key or label of sentiment',
    ],
    [
      'too many keywords',
      { selection: ids, filters: { keywords: many(51) } },
      'filters.keywords takes at most 50 values, got 51',
    ],
    [
      'a long username',
      { selection: ids, filters: { usernames: ['u'.repeat(101)] } },
      'filters.usernames terms are at most 100 characters, got one of 101',
    ],
    [
      'a bad keywordMatch',
      { selection: ids, filters: { keywordMatch: 'some' } },
      'filters.keywordMatch must be any or all',
    ],
    [
      'a bad presence',
      { selection: ids, filters: { creator: 'yes' } },
      'filters.creator must be include, exclude or only',
    ],
    [
      'a negative minLikes',
      { selection: ids, filters: { minLikes: -1 } },
      'filters.minLikes must be a number of at least 0',
    ],
    [
      'a date not a string',
      { selection: ids, filters: { until: 5 } },
      'filters.until must be an ISO 8601 date or timestamp',
    ],
    [
      'since after until',
      { selection: ids, filters: { since: '2026-03-02', until: '2026-03-01' } },
      'filters.since must not be after filters.until',
    ],
    [
      'search not an object',
      { selection: ids, search: 'q' },
      'search must be an object with query, mode and minRelevance',
    ],
    [
      'an unknown search field',
      { selection: ids, search: { query: 'q', top: 5 } },
      'search.top is not a search field',
    ],
    ['a blank query', { selection: ids, search: { query: ' ' } }, 'search.query must be a non-empty string'],
    [
      'a bad mode',
      { selection: ids, search: { query: 'q', mode: 'exact' } },
      'search.mode must be ai or keyword',
    ],
    [
      'minRelevance above 1',
      { selection: ids, search: { query: 'q', minRelevance: 2 } },
      'search.minRelevance must be a number from 0 to 1',
    ],
    [
      'a long query',
      { selection: ids, search: { query: 'q'.repeat(501) } },
      'search.query is at most 500 characters, got 501',
    ],
    [
      'a long keyword query',
      { selection: ids, search: { query: 'q'.repeat(101), mode: 'keyword' } },
      'a keyword search.query is one term of at most 100 characters, got 101',
    ],
    [
      'no room for the keyword query',
      { selection: ids, filters: { keywords: many(50) }, search: { query: 'q', mode: 'keyword' } },
      'filters.keywords with the search query exceed 50 terms',
    ],
    ['include not strings', { selection: ids, include: 'wordCloud' }, 'include must be an array of strings'],
    [
      'an unknown include',
      { selection: ids, include: ['topics'] },
      'include: "topics" is not one of wordCloud, emojiCloud, emotions',
    ],
  ])('refuses %s (invalid_request)', (_name, body, message) => {
    expect(refusal(body)).toEqual(['invalid_request', message]);
  });

  it('a date the calendar lacks is invalid_filter, as in the post filters', () => {
    expect(refusal({ selection: ids, filters: { since: '2026-02-30' } })).toEqual([
      'invalid_filter',
      'filters.since must be an ISO 8601 date or timestamp on the calendar, got "2026-02-30"',
    ]);
  });

  it('several faults are all named, the code of the first', () => {
    expect(refusal({ selection: {}, filters: { creator: 'yes', since: 'x' } })).toEqual([
      'invalid_request',
      'selection needs exactly one style: collectionId, posts, collectionId + posts, or postIds; filters.creator must be include, exclude or only; filters.since must be an ISO 8601 date or timestamp on the calendar, got "x"',
    ]);
  });

  it('reads what it accepts: trimmed and deduplicated, labels as keys, dates as instants, NFC terms, the keyword search folded in', () => {
    const request = parseAnalysisRequest({
      selection: { collectionId: 'c1', posts: { tag: '#Launch', min_score: 5 } },
      filters: {
        relevance: 'on_topic, positive,on_topic',
        keywords: ['cafe\u0301', ' ', 'battery'],
        usernames: ['@ann', '@'],
        excludeKeywords: [],
        keywordMatch: 'all',
        creator: 'exclude',
        minLikes: 2,
        since: '2026-03-01',
        until: '2026-03-01',
      },
      search: { query: ' battery ', mode: 'keyword' },
      include: ['wordCloud', ' wordCloud'],
      teamId: 't1',
    });
    // selection.posts is read into the post query GET /posts runs, and recorded as GET /posts echoes it.
    expect(request.selection).toMatchObject({ posts: { status: 'complete', tag: ['launch'], minScore: 5 } });
    expect({ ...request, selection: recordedSelection(request.selection) }).toEqual({
      selection: {
        type: 'collection',
        collectionId: 'c1',
        posts: { tag: ['launch'], min_score: 5 },
        status: 'complete',
      },
      filters: {
        relevance: ['positive'],
        keywords: ['caf\u00e9', 'battery'],
        usernames: ['ann'],
        keywordMatch: 'all',
        creator: 'exclude',
        minLikes: 2,
        since: '2026-03-01T00:00:00.000Z',
        until: '2026-03-01T23:59:59.999Z',
      },
      search: { query: 'battery', mode: 'keyword', minRelevance: 0.82 },
      include: ['wordCloud'],
    });
    expect(
      parseAnalysisRequest({ selection: { postIds: [' p1 ', 'p1', 'p2'] }, filters: null, search: null }),
    ).toEqual({
      selection: { type: 'postIds', postIds: ['p1', 'p2'] },
      filters: null,
      search: null,
      include: [],
    });
    expect(recordedSelection(parseAnalysisRequest({ selection: { posts: {} } }).selection)).toEqual({
      type: 'posts',
      posts: {},
      status: 'complete',
    });
  });
});

describe('the list queries: limit in IsQueryInteger’s words, kind, snapshot_id (invalid_filter)', () => {
  const refuse = refuseAs('invalid_filter');
  it.each<[new () => object, Record<string, unknown>, string]>([
    [AnalysisListQueryDto, { kind: 'draft' }, 'kind must be one of snapshot, search, report, all'],
    [
      AnalysisListQueryDto,
      { limit: '1.0' },
      'limit must be an integer from 1 to 100 written in decimal digits, got "1.0"',
    ],
    [SavedAnalysisListQueryDto, { limit: ['1', '2'] }, 'limit must be given once'],
    [InsightsQueryDto, {}, 'snapshot_id is required (an id from the saved-analyses list)'],
  ])('%p refuses %j: %s', (dto, query, message) => {
    expect(() => validateRequest(dto, query, refuse)).toThrow(new AnalysisError('invalid_filter', message));
  });

  it('accepts them as sent', () => {
    expect(
      validateRequest(AnalysisListQueryDto, { limit: '5', kind: 'report', teamId: 't' }, refuse),
    ).toMatchObject({
      limit: '5',
      kind: 'report',
    });
    expect(validateRequest(SavedAnalysisListQueryDto, { kind: 'anything' }, refuse)).toMatchObject({
      kind: 'anything',
    });
    expect(validateRequest(InsightsQueryDto, { snapshot_id: 'sa_1' }, refuse)).toMatchObject({
      snapshot_id: 'sa_1',
    });
  });
});
