/** An answer of the API that is not a success, with the spec's `error.code` when it carries one. */
export class AnalystApiError extends Error {
  override readonly name = 'AnalystApiError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    /** What `Retry-After` asked for, in ms (a 429 or 503), else null. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}
