import { timingSafeEqual, createHash } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '@analyst/contracts';
import { ANALYST_CONFIG, type AnalystConfig } from '../config/analyst-config';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Guards `/admin/v1`: only the operator token from ANALYST_ADMIN_TOKEN opens it, never an API key.
 * Without a configured token the admin API does not exist (404).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(ANALYST_CONFIG) private readonly config: AnalystConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.ANALYST_ADMIN_TOKEN;
    if (!expected) throw new ApiError(404, 'not found');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    // Compare fixed-length digests so the comparison time says nothing about the token.
    if (!token || !timingSafeEqual(digest(token), digest(expected))) {
      throw new ApiError(401, 'admin token missing or invalid: send Authorization: Bearer <ANALYST_ADMIN_TOKEN>');
    }
    return true;
  }
}
