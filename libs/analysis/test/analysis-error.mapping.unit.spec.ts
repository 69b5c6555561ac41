import { ApiError } from '@analyst/contracts';
import { AnalysisError, type AnalysisErrorCode } from '@analyst/analysis';
import { toApiError } from '../src/errors/analysis-error.mapping';

describe('the analysis error mapping', () => {
  it.each<[AnalysisErrorCode, number]>([
    ['invalid_request', 400],
    ['invalid_filter', 400],
    ['invalid_cursor', 400],
    ['invalid_selection', 400],
    ['empty_selection', 400],
    ['analysis_not_found', 404],
    ['post_not_found', 404],
    ['metrics_not_available', 404],
    ['collection_not_found', 404],
    ['campaign_not_found', 404],
    ['insight_not_found', 404],
    ['team_not_found', 404],
  ])('%s is a %i with its code and message', (code, status) => {
    const mapped = toApiError(new AnalysisError(code, `because of ${code}`));
    expect(mapped).toBeInstanceOf(ApiError);
    const { status: got, code: shown, message, headers } = mapped as ApiError;
    expect({ got, shown, message, headers }).toEqual({
      got: status,
      shown: code,
      message: `because of ${code}`,
      headers: {},
    });
  });

  it('is named for logs as what it is', () => {
    expect(new AnalysisError('empty_selection', 'the selection matches no posts').name).toBe('AnalysisError');
  });

  it('passes anything else through untouched', () => {
    const other = new Error('store away');
    const api = new ApiError(400, 'limit must be an integer', 'invalid_filter');
    expect(toApiError(other)).toBe(other);
    expect(toApiError(api)).toBe(api);
  });
});
