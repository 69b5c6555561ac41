import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '@analyst/contracts';
import {
  ANALYST_CONFIG,
  API_PREFIX,
  CLOCK,
  type AnalystConfig,
  type Clock,
  attachPrincipal,
} from '@analyst/platform';
import { INTERNAL_AUTH_HEADER, verifyInternalAuth } from './internal-auth';

/**
 * A service behind the gateway: every public route needs the gateway's signed header, which carries
 * the authenticated principal. Admin routes keep their own operator token (AdminTokenGuard) and
 * also need the signature, so a service port reached directly answers nothing.
 */
@Injectable()
export class InternalAuthGuard implements CanActivate {
  constructor(
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const path = request.url.split('?')[0];
    if (!path.startsWith(`${API_PREFIX}/`) && !path.startsWith('/admin/')) return true; // health, metrics
    const secret = this.config.ANALYST_INTERNAL_SECRET;
    if (!secret)
      throw new ApiError(503, 'service is not configured for internal auth (ANALYST_INTERNAL_SECRET)');
    const header = request.headers[INTERNAL_AUTH_HEADER];
    const result = verifyInternalAuth(
      secret,
      typeof header === 'string' ? header : undefined,
      this.clock.now().getTime(),
    );
    if (!result.ok)
      throw new ApiError(
        401,
        `${result.reason}: this service only answers requests forwarded by the gateway`,
      );
    if (result.claims.principal.keyId) attachPrincipal(request, result.claims.principal);
    return true;
  }
}
