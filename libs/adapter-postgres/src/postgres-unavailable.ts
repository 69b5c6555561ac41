import { DependencyUnavailableError } from '@analyst/eventsourcing';

/** Socket errors that mean the server is down or unreachable, not that the request was wrong. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);
/**
 * SQLSTATE classes 08 (connection exception) and 57P (the server is shutting down or starting up):
 * the request may be tried again as it is.
 */
const UNAVAILABLE_STATE = /^(08|57P0[1-3])/;

/** A server that cannot be reached (or a connection that timed out) as the port's typed error; others unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const unreachable =
    (typeof code === 'string' && (UNREACHABLE.has(code) || UNAVAILABLE_STATE.test(code))) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
  return unreachable ? new DependencyUnavailableError('event store', error.message, { cause: error }) : error;
}
