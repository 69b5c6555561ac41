import { BUCKET_KEYS, PLATFORMS } from '@analyst/contracts';
import { validateRequest } from '@analyst/platform';
import { AnalysisError } from '../src/errors/analysis-error';
import { declaredFields } from '../src/create-analysis/analysis-request.dto';
import { refuseAs } from '../src/validation/refusal';
import { PostPageQueryDto, PostQueryDto } from '../src/posts/post-query.dto';
import { echoPostQuery, postQueryOf } from '../src/posts/post-query';

/** Post filters checked by PostQueryDto's rules (a 400 invalid_filter names each bad field), then read. */
const checkedPostQuery = (raw: Record<string, unknown>) =>
  postQueryOf(validateRequest(PostQueryDto, raw, refuseAs('invalid_filter')));

const refusal = (raw: Record<string, unknown>) => {
  try {
    checkedPostQuery(raw);
  } catch (error) {
    if (error instanceof AnalysisError) return [error.code, error.message];
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
};

describe('PostQueryDto: the post filters of GET /posts and selection.posts, each rule with its message', () => {
  it('declares a min/max percent pair for every bucket key, and nothing else beyond the named filters', () => {
    const percents = [...declaredFields(PostQueryDto)].filter((f) => f.endsWith('_percent'));
    expect(percents.sort()).toEqual(
      BUCKET_KEYS.flatMap((b) => [`max_${b}_percent`, `min_${b}_percent`]).sort(),
    );
  });

  it.each<[Record<string, unknown>, string]>([
    [{ status: 'done' }, 'status must be complete, pending or all, got "done"'],
    [{ status: ['all', 'pending'] }, 'status takes one value'],
    [{ collection_id: { id: 'c' } }, 'collection_id must be a string'],
    [{ link: [1] }, 'link must be a string or a list of strings'],
    [{ platform: 'youtube,myspace' }, `platform "myspace" is not one of ${PLATFORMS.join(', ')}`],
    [{ platform: [1] }, 'platform must be a string or a list of strings'],
    [
      { posted_since: '2026-02-29' },
      'posted_since must be an ISO 8601 date or timestamp on the calendar, got "2026-02-29"',
    ],
    [
      { posted_since: '2026-03-02', posted_until: '2026-03-01' },
      'posted_since must not be after posted_until',
    ],
    [{ min_score: '0x5' }, 'min_score must be a number from 1 to 10 (JSON number syntax), got "0x5"'],
    [{ min_score: ['1', '2'] }, 'min_score takes one value'],
    [{ min_score: '7', max_score: '3' }, 'min_score must not be greater than max_score'],
    [
      { max_negative_percent: '101' },
      'max_negative_percent must be a number from 0 to 100 (JSON number syntax), got "101"',
    ],
    [
      { min_neutral_percent: '60', max_neutral_percent: '40' },
      'min_neutral_percent must not be greater than max_neutral_percent',
    ],
  ])('refuses %j: %s (invalid_filter)', (raw, message) => {
    expect(refusal(raw)).toEqual(['invalid_filter', message]);
  });

  it('a bad bound is reported once, not compared with the other bound', () => {
    expect(refusal({ min_score: '0x5', max_score: '3' })).toEqual([
      'invalid_filter',
      'min_score must be a number from 1 to 10 (JSON number syntax), got "0x5"',
    ]);
  });

  it('several bad filters are all named, joined with "; "', () => {
    expect(refusal({ status: 'done', min_score: '11' })).toEqual([
      'invalid_filter',
      'status must be complete, pending or all, got "done"; min_score must be a number from 1 to 10 (JSON number syntax), got "11"',
    ]);
  });

  it('reads what it accepts: one value from a list or a number, lists split and normalized, dates as instants', () => {
    const q = checkedPostQuery({
      status: ['all'],
      link: 'https://youtube.com/watch?v=abc, ,https://youtube.com/watch?v=abc',
      account: ['@Ann', 'https://x.com/Bob/'],
      platform: 'YouTube',
      tag: '#Launch,,#',
      posted_since: '2026-03-01',
      posted_until: '2026-03-01',
      min_score: 5,
      max_score: '7.5',
      min_positive_percent: '1e1',
    });
    expect(echoPostQuery(q)).toEqual({
      status: 'all',
      link: ['https://youtube.com/watch?v=abc'],
      account: ['ann', 'bob'],
      platform: ['youtube'],
      tag: ['launch'],
      posted_since: '2026-03-01T00:00:00.000Z',
      posted_until: '2026-03-01T23:59:59.999Z',
      min_score: 5,
      max_score: 7.5,
      min_positive_percent: 10,
    });
    expect(checkedPostQuery({})).toMatchObject({
      status: 'complete',
      link: [],
      minScore: null,
      collectionId: null,
    });
  });

  it('a page query adds limit (IsQueryInteger’s words), cursor and teamId', () => {
    const refuse = refuseAs('invalid_filter');
    expect(validateRequest(PostPageQueryDto, { limit: '5', cursor: 'c', teamId: 't' }, refuse)).toMatchObject(
      {
        limit: '5',
        cursor: 'c',
      },
    );
    expect(() => validateRequest(PostPageQueryDto, { limit: '0' }, refuse)).toThrow(
      new AnalysisError(
        'invalid_filter',
        'limit must be an integer from 1 to 100 written in decimal digits, got "0"',
      ),
    );
  });
});
