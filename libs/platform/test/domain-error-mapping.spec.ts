import { ApiError } from '@analyst/contracts';
import { domainErrorMapping } from '@analyst/platform';

class ShelfError extends Error {
  constructor(
    readonly code: 'shelf_full' | 'book_missing',
    message: string,
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
});
