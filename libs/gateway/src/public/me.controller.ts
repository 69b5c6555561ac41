import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  effectiveLimits,
  RATE_CLASS_IDS,
  type EffectiveLimits,
  type RateClassId,
} from '@analyst/domain-identity';
import {
  ApiEnvelopeResponse,
  ApiKeyAuth,
  CLOCK,
  envelope,
  openApi,
  type Clock,
  ApiRoute,
  principalOf,
  type Principal,
} from '@analyst/platform';
import { accountOf, limitsOf, type KeyAccount } from '../auth/gateway-pipeline';
import { IdentityCache } from '../identity/identity-cache';
import type { ApiKeyDoc, TeamDoc } from '../identity/identity-read-models';
import { RateLimitService, type ClassUsage } from '../limits/rate-limit.service';

const RATE_CLASS_CAPS = openApi.obj({
  perMinute: openApi.int(),
  perDay: openApi.int(),
  remainingPerMinute: openApi.int(),
  remainingPerDay: openApi.int(),
});

@ApiTags('identity')
@ApiKeyAuth()
@Controller('me')
export class MeController {
  constructor(
    private readonly limits: RateLimitService,
    private readonly identities: IdentityCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiRoute('GET /me')
  @ApiOperation({
    summary: 'The calling key, its team, and what is left of its limits',
    description: 'Any valid key; no scope needed.',
  })
  @ApiEnvelopeResponse(
    200,
    envelope(
      openApi.obj({
        key: openApi.obj({
          id: openApi.str(),
          name: openApi.str(),
          scopes: openApi.arrayOf(openApi.str()),
          createdAt: openApi.nullable(openApi.timestamp()),
          rotatedAt: openApi.nullable(openApi.timestamp()),
        }),
        team: openApi.obj({ id: openApi.str(), name: openApi.nullable(openApi.str()), plan: openApi.str() }),
        targetTeamId: openApi.str('The team this request acts on (a sub-team with ?teamId=).'),
        rateLimit: openApi.obj({
          remainingRequests: openApi.int('Global requests left this UTC minute.'),
          remainingDailyRequests: openApi.int('Global requests left this UTC day.'),
          remainingBytes: openApi.int('Response bytes left this UTC day.'),
          dailyBytes: openApi.int(),
          resetsInSeconds: openApi.obj({
            minute: openApi.nullable(openApi.int()),
            day: openApi.nullable(openApi.int()),
          }),
          routeClasses: openApi.obj(
            Object.fromEntries(RATE_CLASS_IDS.map((id) => [id, RATE_CLASS_CAPS])),
            undefined,
            {
              description: 'Every rate class with its caps and what is left.',
            },
          ),
        }),
      }),
    ),
    { description: 'The key, its team and its limits' },
  )
  me(@Req() request: FastifyRequest): MeBody | Promise<MeBody> {
    // What @Principal() reads, without a parameter decorator's context and pipe run on every request.
    const principal = principalOf(request);
    if (!principal) throw new Error('@Principal() used on a route the gateway does not authenticate');
    // In the same turn when the documents are cached and the admission's reading is at hand.
    const key = this.identities.cachedKey(principal.keyId);
    const team = this.identities.cachedTeam(principal.teamId);
    const account = accountOf(request);
    if (key === undefined || team === undefined || !account?.reading) return this.meLater(principal, request);
    const limits = teamLimits(team);
    const now = this.clock.now();
    return meBody(
      principal,
      key,
      team,
      limits,
      this.limits.usageOf(principal.keyId, limits, now, account.reading),
      account,
    );
  }

  private async meLater(principal: Principal, request: FastifyRequest): Promise<MeBody> {
    const [key, team] = await Promise.all([
      this.identities.key(principal.keyId),
      this.identities.team(principal.teamId),
    ]);
    const limits = teamLimits(team);
    const now = this.clock.now();
    const account = accountOf(request);
    const usage = await this.limits.usage(principal.keyId, limits, now, account?.reading);
    return meBody(principal, key, team, limits, usage, account);
  }
}

type MeBody = ReturnType<typeof meBody>;

/** The team's limits (worked out once per team document), or the defaults for a key without one. */
function teamLimits(team: TeamDoc | null): EffectiveLimits {
  return team ? limitsOf(team) : effectiveLimits(undefined);
}

function meBody(
  principal: Principal,
  key: ApiKeyDoc | null,
  team: TeamDoc | null,
  limits: EffectiveLimits,
  { classes: routeClasses, bytesUsed }: { classes: Record<RateClassId, ClassUsage>; bytesUsed: number },
  account: KeyAccount | undefined,
) {
  const snapshot = account?.snapshot;
  return {
    data: {
      key: {
        id: principal.keyId,
        name: principal.keyName,
        scopes: principal.scopes,
        createdAt: key?.createdAt ?? null,
        rotatedAt: key?.rotatedAt ?? null,
      },
      team: { id: principal.teamId, name: team?.name ?? null, plan: principal.plan },
      targetTeamId: principal.targetTeamId,
      rateLimit: {
        remainingRequests: routeClasses.global.remainingPerMinute,
        remainingDailyRequests: routeClasses.global.remainingPerDay,
        remainingBytes: Math.max(0, limits.dailyBytes - bytesUsed),
        dailyBytes: limits.dailyBytes,
        resetsInSeconds: {
          minute: snapshot?.secondsToMinute ?? null,
          day: snapshot?.secondsToMidnight ?? null,
        },
        routeClasses,
      },
    },
    meta: {},
  };
}
