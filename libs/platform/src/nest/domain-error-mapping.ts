import { ApiError } from '@analyst/contracts';

/** A domain's rule break: an Error with a code from the domain's closed list. */
type DomainErrorClass<C extends string> = abstract new (
  ...args: never[]
) => Error & { code: C; candidates?: string[] };

/**
 * A service's one mapping from its domain's rule breaks to the API's status and envelope: an error
 * of `errorClass` becomes an ApiError with the status its code maps to (the table is exhaustive over
 * the codes, so a new code does not compile until it has a status), with the ids a client may pick
 * from when the error names them and the headers its code carries (e.g. Retry-After); anything
 * else passes through.
 */
export function domainErrorMapping<C extends string>(
  errorClass: DomainErrorClass<C>,
  status: Record<C, number>,
  headers: Partial<Record<C, Record<string, string>>> = {},
): (error: unknown) => unknown {
  return (error) =>
    error instanceof errorClass
      ? new ApiError(status[error.code], error.message, error.code, error.candidates, headers[error.code])
      : error;
}
