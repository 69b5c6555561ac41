import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, routePattern } from '@analyst/platform';
import { OpenStreams } from './open-streams';
import { isStreamRoute } from './stream-routes';

/**
 * After the gateway guard admitted a request (key, limits, scopes), a stream route takes one of
 * its key's open-stream places, given back when the response closes. The request itself was
 * charged once by the gateway guard, as any request: an open stream costs nothing more.
 */
@Injectable()
export class OpenStreamGuard implements CanActivate {
  constructor(private readonly streams: OpenStreams) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (!isStreamRoute(request.method, routePattern(request))) return true;
    const principal = principalOf(request);
    if (!principal) return true;
    this.streams.take(principal.keyId);
    http.getResponse<FastifyReply>().raw.once('close', () => this.streams.release(principal.keyId));
    return true;
  }
}
