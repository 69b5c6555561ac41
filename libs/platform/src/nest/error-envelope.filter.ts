import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError, type ErrorEnvelope } from '@analyst/contracts';
import {
  asDependencyUnavailable,
  DEPENDENCY_RETRY_AFTER_SECONDS,
  DEPENDENCY_UNAVAILABLE_CODE,
  dependencyUnavailableMessage,
} from './dependency-failure';

/** Flattens Nest's validation output ("field must be ...") into one readable sentence. */
function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown })?.message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return fallback;
}

/** Codes for the errors Nest and Fastify raise before a handler runs (no route, unreadable body). */
const FRAMEWORK_ERROR_CODES: Record<number, string> = {
  400: 'malformed_body',
  404: 'route_not_found',
  413: 'body_too_large',
  415: 'unsupported_media_type',
};

type ErrorAnswer = { status: number; error: ErrorEnvelope['error'] };

/** What a 5xx that is not an ApiError says: nothing of the failure's insides. */
const INTERNAL_ERROR = 'internal error';

/** An ApiError as thrown, its headers set on the reply. */
function apiErrorAnswer(exception: ApiError, reply: FastifyReply): ErrorAnswer {
  const error: ErrorEnvelope['error'] = { message: exception.message };
  // Every 400 carries a code a client can branch on; the generic one unless the thrower named one.
  if (exception.code) error.code = exception.code;
  else if (exception.status === 400) error.code = 'invalid_request';
  if (exception.candidates) error.candidates = exception.candidates;
  for (const [name, value] of Object.entries(exception.headers)) reply.header(name, value);
  return { status: exception.status, error };
}

/** An error Nest or Fastify raised for a request no handler could take (no route, unreadable body). */
function frameworkAnswer(status: number, message: string): ErrorAnswer {
  const error: ErrorEnvelope['error'] = { message: status >= 500 ? INTERNAL_ERROR : message };
  const code = FRAMEWORK_ERROR_CODES[status];
  if (code) error.code = code;
  return { status, error };
}

/** Fastify's own errors (bad JSON, body too large) carry a statusCode. */
function isFastifyError(exception: unknown): exception is { statusCode: number; message: string } {
  const candidate = exception as { statusCode?: number; message?: string } | null | undefined;
  return Boolean(candidate?.statusCode && candidate.message);
}

/** Every error leaves the process in one envelope, `{ error: { message, code?, candidates? } }`, with no stack. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (this.answeredUnavailable(exception, reply)) return;
    const { status, error } = this.answerOf(exception, reply);
    const body: ErrorEnvelope = { error };
    void reply.status(status).send(body);
  }

  private answerOf(exception: unknown, reply: FastifyReply): ErrorAnswer {
    if (exception instanceof ApiError) return apiErrorAnswer(exception, reply);
    if (exception instanceof HttpException)
      return frameworkAnswer(exception.getStatus(), messageOf(exception.getResponse(), exception.message));
    if (isFastifyError(exception)) return frameworkAnswer(exception.statusCode, exception.message);
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
    );
    return { status: 500, error: { message: INTERNAL_ERROR } };
  }

  /** A dependency that is down is the client's cue to retry later (503), not a failure of its request. */
  private answeredUnavailable(exception: unknown, reply: FastifyReply): boolean {
    const unavailable = exception instanceof ApiError ? null : asDependencyUnavailable(exception);
    if (!unavailable) return false;
    this.logger.warn(unavailable.message);
    reply.header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    void reply.status(503).send({
      error: { message: dependencyUnavailableMessage(unavailable), code: DEPENDENCY_UNAVAILABLE_CODE },
    });
    return true;
  }
}
