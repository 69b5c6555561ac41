import { Controller, Delete, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpMethod } from '@analyst/contracts';
import { AdminTokenGuard, ApiKeyAuth, SkipQueryRules, routePattern } from '@analyst/platform';
import { Forwarder } from './forwarder';
import { forwardedPaths, serviceOf } from './upstreams';

/**
 * Forwards every route another service owns, as the route table lists them. Each handler is
 * mounted on the paths of one method (`@Get([...paths])`), so Fastify still has one route per
 * table entry: the gateway guard, the 405 hook, metrics and traces see the same route patterns
 * (and so the same scopes and rate classes) as the services that own them, and the owner is
 * looked up by the pattern that matched. The table's public routes are GET, POST and DELETE (the
 * notifier's `DELETE /webhooks/{webhookId}`), its operator routes GET and POST; a route of another
 * method needs a handler here too (test/route-table.spec.ts fails until it has one).
 *
 * No handler applies the query rule: the owning service checks the query string against its own
 * document. The public routes need the key like every route under /analyst/v1; their bodies and
 * responses are described by the owning services' documents.
 */
@ApiKeyAuth()
@Controller()
export class GatewayProxyController {
  constructor(private readonly forwarder: Forwarder) {}

  @Get(forwardedPaths('GET', 'public'))
  @SkipQueryRules()
  forwardGet(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward('GET', request, reply);
  }

  @Post(forwardedPaths('POST', 'public'))
  @SkipQueryRules()
  forwardPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward('POST', request, reply);
  }

  @Delete(forwardedPaths('DELETE', 'public'))
  @SkipQueryRules()
  forwardDelete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward('DELETE', request, reply);
  }

  // Operator routes: the admin token, and out of the public OpenAPI document, as on the services that own them.
  @Get(forwardedPaths('GET', 'admin'))
  @SkipQueryRules()
  @UseGuards(AdminTokenGuard)
  @ApiExcludeEndpoint()
  forwardAdminGet(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward('GET', request, reply);
  }

  @Post(forwardedPaths('POST', 'admin'))
  @SkipQueryRules()
  @UseGuards(AdminTokenGuard)
  @ApiExcludeEndpoint()
  forwardAdminPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward('POST', request, reply);
  }

  /** `method` is the handler's, not the request's: a HEAD request is served by the GET route. */
  private forward(method: HttpMethod, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.forwarder.forward(request, reply, serviceOf(method, routePattern(request)!));
  }
}
