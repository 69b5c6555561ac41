import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '@analyst/contracts';
import type { RateClassId } from '@analyst/domain-identity';
import { API_PREFIX } from '@analyst/platform';
import { RATE_CLASS_METADATA, SCOPES_METADATA } from './gateway-decorators';
import { GatewayPipeline } from './gateway-pipeline';
import { findRoutePolicy } from './route-policies';

/** Public routes live under `/analyst/v1` (the `/v1/client` alias is rewritten onto it first). */
export function isPublicApiPath(url: string): boolean {
  return url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
}

/**
 * Global guard: every controller route under `/analyst/v1` is authenticated, limited and
 * scope-checked. A route's own `@RequireScopes` / `@RateClass` win; otherwise the contract's
 * table (ROUTE_POLICIES) applies; otherwise any valid key may call it on the global class.
 * Admin, health and metrics routes are outside the prefix and untouched.
 */
@Injectable()
export class GatewayGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly pipeline: GatewayPipeline,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!isPublicApiPath(request.url)) return true;
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const targets = [context.getHandler(), context.getClass()];
    const routeUrl = (request.routeOptions.url ?? request.url.split('?')[0]).slice(API_PREFIX.length) || '/';
    const table = findRoutePolicy(request.method, routeUrl);
    const scopes = this.reflector.getAllAndOverride<Scope[] | undefined>(SCOPES_METADATA, targets) ?? table?.scopes ?? [];
    const rateClass = this.reflector.getAllAndOverride<RateClassId | undefined>(RATE_CLASS_METADATA, targets) ?? table?.rateClass ?? 'global';
    await this.pipeline.admit(request, reply, { scopes, rateClass, route: `${request.method} ${routeUrl.replace(/:([^/]+)/g, '{$1}')}` });
    return true;
  }
}
