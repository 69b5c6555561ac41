import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, PLANS, type Scope } from '@analyst/contracts';
import {
  effectiveLimits,
  parseApiKey,
  type EffectiveLimits,
  type RateClassId,
} from '@analyst/domain-identity';
import { CLOCK, type Clock } from '@analyst/platform';
import { IdentityCache } from '../identity/identity-cache';
import type { TeamDoc } from '../identity/identity-read-models';
import { keySecretMatches } from '../identity/secret-hash';
import { rateLimitHeaders } from '../limits/rate-limit-headers';
import { RateLimitService, type LimitSnapshot } from '../limits/rate-limit.service';
import type { CounterReading } from '../limits/rate-counters';
import { presentedKey } from './credentials';
import { attachPrincipal, type Principal } from '@analyst/platform';
import { rateClassForRequest } from '@analyst/contracts';

/** `X-RateLimit-Class` of a 429 from the daily response-byte cap. */
export const BYTE_CAP_CLASS = 'response_bytes';

const AUTH_HINT = 'send your API key as `Authorization: Bearer <key>` or `X-Api-Key: <key>`';
const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer realm="analyst"' };

/** The authenticated key of a request, kept for byte accounting even when the request is refused later. */
export interface KeyAccount {
  keyId: string;
  teamId: string;
  dailyBytes: number;
  snapshot: LimitSnapshot | null;
  /** The key's counters right after this request's charge. */
  reading: CounterReading | null;
}
const ACCOUNT = Symbol.for('analyst.gateway.account');

/** A team's limits, worked out once per cached team document rather than on every request. */
const LIMITS_OF_TEAM = new WeakMap<TeamDoc, EffectiveLimits>();
function limitsOf(team: TeamDoc): EffectiveLimits {
  let limits = LIMITS_OF_TEAM.get(team);
  if (!limits) {
    limits = effectiveLimits(team.rateLimits);
    LIMITS_OF_TEAM.set(team, limits);
  }
  return limits;
}
export function accountOf(request: object): KeyAccount | undefined {
  return (request as { [ACCOUNT]?: KeyAccount })[ACCOUNT];
}

export interface AdmissionPolicy {
  scopes: readonly Scope[];
  rateClass: RateClassId;
  /** `METHOD /path` for messages. */
  route: string;
}

function teamIdParameter(request: FastifyRequest): string | undefined {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.teamId;
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fromBody = (body as Record<string, unknown>).teamId;
    if (typeof fromBody === 'string' && fromBody !== '') return fromBody;
  }
  return undefined;
}

/**
 * Everything a public request passes before its handler, in order: the failed-auth limit of the
 * IP, the key, the rate limits (headers set here, so every later response carries them), the
 * plan, the target team, the scopes.
 */
@Injectable()
export class GatewayPipeline {
  constructor(
    private readonly limits: RateLimitService,
    private readonly identities: IdentityCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async admit(request: FastifyRequest, reply: FastifyReply, policy: AdmissionPolicy): Promise<Principal> {
    const now = this.clock.now();
    const ip = request.ip;
    const blocked = await this.limits.authBlocked(ip, now);
    if (blocked !== null) {
      throw new ApiError(
        429,
        `too many failed authentication attempts from this address (limit ${this.limits.authFailuresPerMinute} per minute); retry in ${blocked} s`,
        'auth_attempts_exceeded',
        undefined,
        { 'Retry-After': String(blocked), 'X-RateLimit-Class': 'auth_failures' },
      );
    }

    const presented = presentedKey(request.headers);
    if (presented === null) {
      await this.limits.recordAuthFailure(ip, now);
      throw new ApiError(
        401,
        `missing API key: ${AUTH_HINT}`,
        'missing_api_key',
        undefined,
        WWW_AUTHENTICATE,
      );
    }
    const parsed = parseApiKey(presented);
    const key = parsed ? await this.identities.key(parsed.keyId) : null;
    if (!parsed || !key || !keySecretMatches(key, parsed.secret)) {
      await this.limits.recordAuthFailure(ip, now);
      throw new ApiError(
        401,
        `invalid API key (unknown, malformed or rotated): ${AUTH_HINT}`,
        'invalid_api_key',
        undefined,
        WWW_AUTHENTICATE,
      );
    }
    if (key.status === 'revoked') {
      await this.limits.recordAuthFailure(ip, now);
      throw new ApiError(
        401,
        'this API key has been revoked; create a new key in the team settings',
        'revoked_api_key',
        undefined,
        WWW_AUTHENTICATE,
      );
    }
    const team = await this.identities.team(key.teamId);
    if (!team)
      throw new ApiError(
        401,
        'this API key belongs to no team',
        'invalid_api_key',
        undefined,
        WWW_AUTHENTICATE,
      );

    const limits = limitsOf(team);
    const account: KeyAccount = {
      keyId: key._id,
      teamId: team._id,
      dailyBytes: limits.dailyBytes,
      snapshot: null,
      reading: null,
    };
    (request as { [ACCOUNT]?: KeyAccount })[ACCOUNT] = account;

    const rateClass = rateClassForRequest(policy.rateClass, request.body);
    const admission = await this.limits.admit(key._id, rateClass, limits, now);
    account.snapshot = admission.snapshot;
    account.reading = admission.reading;
    const headers = rateLimitHeaders(admission.snapshot);
    void reply.headers(headers);
    if (!admission.admitted) {
      const { trip } = admission;
      const what =
        trip.kind === 'bytes'
          ? `daily response byte cap of ${trip.cap} bytes reached`
          : `${trip.kind === 'burst' ? 'burst cap' : 'daily budget'} of rate class ${trip.rateClass} exceeded (${trip.cap} requests per ${trip.kind === 'burst' ? 'UTC minute' : 'UTC day'})`;
      throw new ApiError(429, `${what}; retry in ${trip.retryAfter} s`, 'rate_limited', undefined, {
        ...headers,
        'Retry-After': String(trip.retryAfter),
        // The limit that tripped: the byte cap is not a request class, so it has a name of its own.
        'X-RateLimit-Class': trip.kind === 'bytes' ? BYTE_CAP_CLASS : trip.rateClass,
      });
    }

    if (!PLANS[team.plan].api) {
      throw new ApiError(403, `the team's ${team.plan} plan does not include API access`, 'plan_without_api');
    }
    const target = await this.targetTeam(team, teamIdParameter(request));
    if (!PLANS[target.plan].api) {
      throw new ApiError(
        403,
        `team ${target._id} is on the ${target.plan} plan, which does not include API access`,
        'plan_without_api',
      );
    }
    const missing = policy.scopes.filter((s) => !key.scopes.includes(s));
    if (missing.length > 0) {
      throw new ApiError(
        403,
        `this API key lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')} required by ${policy.route}`,
        'missing_scope',
      );
    }
    const principal: Principal = {
      keyId: key._id,
      keyName: key.name,
      scopes: key.scopes,
      teamId: team._id,
      plan: team.plan,
      targetTeamId: target._id,
      targetPlan: target.plan,
    };
    attachPrincipal(request, principal);
    return principal;
  }

  /** The key's own team, or an Enterprise key's sub-team; any other `teamId` is 404 (never 403, to reveal nothing). */
  private async targetTeam(team: TeamDoc, teamId: string | undefined): Promise<TeamDoc> {
    if (teamId === undefined || teamId === team._id) return team;
    const notFound = new ApiError(404, `team ${teamId} not found`, 'team_not_found');
    if (!PLANS[team.plan].subTeams) throw notFound;
    const target = await this.identities.team(teamId);
    if (!target || target.parentTeamId !== team._id) throw notFound;
    return target;
  }
}
