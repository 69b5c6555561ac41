import { Controller, Get, Inject, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PLAN_IDS, PLANS } from '@analyst/contracts';
import { IdentityError } from '@analyst/domain-identity';
import {
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  CLOCK,
  EVENT_STORE,
  envelope,
  openApi,
  READ_STORE,
  TEAM_NOT_FOUND,
  type Clock,
  type EventStore,
  type ReadStore,
  ApiRoute,
  Principal,
  ErrorMappingFilter,
} from '@analyst/platform';
import { IdentityCache } from '../identity/identity-cache';
import { toApiError } from '../identity/identity-error.mapping';
import { TeamCreditsReader } from './team-credits';

@ApiTags('identity')
@ApiKeyAuth()
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('team')
export class TeamController {
  private readonly credits: TeamCreditsReader;

  constructor(
    @Inject(READ_STORE) store: ReadStore,
    @Inject(EVENT_STORE) log: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly identities: IdentityCache,
  ) {
    this.credits = new TeamCreditsReader(store, log);
  }

  @Get()
  @ApiRoute('GET /team')
  @ApiOperation({
    summary: 'The target team: plan, analysis settings, sub-teams and credit balances',
    description: 'Scope team:read.',
  })
  @ApiEnvelopeResponse(
    200,
    envelope(
      openApi.obj({
        id: openApi.str(),
        name: openApi.str(),
        plan: openApi.obj({
          id: openApi.oneOfStrings(PLAN_IDS),
          api: openApi.bool('Whether the plan includes the public API.'),
          includedRefresh: openApi.oneOfStrings(
            ['hourly', 'daily', 'weekly'],
            'Refresh cadence included in the plan.',
          ),
          creditsOnRefresh: openApi.bool(
            'Whether refreshes beyond the included cadence may be paid with credits.',
          ),
          subTeams: openApi.bool(),
          monthlyMapAllotment: openApi.int('MAPs granted at the start of every UTC month.'),
        }),
        parentTeamId: openApi.nullable(openApi.str()),
        subTeams: openApi.nullable(
          openApi.arrayOf(
            openApi.obj({ id: openApi.str(), name: openApi.str(), plan: openApi.str() }),
            'Enterprise teams only.',
          ),
        ),
        analysisSettings: openApi.obj({
          scoreVersion: openApi.int(undefined, { enum: [1, 2, 3] }),
          engagementWeight: openApi.num(),
        }),
        credits: openApi.obj(
          {
            maps: openApi.int('MAPs left this month.'),
            adhoc: openApi.int('Ad Hoc credits left.'),
            reserved: openApi.int('Credits reserved by posts in flight.'),
          },
          undefined,
          { description: 'Credit balances.' },
        ),
        createdAt: openApi.timestamp(),
      }),
    ),
    { description: 'The team' },
  )
  @ApiErrorResponses({ 404: TEAM_NOT_FOUND })
  async team(@Principal() principal: Principal) {
    const team = await this.identities.team(principal.targetTeamId);
    if (!team) throw new IdentityError('team_not_found', `team ${principal.targetTeamId} not found`);
    const plan = PLANS[team.plan];
    // The team and its sub-teams from memory (kept true by the identity events); credits change
    // with every charge, so the team's ledger stream is read past what this process has folded.
    const [subTeams, credits] = await Promise.all([
      plan.subTeams ? this.identities.subTeams(team._id) : [],
      this.credits.read(team._id, this.clock.now()),
    ]);
    return {
      data: {
        id: team._id,
        name: team.name,
        plan: {
          id: plan.id,
          api: plan.api,
          includedRefresh: plan.includedRefresh,
          creditsOnRefresh: plan.creditsOnRefresh,
          subTeams: plan.subTeams,
          monthlyMapAllotment: team.monthlyMapAllotment,
        },
        parentTeamId: team.parentTeamId,
        subTeams: plan.subTeams ? subTeams.map((s) => ({ id: s._id, name: s.name, plan: s.plan })) : null,
        analysisSettings: team.analysisSettings,
        credits,
        createdAt: team.createdAt,
      },
      meta: {},
    };
  }
}
