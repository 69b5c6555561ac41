/** How a forward that failed is answered, and which failures another replica may take. */
import { DEPENDENCY_RETRY_AFTER_SECONDS, DEPENDENCY_UNAVAILABLE_CODE } from '@analyst/platform';
import { CONNECT_REFUSALS } from './replica-readiness';

export interface ForwardFailure {
  status: number;
  message: string;
  /** A service that is not listening is the cue to retry later, as a service's own 503 is. */
  code?: string;
}

/** A service that cannot be reached, whether refused at connect or with no replica ready. */
export const UNAVAILABLE: ForwardFailure = {
  status: 503,
  message: `service unavailable: the service behind this route is not answering; send the request again after ${DEPENDENCY_RETRY_AFTER_SECONDS} s`,
  code: DEPENDENCY_UNAVAILABLE_CODE,
};

/** Maps a failed forward to a clean status in the envelope: 503 unreachable, 504 too slow, 502 otherwise. */
export function failure(raw: Error): ForwardFailure {
  const error = raw as Error & { cause?: { code?: string }; statusCode?: number; code?: string };
  const code = error.cause?.code ?? error.code;
  if (error.statusCode === 504 || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { status: 504, message: 'the service behind this route did not answer in time; retry later' };
  }
  if (
    (code !== undefined && CONNECT_REFUSALS.has(code)) ||
    code === 'ENOTFOUND' ||
    error.statusCode === 503
  ) {
    return UNAVAILABLE;
  }
  return { status: 502, message: 'the service behind this route failed to answer properly' };
}

/** The slice of a reply the failure needs (reply-from hands over replies of any server type). */
export interface FailureReply {
  header(name: string, value: string): unknown;
  code(status: number): { type(contentType: string): { send(body: unknown): unknown } };
}

function errorCode(raw: Error): string | undefined {
  return (raw as Error & { cause?: { code?: string } }).cause?.code ?? (raw as { code?: string }).code;
}

/** Nothing reached the replica: the request may go to the next one, and this replica is down. */
export function refusedAtConnect(raw: Error): boolean {
  const code = errorCode(raw);
  return code !== undefined && CONNECT_REFUSALS.has(code);
}

/**
 * A connection that closed before any answer (a keep-alive socket of a replica just killed, or the
 * replica dying mid-request): a read may be sent again to the next replica, a write may not (it may
 * have been applied), so a POST keeps today's 502.
 */
export function resetBeforeAnswer(raw: Error, method: string): boolean {
  const code = errorCode(raw);
  return (method === 'GET' || method === 'HEAD') && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET');
}

export function sendFailure(reply: FailureReply, { status, message, code }: ForwardFailure): void {
  if (status === 503) reply.header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
  void reply
    .code(status)
    .type('application/json')
    .send({ error: code ? { message, code } : { message } });
}
