import { ApiError } from '@analyst/contracts';
import { parseSampleQuery, SamplingError, type SamplingErrorCode } from '@analyst/sampling';
import { toApiError } from '../src/errors/sampling-error.mapping';

const answer = (code: SamplingErrorCode) => {
  const mapped = toApiError(new SamplingError(code, `because of ${code}`)) as ApiError;
  expect(mapped).toBeInstanceOf(ApiError);
  return { status: mapped.status, code: mapped.code, message: mapped.message, headers: mapped.headers };
};

describe('the sampling error mapping', () => {
  it.each<[number, SamplingErrorCode[]]>([
    [400, ['invalid_filter', 'invalid_bucket', 'invalid_cursor', 'analysis_too_large']],
    [404, ['analysis_not_found', 'post_not_found', 'comments_not_available']],
    [409, ['analysis_failed']],
  ])('%i for %j, each with its code and message and no extra header', (status, codes) => {
    for (const code of codes)
      expect(answer(code)).toEqual({ status, code, message: `because of ${code}`, headers: {} });
  });

  it('analysis_not_ready is a 409 that says when to ask again (Retry-After: 3, the poll interval)', () => {
    expect(answer('analysis_not_ready')).toEqual({
      status: 409,
      code: 'analysis_not_ready',
      message: 'because of analysis_not_ready',
      headers: { 'Retry-After': '3' },
    });
  });

  it("gives the query rules' refusal its 400 and code (a limit out of range)", () => {
    let refused: unknown;
    try {
      parseSampleQuery({ limit: '0' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(SamplingError);
    const mapped = toApiError(refused) as ApiError;
    expect([mapped.status, mapped.code, mapped.message]).toEqual([
      400,
      'invalid_filter',
      'limit must be an integer from 1 to 100 written in decimal digits, got "0"',
    ]);
  });

  it('passes anything else through as it is', () => {
    const other = new ApiError(400, 'query parameter "topic" is empty', 'invalid_request');
    expect(toApiError(other)).toBe(other);
  });
});
