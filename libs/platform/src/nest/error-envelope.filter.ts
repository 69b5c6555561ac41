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

/** Every error leaves the process in one envelope, `{ error: { message, code?, candidates? } }`, with no stack. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    let status = 500;
    const body: ErrorEnvelope = { error: { message: 'internal error' } };
    if (this.answeredUnavailable(exception, reply)) return;
    if (exception instanceof ApiError) {
      status = exception.status;
      body.error.message = exception.message;
      // Every 400 carries a code a client can branch on; the generic one unless the thrower named one.
      if (exception.code) body.error.code = exception.code;
      else if (status === 400) body.error.code = 'invalid_request';
      if (exception.candidates) body.error.candidates = exception.candidates;
      for (const [name, value] of Object.entries(exception.headers)) reply.header(name, value);
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      body.error.message = messageOf(exception.getResponse(), exception.message);
      // Nest raises these for requests no handler could take (no route, unreadable body).
      const code = FRAMEWORK_ERROR_CODES[status];
      if (code) body.error.code = code;
    } else if ((exception as { statusCode?: number })?.statusCode && (exception as Error).message) {
      // Fastify's own errors (bad JSON, body too large) carry a statusCode.
      status = (exception as { statusCode: number }).statusCode;
      body.error.message = (exception as Error).message;
      const code = FRAMEWORK_ERROR_CODES[status];
      if (code) body.error.code = code;
    } else {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    if (status >= 500 && !(exception instanceof ApiError)) body.error.message = 'internal error';
    void reply.status(status).send(body);
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
