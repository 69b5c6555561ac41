/**
 * What went wrong talking to a platform, by what the ingest pipeline must do about it:
 * - `quota`: the platform's quota or rate limit is spent; hold the post until `retryAt`.
 * - `transient`: 5xx, timeout, connection reset; worth retrying with backoff.
 * - `auth`: the platform refused our credentials; nothing succeeds until an operator fixes them.
 * - `gone`: deleted, private or never existed; retrying cannot help.
 * - `invalid`: the platform refused the request itself (a bug or an unexpected answer).
 */
export type FaultKind = 'quota' | 'transient' | 'auth' | 'gone' | 'invalid';

export class ProviderFault extends Error {
  override readonly name = 'ProviderFault';

  constructor(
    readonly kind: FaultKind,
    message: string,
    /** When a `quota` fault's window reopens. */
    readonly retryAt: Date | null = null,
  ) {
    super(message);
  }
}
