import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@analyst/gateway';
import type { Requester } from '../adding/requester';

export function correlationIdOf(request: FastifyRequest): string {
  const header = request.headers['x-correlation-id'];
  return (Array.isArray(header) ? header[0] : header) ?? String(request.id);
}

export function requesterOf(principal: Principal, request: FastifyRequest): Requester {
  return {
    keyId: principal.keyId,
    keyName: principal.keyName,
    teamId: principal.targetTeamId,
    plan: principal.targetPlan,
    correlationId: correlationIdOf(request),
  };
}

export function send(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
  void reply.status(status).send(body);
}
