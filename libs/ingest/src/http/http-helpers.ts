import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyKeyHeader, validateRequest, type Principal } from '@analyst/platform';
import { IntakeError } from '../request/intake-error';
import type { RefreshRequester } from '../request/requester';

export function correlationIdOf(request: FastifyRequest): string {
  const header = request.headers['x-correlation-id'];
  return (Array.isArray(header) ? header[0] : header) ?? String(request.id);
}

/** The requester of a content route; the target's plan is only read by refresh. */
export function requesterOf(principal: Principal, request: FastifyRequest): RefreshRequester {
  return {
    keyId: principal.keyId,
    keyName: principal.keyName,
    teamId: principal.targetTeamId,
    plan: principal.targetPlan,
    correlationId: correlationIdOf(request),
  };
}

export function send(
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
  void reply.status(status).send(body);
}

/**
 * The optional `Idempotency-Key` header of the content add routes: one job per key, whatever the
 * client retries and whichever replica answers. Its rule is the platform's IdempotencyKeyHeader.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  const { 'Idempotency-Key': key } = validateRequest(
    IdempotencyKeyHeader,
    { 'Idempotency-Key': Array.isArray(header) ? header[0] : header },
    (m) => new IntakeError('invalid_request', m),
  );
  return key ?? null;
}
