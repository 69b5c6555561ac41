import { timingSafeEqual, createHash } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ApiError } from '@analyst/contracts';
import { ANALYST_CONFIG, type AnalystConfig } from '../config/analyst-config';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Failed admin-token attempts allowed per IP per 60 s, as for API keys. */
export const ADMIN_FAILED_ATTEMPTS_PER_MINUTE = 30;

/**
 * Guards `/admin/v1`: only the operator token from ANALYST_ADMIN_TOKEN opens it, never an API key.
 * Without a configured token the admin API does not exist (404). After 30 wrong tokens from one
 * address within a minute, that address gets 429 until the minute is over, right token or not.
 */
// One count per process: Nest builds a guard instance per module that uses it (gateway, ledger,
// analysis admin routes), and a per-instance count would allow 30 guesses per module.
const failures = new RateLimiterMemory({
  keyPrefix: 'admin_auth',
  points: ADMIN_FAILED_ATTEMPTS_PER_MINUTE,
  duration: 60,
});

@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(ANALYST_CONFIG) private readonly config: AnalystConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const expected = this.config.ANALYST_ADMIN_TOKEN;
    if (!expected) throw new ApiError(404, 'not found');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const blocked = await failures.get(request.ip);
    if (blocked && blocked.consumedPoints >= ADMIN_FAILED_ATTEMPTS_PER_MINUTE) {
      const retryAfter = Math.max(1, Math.ceil(blocked.msBeforeNext / 1000));
      throw new ApiError(
        429,
        `too many failed admin token attempts from this address; retry in ${retryAfter} s`,
        'admin_auth_attempts_exceeded',
        undefined,
        {
          'Retry-After': String(retryAfter),
        },
      );
    }
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    // Compare fixed-length digests so the comparison time says nothing about the token.
    if (!token || !timingSafeEqual(digest(token), digest(expected))) {
      await failures.penalty(request.ip, 1);
      throw new ApiError(
        401,
        'admin token missing or invalid: send Authorization: Bearer <ANALYST_ADMIN_TOKEN>',
        'invalid_admin_token',
        undefined,
        {
          'WWW-Authenticate': 'Bearer realm="analyst-admin"',
        },
      );
    }
    return true;
  }
}
