import { ApiError } from '@analyst/contracts';
import { parseStatementQuery } from '../src/admin/statement-query';

const refusal = (query: { limit?: string; cursor?: string }): ApiError => {
  try {
    parseStatementQuery(query);
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a 400');
};

describe("the statement's query: StatementQueryDto, then read", () => {
  it.each(['0', '1001', 'abc', '1,2'])('refuses limit=%s with 400 naming the range', (limit) => {
    const e = refusal({ limit });
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.message]).toEqual([
      400,
      `limit must be an integer from 1 to 1000 written in decimal digits, got "${limit}"`,
    ]);
  });

  it('accepts a limit and a cursor; an empty cursor is the first page', () => {
    expect(parseStatementQuery({})).toEqual({ limit: 100, cursor: undefined });
    expect(parseStatementQuery({ limit: '1000', cursor: 'eyJyIjo0MH0' })).toEqual({
      limit: 1000,
      cursor: 'eyJyIjo0MH0',
    });
    expect(parseStatementQuery({ limit: '1', cursor: '' })).toEqual({ limit: 1, cursor: undefined });
  });
});
