import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTE_POLICIES } from '@analyst/contracts';
import { API_PREFIX, principalOf, routePattern, routerPath } from '@analyst/platform';
import { OpenStreams } from './open-streams';

/** The rate class of the routes that answer a long-lived stream (`GET /events`). */
export const STREAM_RATE_CLASS = 'events_stream';

/** `METHOD /analyst/v1/pattern` of each stream route, as Fastify reports the route it matched. */
const STREAM_ROUTES: ReadonlySet<string> = new Set(
  ROUTE_POLICIES.filter((policy) => policy.rateClass === STREAM_RATE_CLASS).map(
    (policy) => `${policy.method} ${API_PREFIX}${routerPath(policy.path)}`,
  ),
);

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
    // HEAD is served by the GET route: it opens nothing.
    if (request.method !== 'GET' || !STREAM_ROUTES.has(`GET ${routePattern(request) ?? ''}`)) return true;
    const principal = principalOf(request);
    if (!principal) return true;
    this.streams.take(principal.keyId);
    http.getResponse<FastifyReply>().raw.once('close', () => this.streams.release(principal.keyId));
    return true;
  }
}
