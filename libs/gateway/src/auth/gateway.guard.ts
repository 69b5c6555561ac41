import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Scope, findRoutePolicy } from '@analyst/contracts';
import type { RateClassId } from '@analyst/domain-identity';
import {
  API_PREFIX,
  isUnderPrefix,
  routePattern,
  RATE_CLASS_METADATA,
  SCOPES_METADATA,
} from '@analyst/platform';
import { GatewayPipeline, type AdmissionPolicy } from './gateway-pipeline';

/** Public routes live under `/analyst/v1` (the `/v1/client` alias is rewritten onto it first). */
export function isPublicApiPath(url: string): boolean {
  return isUnderPrefix(url, API_PREFIX);
}

/**
 * Global guard: every controller route under `/analyst/v1` is authenticated, limited and
 * scope-checked. A route's own `@RequireScopes` / `@RateClass` win; otherwise the contract's
 * table (ROUTE_POLICIES) applies; otherwise any valid key may call it on the global class.
 * Admin, health and metrics routes are outside the prefix and untouched.
 */
@Injectable()
export class GatewayGuard implements CanActivate {
  /** Resolved policy per route: metadata and the table never change after start-up. */
  private readonly policies = new Map<string, AdmissionPolicy>();

  constructor(
    private readonly reflector: Reflector,
    private readonly pipeline: GatewayPipeline,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (!isPublicApiPath(request.url)) return true;
    const admitted = this.pipeline.admit(
      request,
      http.getResponse<FastifyReply>(),
      this.policyFor(context, request),
    );
    return admitted instanceof Promise ? admitted.then(() => true) : true;
  }

  private policyFor(context: ExecutionContext, request: FastifyRequest): AdmissionPolicy {
    const pattern = routePattern(request);
    const cacheKey = pattern === undefined ? undefined : `${request.method} ${pattern}`;
    const cached = cacheKey === undefined ? undefined : this.policies.get(cacheKey);
    if (cached) return cached;
    const targets = [context.getHandler(), context.getClass()];
    const routeUrl = (pattern ?? request.url.split('?')[0]).slice(API_PREFIX.length) || '/';
    const table = findRoutePolicy(request.method, routeUrl);
    const policy: AdmissionPolicy = {
      scopes:
        this.reflector.getAllAndOverride<Scope[] | undefined>(SCOPES_METADATA, targets) ??
        table?.scopes ??
        [],
      rateClass:
        this.reflector.getAllAndOverride<RateClassId | undefined>(RATE_CLASS_METADATA, targets) ??
        table?.rateClass ??
        'global',
      route: `${request.method} ${routeUrl.replace(/:([^/]+)/g, '{$1}')}`,
    };
    if (cacheKey !== undefined) this.policies.set(cacheKey, policy);
    return policy;
  }
}
