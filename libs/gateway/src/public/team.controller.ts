import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError, PLANS } from '@analyst/contracts';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { ApiRoute } from '../auth/gateway-decorators';
import { Principal } from '../auth/principal';
import { findSubTeams, findTeam } from '../identity/identity-read-models';
import { readCredits } from './team-credits';

@ApiTags('identity')
@ApiBearerAuth()
@Controller('team')
export class TeamController {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  @Get()
  @ApiRoute('GET /team')
  @ApiOperation({ summary: 'The target team: plan, analysis settings, sub-teams and credit balances' })
  async team(@Principal() principal: Principal) {
    const team = await findTeam(this.store, principal.targetTeamId);
    if (!team) throw new ApiError(404, `team ${principal.targetTeamId} not found`, 'team_not_found');
    const plan = PLANS[team.plan];
    const subTeams = plan.subTeams ? await findSubTeams(this.store, team._id) : [];
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
        credits: await readCredits(this.store, team._id),
        createdAt: team.createdAt,
      },
      meta: {},
    };
  }
}
