/**
 * An error a client may see: status, message, and optionally a machine code and candidate ids.
 * Domain errors are mapped to this in one place per service; the envelope filter renders it.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly candidates?: string[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ErrorEnvelope {
  error: { message: string; code?: string; candidates?: string[] };
}
