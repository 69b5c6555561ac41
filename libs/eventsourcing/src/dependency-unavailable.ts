/** The servers a request may need beside the process itself. */
export type Dependency = 'message broker' | 'event store' | 'read store' | 'ledger';

/**
 * A dependency did not answer in time or refused the connection. The request may be tried again
 * later as it is: the HTTP layer answers 503 with `Retry-After`, never a 500.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
  constructor(
    readonly dependency: Dependency,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`the ${dependency} is unavailable: ${detail}`, options);
  }
}
