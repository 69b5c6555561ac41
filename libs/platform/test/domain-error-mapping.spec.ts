import { ApiError } from '@analyst/contracts';
import { domainErrorMapping } from '@analyst/platform';

class ShelfError extends Error {
  constructor(
    readonly code: 'shelf_full' | 'book_missing',
    message: string,
    readonly candidates?: string[],
  ) {
    super(message);
  }
}

describe('domainErrorMapping: a domain rule break as the API status and envelope', () => {
  const toApiError = domainErrorMapping(ShelfError, { shelf_full: 409, book_missing: 404 });

  it('maps each code to its status, keeping the message and the code', () => {
    const mapped = toApiError(new ShelfError('book_missing', 'no book b1 on this shelf'));
    expect(mapped).toBeInstanceOf(ApiError);
    expect(mapped).toMatchObject({ status: 404, message: 'no book b1 on this shelf', code: 'book_missing' });
    expect(toApiError(new ShelfError('shelf_full', 'full'))).toMatchObject({
      status: 409,
      code: 'shelf_full',
    });
  });

  it('passes any other error through unchanged', () => {
    const other = new Error('disk on fire');
    expect(toApiError(other)).toBe(other);
  });

  it('carries the ids a client may pick from, and the headers a code names', () => {
    const withHeaders = domainErrorMapping(
      ShelfError,
      { shelf_full: 409, book_missing: 404 },
      { shelf_full: { 'Retry-After': '7' } },
    );
    expect(withHeaders(new ShelfError('shelf_full', 'full', ['s2', 's3']))).toMatchObject({
      status: 409,
      candidates: ['s2', 's3'],
      headers: { 'Retry-After': '7' },
    });
    expect(withHeaders(new ShelfError('book_missing', 'gone'))).toMatchObject({ status: 404, headers: {} });
  });
});
