import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, PLANS, type Scope, rateClassForRequest } from '@analyst/contracts';
import {
  effectiveLimits,
  parseApiKey,
  type EffectiveLimits,
  type RateClassId,
} from '@analyst/domain-identity';
import { CLOCK, type Clock, attachPrincipal, type Principal } from '@analyst/platform';
import { IdentityCache } from '../identity/identity-cache';
import type { ApiKeyDoc, TeamDoc } from '../identity/identity-read-models';
import { keySecretMatches } from '../identity/secret-hash';
import { rateLimitHeaders, setRateLimitHeaders } from '../limits/rate-limit-headers';
import { RateLimitService, type Admission, type LimitSnapshot } from '../limits/rate-limit.service';
import type { CounterReading } from '../limits/rate-counters';
import { presentedKey } from './credentials';

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
export function limitsOf(team: TeamDoc): EffectiveLimits {
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

/** The errors of authentication, built where they are thrown (an error's stack is not free). */
function authAttemptsExceeded(perMinute: number, retryAfter: number): ApiError {
  return new ApiError(
    429,
    `too many failed authentication attempts from this address (limit ${perMinute} per minute); retry in ${retryAfter} s`,
    'auth_attempts_exceeded',
    undefined,
    { 'Retry-After': String(retryAfter), 'X-RateLimit-Class': 'auth_failures' },
  );
}
function missingApiKey(): ApiError {
  return new ApiError(401, `missing API key: ${AUTH_HINT}`, 'missing_api_key', undefined, WWW_AUTHENTICATE);
}
function invalidApiKey(): ApiError {
  return new ApiError(
    401,
    `invalid API key (unknown, malformed or rotated): ${AUTH_HINT}`,
    'invalid_api_key',
    undefined,
    WWW_AUTHENTICATE,
  );
}
function revokedApiKey(): ApiError {
  return new ApiError(
    401,
    'this API key has been revoked; create a new key in the team settings',
    'revoked_api_key',
    undefined,
    WWW_AUTHENTICATE,
  );
}
function keyWithoutTeam(): ApiError {
  return new ApiError(401, 'this API key belongs to no team', 'invalid_api_key', undefined, WWW_AUTHENTICATE);
}
function teamNotFound(teamId: string): ApiError {
  return new ApiError(404, `team ${teamId} not found`, 'team_not_found');
}

/** An Enterprise key's sub-team, or 404 (never 403, to reveal nothing). */
function subTeamOf(team: TeamDoc, teamId: string, target: TeamDoc | null): TeamDoc {
  if (!target || target.parentTeamId !== team._id) throw teamNotFound(teamId);
  return target;
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

  /**
   * Admits the request or throws the ApiError that refuses it. Decided in the same turn, without a
   * promise, when the counters live in this process and the key's documents are in the identity
   * cache (every request of a known key, standalone); otherwise the answer is a promise.
   */
  admit(
    request: FastifyRequest,
    reply: FastifyReply,
    policy: AdmissionPolicy,
  ): Principal | Promise<Principal> {
    if (this.limits.decidesNow) {
      const principal = this.admitNow(request, reply, policy);
      if (principal !== undefined) return principal;
    }
    return this.admitLater(request, reply, policy);
  }

  /** `admitLater` in the same turn; undefined, with nothing done, when a document is not cached. */
  private admitNow(
    request: FastifyRequest,
    reply: FastifyReply,
    policy: AdmissionPolicy,
  ): Principal | undefined {
    const now = this.clock.now();
    const found = this.authenticateNow(request, now);
    if (found === undefined) return undefined;
    const { key, team } = found;
    // The target team is looked up (not judged) before the charge, so a miss changes nothing.
    const teamId = teamIdParameter(request);
    const other = teamId !== undefined && teamId !== team._id;
    const subTeam = other && PLANS[team.plan].subTeams ? this.identities.cachedTeam(teamId) : null;
    if (subTeam === undefined) return undefined;

    const limits = limitsOf(team);
    const account = this.account(request, key, team, limits);
    const rateClass = rateClassForRequest(policy.rateClass, request.body);
    this.charged(reply, account, this.limits.admitNow(key._id, rateClass, limits, now), team);
    let target = team;
    if (other) {
      if (!PLANS[team.plan].subTeams) throw teamNotFound(teamId);
      target = subTeamOf(team, teamId, subTeam);
    }
    return this.principal(request, policy, key, team, target);
  }

  /** The key and its team from the cache, or the refusal; undefined, with nothing done, on a miss. */
  private authenticateNow(request: FastifyRequest, now: Date): { key: ApiKeyDoc; team: TeamDoc } | undefined {
    const ip = request.ip;
    const blocked = this.limits.authBlockedNow(ip, now);
    if (blocked !== null) throw authAttemptsExceeded(this.limits.authFailuresPerMinute, blocked);
    const presented = presentedKey(request.headers);
    if (presented === null) {
      this.limits.recordAuthFailureNow(ip, now);
      throw missingApiKey();
    }
    const parsed = parseApiKey(presented);
    const key = parsed ? this.identities.cachedKey(parsed.keyId) : null;
    if (key === undefined) return undefined;
    if (!parsed || !key || !keySecretMatches(key, parsed.secret)) {
      this.limits.recordAuthFailureNow(ip, now);
      throw invalidApiKey();
    }
    if (key.status === 'revoked') {
      this.limits.recordAuthFailureNow(ip, now);
      throw revokedApiKey();
    }
    const team = this.identities.cachedTeam(key.teamId);
    if (team === undefined) return undefined;
    if (!team) throw keyWithoutTeam();
    return { key, team };
  }

  private async admitLater(
    request: FastifyRequest,
    reply: FastifyReply,
    policy: AdmissionPolicy,
  ): Promise<Principal> {
    const now = this.clock.now();
    const ip = request.ip;
    const blocked = await this.limits.authBlocked(ip, now);
    if (blocked !== null) throw authAttemptsExceeded(this.limits.authFailuresPerMinute, blocked);

    const presented = presentedKey(request.headers);
    if (presented === null) {
      await this.limits.recordAuthFailure(ip, now);
      throw missingApiKey();
    }
    const parsed = parseApiKey(presented);
    const key = parsed ? await this.identities.key(parsed.keyId) : null;
    if (!parsed || !key || !keySecretMatches(key, parsed.secret)) {
      await this.limits.recordAuthFailure(ip, now);
      throw invalidApiKey();
    }
    if (key.status === 'revoked') {
      await this.limits.recordAuthFailure(ip, now);
      throw revokedApiKey();
    }
    const team = await this.identities.team(key.teamId);
    if (!team) throw keyWithoutTeam();

    const limits = limitsOf(team);
    const account = this.account(request, key, team, limits);
    const rateClass = rateClassForRequest(policy.rateClass, request.body);
    const admission = await this.limits.admit(key._id, rateClass, limits, now);
    this.charged(reply, account, admission, team);
    const target = await this.targetTeam(team, teamIdParameter(request));
    return this.principal(request, policy, key, team, target);
  }

  /** The key's account, kept on the request for byte accounting even when it is refused later. */
  private account(
    request: FastifyRequest,
    key: ApiKeyDoc,
    team: TeamDoc,
    limits: EffectiveLimits,
  ): KeyAccount {
    const account: KeyAccount = {
      keyId: key._id,
      teamId: team._id,
      dailyBytes: limits.dailyBytes,
      snapshot: null,
      reading: null,
    };
    (request as { [ACCOUNT]?: KeyAccount })[ACCOUNT] = account;
    return account;
  }

  /** After the charge: the limit headers, a 429 when a limit tripped, 403 when the plan has no API. */
  private charged(reply: FastifyReply, account: KeyAccount, admission: Admission, team: TeamDoc): void {
    account.snapshot = admission.snapshot;
    account.reading = admission.reading;
    if (!admission.admitted) {
      const headers = rateLimitHeaders(admission.snapshot);
      void reply.headers(headers);
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
    setRateLimitHeaders(reply, admission.snapshot);
    if (!PLANS[team.plan].api) {
      throw new ApiError(403, `the team's ${team.plan} plan does not include API access`, 'plan_without_api');
    }
  }

  /** The target team's plan and the scopes; then the request carries its principal. */
  private principal(
    request: FastifyRequest,
    policy: AdmissionPolicy,
    key: ApiKeyDoc,
    team: TeamDoc,
    target: TeamDoc,
  ): Principal {
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
    if (!PLANS[team.plan].subTeams) throw teamNotFound(teamId);
    return subTeamOf(team, teamId, await this.identities.team(teamId));
  }
}
