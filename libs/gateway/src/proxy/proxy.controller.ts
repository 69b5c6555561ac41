import {
  Controller,
  Delete,
  Get,
  Inject,
  Patch,
  Post,
  Put,
  Req,
  Res,
  UseGuards,
  type Type,
} from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminTokenGuard, ApiKeyAuth, SkipQueryRules } from '@analyst/platform';
import type { HttpMethod } from '@analyst/contracts';
import { Forwarder } from './forwarder';
import { routerPath, type ForwardedRoute } from './upstreams';

const METHOD = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete } satisfies Record<
  HttpMethod,
  unknown
>;

/**
 * One controller route per forwarded route, so the gateway guard sees the same route patterns (and
 * so the same scopes and rate classes) as the services that own them.
 */
export function buildProxyController(routes: readonly ForwardedRoute[]): Type<unknown> {
  class GatewayProxyController {
    constructor(readonly forwarder: Forwarder) {}
  }
  Inject(Forwarder)(GatewayProxyController, undefined as never, 0);
  routes.forEach((route, index) => {
    const name = `forward${index}`;
    Object.defineProperty(GatewayProxyController.prototype, name, {
      value(this: GatewayProxyController, request: FastifyRequest, reply: FastifyReply) {
        return this.forwarder.forward(request, reply, route.service);
      },
      writable: true,
      configurable: true,
    });
    const descriptor = Object.getOwnPropertyDescriptor(GatewayProxyController.prototype, name)!;
    Req()(GatewayProxyController.prototype, name, 0);
    Res()(GatewayProxyController.prototype, name, 1);
    METHOD[route.method](routerPath(route.path).slice(1))(GatewayProxyController.prototype, name, descriptor);
    // The owning service checks the query string against its own document.
    SkipQueryRules()(GatewayProxyController.prototype, name, descriptor);
    if (route.admin) {
      UseGuards(AdminTokenGuard)(GatewayProxyController.prototype, name, descriptor);
      // Operator routes stay out of the public OpenAPI document, as on the services that own them.
      ApiExcludeEndpoint()(GatewayProxyController.prototype, name, descriptor);
    }
  });
  // The forwarded public routes need the key like every route under /analyst/v1; their bodies and
  // responses are described by the owning services' documents.
  ApiKeyAuth()(GatewayProxyController);
  Controller()(GatewayProxyController);
  return GatewayProxyController;
}
